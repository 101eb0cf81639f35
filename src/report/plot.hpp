// pipesim's figures as SVG (DESIGN.md section 9): a diagnosis as bars (time per batch by stage,
// the binding wall highlighted, and what each fix buys) and a sweep as curves (utilization,
// throughput and stage times along the innermost axis, one curve per combination of the outer
// axes, crossovers marked). Layout only: every figure comes from the core, and each point's
// figures are also in the SVG as text (tooltips), the same numbers the table shows.
#pragma once

#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/compare.hpp"
#include "core/diagnosis.hpp"
#include "core/sweep.hpp"

namespace pipesim {

std::string diagnosis_svg(const LoadedScenario& loaded, const Diagnosis& d);

// Plans side by side: one panel of bars per figure compared (throughput, utilization, epoch time,
// cost per epoch, when any plan has it), the best marked. `labels` name the plans.
std::string compare_svg(const std::vector<std::string>& labels, const std::vector<CompareRow>& rows);

// At most kMaxPlotCurves curves; throws Error with more.
inline constexpr std::size_t kMaxPlotCurves = 8;
std::string sweep_svg(const LoadedScenario& loaded, const std::vector<Axis>& axes, const std::vector<Curve>& curves);

}  // namespace pipesim
