// Presets shipped in configs/ and embedded into the binary at build time.
#pragma once

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

// The scenario used when none is given.
constexpr std::string_view kDefaultPreset = "reference";

}  // namespace pipesim
