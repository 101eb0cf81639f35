// What `pipesim presets` prints: the presets grouped by kind (text, markdown, JSON), one preset
// in JSON, the field keys (text, markdown, JSON) and a JSON Schema of the scenario TOML that
// editors use to complete and check files. Layout only: the CLI gathers the entries.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/loader.hpp"
#include "report/json_writer.hpp"
#include "report/out.hpp"

namespace pipesim {

struct PresetEntry {
  std::string name;
  std::string path;
  std::string kind;  // "accelerator", "node", "storage", "workload", "loader", "plan", "scenario"
  std::string description;
  bool complete = false;  // a whole scenario: `pipesim diagnose NAME` runs on it alone
};

// The kinds in the order the list shows them, with their headings.
std::string_view preset_kind_heading(std::string_view kind);

void text_presets(Out& o, const std::vector<PresetEntry>& presets, bool markdown);
void json_presets(Out& o, const std::vector<PresetEntry>& presets);
// One preset: its entry, the fields it sets (base units, as JSON "inputs") and its TOML.
void json_preset(Out& o, const PresetEntry& p, const LoadedScenario& loaded, std::string_view toml);

// Whether a field's key contains `filter` (every key does when it is empty).
bool key_matches(const FieldSpec& f, std::string_view filter);
// Every field whose key contains `filter` (all when it is empty).
void text_keys(Out& o, bool markdown, std::string_view filter);
void json_keys(Out& o, std::string_view filter);
// A JSON Schema (draft-07) of a scenario file: tables, keys, value forms, defaults, help.
void json_schema(Out& o);

// `pipesim init [PRESETS...]`: a commented starting scenario that uses `presets` (composed in
// `loaded`). Under each table: what the presets set (commented, with the preset that set it), and
// every key without a default that nothing set yet, marked to decide (the required ones too).
std::string init_toml(const std::vector<std::string>& presets, const LoadedScenario& loaded);

// The "inputs" object of a scenario (json.cpp).
void json_inputs(JsonWriter& j, const Scenario& s);

}  // namespace pipesim
