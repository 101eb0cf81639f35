// pipesim's figures as SVG (docs/manual/commands.md, "Pictures"): a diagnosis as bars (time per batch by stage,
// the binding wall highlighted, and what each fix buys), a sweep as curves (utilization,
// throughput and stage times along the innermost axis, one curve per combination of the outer
// axes, crossovers marked), a comparison as bars, and a simulation as a timeline and the
// distribution of the loop's waits. Layout only: every figure comes from the core, and each point's
// figures are also in the SVG as text (tooltips), the same numbers the table shows.
#pragma once

#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/analyses/compare.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep.hpp"
#include "core/sim/simulate.hpp"

namespace pipesim {

std::string diagnosis_svg(const LoadedScenario& loaded, const Diagnosis& d);

// A plan as compare's figure shows it: its label, its binding wall (bit per Stage), named beside
// its utilization bar, its verdict on its requirements (none when it has none) beside its name, and its
// min_utilization, drawn as a mark on the bar of the utilization it judges (the first epoch's, or the steady state's
// under require.epochs = "steady").
struct ComparePlan {
  std::string label;
  unsigned walls = 0;
  std::optional<Verdict> verdict;
  std::optional<double> min_utilization;
  bool steady_only = false;
};
// Plans side by side: one panel of bars per figure compared (throughput, utilization, the first
// epoch's, epoch time, cost per epoch and of the run, when any plan has it), the best marked.
std::string compare_svg(const std::vector<ComparePlan>& plans, const std::vector<CompareRow>& rows);
// The most plans compare's figure holds as PNG or PDF (rsvg-convert's largest picture).
std::size_t compare_raster_plans();

// A simulation: the timeline of the first `steps` steps of accelerator 0 (each track's spans,
// coloured by what it did; needs the simulation's spans), the distribution of the loop's wait
// per step over the steady window, and what held the loop up. At most kMaxTimelineSteps steps
// and kMaxTimelineWorkers worker rows are drawn; the figure says when there are more.
inline constexpr std::size_t kMaxTimelineSteps = 200;
inline constexpr std::size_t kMaxTimelineWorkers = 16;
std::string simulation_svg(const LoadedScenario& loaded, const Simulation& s, std::size_t steps);

// Up to kMaxPlotCurves curves share three panels (utilization, throughput, stage times); more,
// up to kMaxGridPanels, are drawn as a grid of small panels of utilization on shared axes, one
// per combination of the outer axes, each point coloured by its binding wall. Throws Error with
// more than kMaxGridPanels.
inline constexpr std::size_t kMaxPlotCurves = 8;
inline constexpr std::size_t kMaxGridPanels = 48;
std::string sweep_svg(const LoadedScenario& loaded, const std::vector<Axis>& axes, const std::vector<Curve>& curves);
// Throws the Error sweep_svg would for the grid's size (points, panels), before any point is
// evaluated: a sweep too large to plot writes nothing.
void check_sweep_svg(const std::vector<Axis>& axes);

}  // namespace pipesim
