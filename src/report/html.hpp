// The one-file HTML report of docs/manual/commands.md, "Pictures" (--plot FILE.html): the diagnosis in words,
// the figure as inline SVG, the scenario with where each input came from, and the assumptions.
// Self-contained: inline CSS, no scripts, nothing fetched. Computes nothing.
#pragma once

#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep.hpp"
#include "report/renderer.hpp"

namespace pipesim {

// `words` is the diagnosis as pipesim diagnose prints it; `svg` its figure.
std::string diagnosis_html(const LoadedScenario& loaded, const Diagnosis& d, const std::string& words,
                           const std::string& svg);
// A simulation's figure with the words pipesim simulate prints and the assumptions of its
// analytic column.
std::string simulation_html(const LoadedScenario& loaded, const std::string& words, const std::string& svg,
                            const std::vector<Assumption>& assumptions);
// Plans side by side: the figure, the comparison as the table prints it, then each plan's
// scenario with origins and its assumptions.
std::string compare_html(const std::vector<PlanReport>& plans, const std::string& words, const std::string& svg);
// A sweep's figure, its rows as the table prints them (`rows`: all of them, or the first and last
// with a line that says how many are left out), its axes, the assumptions and the keys set that
// change nothing at its first point, and the scenario.
std::string sweep_html(const LoadedScenario& loaded, const std::vector<Axis>& axes, const std::string& svg,
                       const std::string& rows, const std::vector<Assumption>& assumptions,
                       const std::vector<UnusedKey>& unused);

}  // namespace pipesim
