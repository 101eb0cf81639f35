// What `pipesim presets` prints: the presets grouped by kind (text, markdown, JSON), one preset
// in JSON and the field keys (text, markdown, JSON). Layout only: the CLI gathers the entries.
// The JSON Schema of `presets --schema` is schema.hpp; `init`'s file is init_toml.hpp.
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

void text_presets(Out& o, const std::vector<PresetEntry>& presets, bool markdown);
void json_presets(Out& o, const std::vector<PresetEntry>& presets);
// One preset: its entry, the fields it sets (base units, as JSON "inputs") and its TOML.
void json_preset(Out& o, const PresetEntry& p, const LoadedScenario& loaded, std::string_view toml);

// Whether a field's key contains `filter` (every key does when it is empty).
bool key_matches(const FieldSpec& f, std::string_view filter);
// Every field whose key contains `filter` (all when it is empty).
void text_keys(Out& o, bool markdown, std::string_view filter);
void json_keys(Out& o, std::string_view filter);

// The "inputs" object of a scenario (json.cpp).
void json_inputs(JsonWriter& j, const Scenario& s);

}  // namespace pipesim
