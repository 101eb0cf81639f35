// Running a sweep's grid for its rows: the points in ordered chunks over threads, each
// evaluated by the core once and handed to a renderer (and a SweepGather); the renderer only
// formats the rows it is given.
#pragma once

#include <cstdio>
#include <string>

#include "core/simulate.hpp"
#include "core/sweep.hpp"
#include "report/renderer.hpp"

namespace pipesim {

// The points of a written sweep that the model refused (each is a row that says why).
struct SweepSummary {
  std::size_t invalid = 0;
  std::size_t first_invalid = 0;  // index in the grid, when invalid > 0
  std::string first_point;        // its swept values, "accelerator.count=16, pipeline.batch_size=32"
  std::string first_reason;
};
// Writes a whole sweep to `file` as its rows are computed, the points split in chunks over
// `jobs` threads (1: this thread alone); the output is the same for any number of jobs.
// With `simulate`, every point is simulated too (layout.simulated must be set). With `progress`,
// a line on it says how far the sweep is (for a terminal; erased at the end).
// With `gather`, every point is also added to it (the plot's curves, the inert axes): the rows'
// pass is the grid's only one. With `copy`, every row is also rendered by its renderer into its
// text.
// The rows rendered a second time, by another renderer, into a string, in the same pass over
// the grid (a sweep's HTML page keeps the table beside the format written).
struct SweepCopy {
  SweepRenderer& renderer;
  std::string text;
};

SweepSummary write_sweep(SweepRenderer& renderer, std::FILE* file, const Scenario& base, const std::vector<Axis>& axes,
                         const SweepLayout& layout, unsigned jobs, const SimOptions* simulate = nullptr,
                         std::FILE* progress = nullptr, SweepGather* gather = nullptr, SweepCopy* copy = nullptr);

}  // namespace pipesim
