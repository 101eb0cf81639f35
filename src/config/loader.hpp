// Loading scenarios from TOML files and embedded presets, and applying --set.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analyses/check.hpp"
#include "core/base/error.hpp"
#include "core/base/fields.hpp"
#include "core/stages/model.hpp"

namespace pipesim {

// A model's steps measured on several accelerators: `[model.on.NAME]` tables of a model preset
// (or file), each with the measured_overhead and measured_per_sample measured on NAME, or the
// measured_steps (the step at several batch sizes) measured there. The
// scenario takes the step of its own accelerator (accelerator.type) where the table has one,
// or of model.measured_on where a later layer names it alone; else the step set beside the
// table (its `base`). A later layer that sets the step itself sets the table aside.
// A step field's value (none: not set) and where it was set.
struct StepValue {
  Field field;
  std::optional<Quantity> value;
  Origin origin;
};
struct StepOn {
  double accelerator = 0;  // the choice of accelerator.type / model.measured_on
  Origin where;            // the table's header
  std::vector<StepValue> values;
  StepPoints points;  // model.measured_steps there, in place of the values
  Origin points_origin;
};
struct StepTable {
  std::vector<StepOn> entries;
  // The step fields (model.measured_overhead, measured_per_sample, measured_on) as set beside
  // the table: restored where the accelerator has no entry; or the step measured at several
  // batch sizes beside it.
  std::vector<StepValue> base;
  StepPoints base_points;
  Origin base_points_origin;
  std::optional<double> forced;  // model.measured_on set after the table, alone
  Origin forced_origin;
};

// A `use` of the scenario's own file (or of a composition A+B) that sets nothing which stays:
// every key it sets is set again after it. `by`: who set them again (preset names, file paths).
struct ShadowedUse {
  std::string name;  // as `use` names it
  Origin where;      // the `use` entry
  std::vector<std::string> by;
};

struct LoadedScenario {
  std::string name;         // from `name = ...`, else the file or preset name
  std::string description;  // from `description = ...`
  Origin source;            // where it was loaded from (for errors without a position)
  Scenario scenario;
  std::array<Origin, kFieldCount> origins{};  // where each set field was set
  Plan plan;                                  // the [require] table, if any
  std::vector<std::string> files;             // every file read for it (itself and what it uses), once each
  std::optional<StepTable> steps;             // the model's steps per accelerator, where it has them
  std::vector<ShadowedUse> shadowed;          // the file's own uses that change nothing
};

// Sets the step measured at several batch sizes (model.measured_steps), written at `where`: it
// replaces model.measured_per_sample and model.measured_overhead, and sets a step table aside.
void set_step_points(LoadedScenario& s, const StepPoints& p, const Origin& where);

// Whether a preset, loaded, is what its build-time snapshot holds: plain field values. Plans
// (requirements), a model's steps per accelerator or at several batch sizes, and what its figures
// were measured for are not snapshotted.
bool snapshot_holds(const LoadedScenario& s);

// Takes the step of the scenario's accelerator from its StepTable (see StepTable). Done when a
// scenario has been loaded and after each --set, like convert_step_rates.
void pick_step(LoadedScenario& s);

// Loads a scenario from TOML text; `doc` (without a position) names it in errors. `use = [...]` entries
// are resolved against embedded presets and, for paths, against `base_dir`.
LoadedScenario load_scenario_text(std::string_view text, const Origin& doc, const std::string& base_dir);

// A file path or an embedded preset name; empty means the default preset, and "-" standard
// input (named "<stdin>" in errors; read once: a second "-" reads nothing).
// `read`, when given, gains the path of every file opened for it as it is opened, also where the
// scenario then fails to load (what a report must not be written over).
LoadedScenario load_scenario(std::string_view arg, std::vector<std::string>* read = nullptr);

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
