// What a per-step log of data_time and time says about the input pipeline (docs/tutorials/gpu-at-40-percent.md,
// "3. A per-step log"): how much of each step the loop waited for data, the distribution
// of those waits, the loop's own step and the rate the loader delivered at. Pure: the log is read by config/steplog.
#pragma once

#include <optional>
#include <vector>

#include "core/sim/simulate.hpp"

namespace pipesim {

// One logged step (or one logged interval, whose figures are means over its steps).
struct StepRecord {
  double data_time_s = 0;  // waiting for the next batch
  double time_s = 0;       // the whole step, data_time included
  int line = 0;            // in the log, for messages
};

// A log whose input-bound fraction is at least this waited for data in earnest: the loader set
// the pace. Below it the waits are the noise of a loader that keeps up.
inline constexpr double kInputBound = 0.05;

struct StepLogSummary {
  std::size_t records = 0;   // used (after the skipped first ones)
  std::size_t left_out = 0;  // the first records left out
  double mean_time_s = 0;
  double mean_data_time_s = 0;
  double input_bound_fraction = 0;  // sum data_time / sum time
  double loop_step_s = 0;           // mean (time - data_time): the loop's own step
  Spread wait;                      // data_time over the records
  Spread time;                      // time over the records
  bool input_bound = false;         // input_bound_fraction >= kInputBound
  double loader_steps_per_s = 0;    // 1 / mean time: the loader's rate when input-bound, else its lower bound
  double loop_steps_per_s = 0;      // 1 / loop step: what the loop would do never waiting
  std::optional<double> loader_samples_per_s;  // with a batch size
};

// Summarises `records` (checked by the reader: finite, data_time <= time) after leaving out the
// first `skip` (the loader's start). Throws Error when nothing is left.
StepLogSummary summarise_step_log(const std::vector<StepRecord>& records, std::size_t skip,
                                  std::optional<double> batch);

}  // namespace pipesim
