// What a PyTorch profiler trace says about the input pipeline: per step of the training loop
// (each `ProfilerStep#N`), the time the loop spent inside the DataLoader's `__next__`, the
// host-to-device copies, the accelerator's busy time (the union of its kernels) and the loop's
// own time; per rank and over the ranks. Pure: config/trace reads the files into RankTrace.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/statistics.hpp"

namespace pipesim {

// A span of a trace, in seconds from the trace's own origin (config/trace: its first span kept).
struct TraceSpan {
  double start = 0, end = 0;
};
struct TraceCopy {
  double start = 0, end = 0;
  double bytes = 0;  // 0 where the trace does not say
};

// One rank's trace, the spans that matter and nothing else.
struct RankTrace {
  std::string path;
  std::vector<TraceSpan> steps;    // ProfilerStep#N on the host, in trace order
  std::vector<TraceSpan> loader;   // the DataLoader's __next__ (the loop waiting for a batch)
  std::vector<TraceCopy> copies;   // host-to-device copies on the device
  std::vector<TraceSpan> kernels;  // kernels on the device's streams
  bool device_events = false;      // any kernel or device copy: the accelerator's figures exist
};

// Waiting for data at least this share of the step is input-bound; at kHighlyInputBound,
// highly (the thresholds TensorBoard's input-pipeline analyzer uses).
inline constexpr double kTraceInputBound = 0.05;
inline constexpr double kHighlyInputBound = 0.20;

struct TraceStep {
  std::size_t index = 0;     // in the rank's trace, from 0
  double step_s = 0;         // the ProfilerStep's length
  double data_wait_s = 0;    // inside the DataLoader's __next__ during it
  double h2d_s = 0;          // host-to-device copies during it (their union)
  double h2d_bytes = 0;      // of the copies that started during it
  double busy_s = 0;         // the union of the device's kernels during it
  double loop_s = 0;         // step - data wait: the loop's own time, compute launches included
  bool loader_seen = false;  // a __next__ span overlaps the step
};

struct RankSummary {
  std::string path;
  std::vector<TraceStep> steps;
  double step_s = 0;                      // mean over the steps
  double data_wait_fraction = 0;          // sum of waits over sum of steps
  std::optional<double> busy_fraction;    // sum of busy over sum of steps, where there are device events
  std::optional<double> h2d_bytes_per_s;  // bytes over copy time, where the copies say their bytes
  double h2d_bytes = 0;
  double h2d_s = 0;
  double loop_s = 0;       // mean own time of the loop per step
  bool straggler = false;  // its steps are slower than the ranks' median (kStraggler)
};

// A rank whose mean step is this much longer than the median rank's is a straggler.
inline constexpr double kStraggler = 0.10;

struct TraceSummary {
  std::vector<RankSummary> ranks;
  std::size_t steps = 0;                  // over all ranks
  double step_s = 0;                      // mean step over all ranks' steps
  double steps_per_s = 0;                 // 1 / step_s: the pace the loader kept
  double data_wait_fraction = 0;          // sum of waits over sum of steps, all ranks
  std::optional<double> busy_fraction;    // where every rank has device events
  std::optional<double> h2d_bytes_per_s;  // all copies' bytes over their time
  double loop_s = 0;                      // mean own time of the loop per step
  double h2d_bytes_per_step = 0;          // the copies that start in a step, on average
  bool input_bound = false;               // data_wait_fraction >= kTraceInputBound
  bool highly_input_bound = false;        // >= kHighlyInputBound
  Spread step;                            // over all steps
  Spread wait;                            // the data wait over all steps
  std::size_t steps_without_loader = 0;   // steps no __next__ span overlaps
};

// Summarises the ranks' traces. Throws Error (naming the file) for a trace with no ProfilerStep
// marks, with how to record them, or whose steps never iterate a DataLoader.
TraceSummary summarise_traces(const std::vector<RankTrace>& ranks);

// The keys of a scenario that reproduces a trace, for a batch of `batch` samples: the compute
// step is the device's busy time a step (without device events, the loop's own time), the
// loop's time beside it what is left of its own time, the link the copies' rate; and the pace
// the loader kept, which the scenario's worker rate is solved for.
struct TraceKeys {
  double compute_s = 0;        // a step's compute: model.measured_per_sample x batch
  double loop_overhead_s = 0;  // pipeline.loop_overhead: the loop's own time past the compute
  std::optional<double> link_bytes_per_s;
  std::optional<double> device_sample_bytes;  // a step's copies over the batch
  double samples_per_s = 0;                   // batch over the mean step: what the loader delivered (at least)
};
TraceKeys trace_keys(const TraceSummary& s, double batch);

}  // namespace pipesim
