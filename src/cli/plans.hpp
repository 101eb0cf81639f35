// What `check` and `compare` share: plan arguments, --set, and loading every plan before
// anything is written.
#pragma once

#include "cli/common.hpp"

namespace pipesim {

struct PlanOptions {
  std::vector<std::string> plans;
  std::vector<std::string> sets;
  std::vector<std::string> requires_;
  Format format = Format::Table;
  std::string junit;
  bool strict = false;  // check --strict
};

void add_plan_options(CLI::App& cmd, PlanOptions& o, const char* what, Output output);
// Refuses standard input (-) named as more than one plan.
void check_stdin_once(const PlanOptions& o);
// Loads one plan with --set and --require applied (`read`: as load_scenario's).
LoadedScenario load_plan(const PlanOptions& o, const std::string& arg, std::vector<std::string>* read = nullptr);
// Loads every plan with --set and --require applied.
std::vector<LoadedScenario> load_plans(const PlanOptions& o);
// A plan's result at its own batch size and the defaults it rests on (errors carry its origins),
// under its label (one of plan_labels).
PlanReport plan_report(const LoadedScenario& s, std::string label);

}  // namespace pipesim
