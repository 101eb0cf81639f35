// Loading scenarios from TOML files and embedded presets, and applying --set.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/check.hpp"
#include "core/error.hpp"
#include "core/fields.hpp"
#include "core/model.hpp"

namespace pipesim {

struct LoadedScenario {
  std::string name;         // from `name = ...`, else the file or preset name
  std::string description;  // from `description = ...`
  Origin source;            // where it was loaded from (for errors without a position)
  Scenario scenario;
  std::array<Origin, kFieldCount> origins{};  // where each set field was set
  Plan plan;                                  // the [require] table, if any
  std::vector<std::string> files;             // every file read for it (itself and what it uses), once each
};

// Loads a scenario from TOML text; `doc` (without a position) names it in errors. `use = [...]` entries
// are resolved against embedded presets and, for paths, against `base_dir`.
LoadedScenario load_scenario_text(std::string_view text, const Origin& doc, const std::string& base_dir);

// A file path or an embedded preset name; empty means the default preset, and "-" standard
// input (named "<stdin>" in errors; read once: a second "-" reads nothing).
LoadedScenario load_scenario(std::string_view arg);

// Rates given per step ("3.45 it/s") as samples/s: times the scenario's batch size. Done when
// a file has been read whole (its `use`s and its own batch size applied) and after each --set,
// so a rate per step is per step at the batch size in force where it was written.
void convert_step_rates(LoadedScenario& s);

// Applies one "key=value" assignment, as given to --set.
void apply_assignment(LoadedScenario& s, std::string_view assignment);

// Sets a field, replacing its alternatives (see alternatives()); throws when an alternative
// was set from the same source, since one file should say it once.
void set_field(LoadedScenario& s, Field f, const Quantity& q, const Origin& where);

// Applies one "key=value" requirement, as given to --require (replaces one of the same key).
void apply_requirement(LoadedScenario& s, std::string_view assignment);

// Where a field was set, or the scenario's source when it was never set.
Origin origin_of(const LoadedScenario& s, Field f);

// Calls fn() and turns a FieldError into an Error located where that field was set.
template <class Fn>
auto with_origins(const LoadedScenario& s, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const FieldError& e) {
    throw Error(origin_of(s, e.field()), e.what());
  }
}

}  // namespace pipesim
