// A sweep's rows: the core runs the grid (core/analyses/sweep_run), a renderer formats each point as it
// comes, and they are written in order as they are ready.
#pragma once

#include <cstdio>
#include <string>

#include "core/analyses/sweep.hpp"
#include "core/analyses/sweep_run.hpp"
#include "report/renderer.hpp"

namespace pipesim {

// The rows rendered a second time, by another renderer, into a string, in the same pass over
// the grid (a sweep's HTML page keeps the table beside the format written).
struct SweepCopy {
  SweepRenderer& renderer;
  std::string text;
};

// Writes a whole sweep to `file` as its rows are computed (`run`: the threads, and whether each
// point is diagnosed or simulated too; with simulation layout.simulated must be set); the output
// is the same for any number of threads. With `progress`, a line on it says how far the sweep is
// (for a terminal; erased at the end). With `gather`, every point is also added to it (the
// plot's curves, the inert axes): the rows' pass is the grid's only one. With `copy`, every row
// is also rendered by its renderer into its text.
SweepSummary write_sweep(SweepRenderer& renderer, std::FILE* file, const Scenario& base, const std::vector<Axis>& axes,
                         const SweepLayout& layout, const SweepRun& run, std::FILE* progress = nullptr,
                         SweepGather* gather = nullptr, SweepCopy* copy = nullptr);

}  // namespace pipesim
