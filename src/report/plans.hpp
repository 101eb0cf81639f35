// Renderers for `check` (requirements, verdicts, JUnit XML) and `compare` (plans side by side).
#pragma once

#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/check.hpp"
#include "core/diagnosis.hpp"
#include "report/format.hpp"

namespace pipesim {

struct PlanReport {
  std::string label;  // short name: the file stem or preset name
  const LoadedScenario* loaded;
  Result result;        // at the plan's own batch size
  PlanOutcome outcome;  // empty for compare
};

std::string render_check(const std::vector<PlanReport>& plans, Format format);
std::string render_junit(const std::vector<PlanReport>& plans);
std::string render_compare(const std::vector<PlanReport>& plans, Format format);

// The short label of a plan argument: "configs/plans/p4d.toml" -> "p4d".
std::string plan_label(const std::string& arg);

}  // namespace pipesim
