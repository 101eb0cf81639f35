// Presets shipped in configs/ and embedded into the binary at build time.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pipesim {

struct EmbeddedPreset {
  std::string_view name;  // file stem, e.g. "reference"
  std::string_view path;  // e.g. "configs/reference.toml"
  std::string_view text;  // TOML
};

const std::vector<EmbeddedPreset>& embedded_presets();

// By name ("reference") or path ("configs/reference.toml"); nullptr when unknown.
const EmbeddedPreset* find_preset(std::string_view name);

// A preset as the loader reads it, taken at build time (tools/snapshot_presets.cpp runs the
// loader on every preset without a [require] table): loading it at run time parses no TOML.
struct SnapshotValue {
  std::uint8_t field;  // Field
  std::uint8_t dim;    // Dim
  double value;
  std::uint16_t source;  // index into PresetSnapshot::sources
  int line;
  int column;
};
struct PresetSnapshot {
  std::string_view path;  // the preset's path, as EmbeddedPreset::path
  std::string_view name;  // `name = ...` (may be empty)
  std::string_view description;
  std::span<const std::string_view> sources;
  std::span<const SnapshotValue> values;
};
// Every snapshot (none in the snapshot tool itself).
std::span<const PresetSnapshot> preset_snapshots();
// The snapshot of a preset, or nullptr (plans, which carry requirements, and models with
// steps per accelerator ([model.on]) have none).
const PresetSnapshot* find_snapshot(const EmbeddedPreset& p);

// The `description = "..."` line of a preset, as written (empty when it has none).
std::string_view preset_description(const EmbeddedPreset& p);

// The scenario used when none is given.
constexpr std::string_view kDefaultPreset = "reference";

}  // namespace pipesim
