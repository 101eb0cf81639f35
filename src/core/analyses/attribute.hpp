// Stage costs from the caching experiments of docs/tutorials/gpu-at-40-percent.md, for `pipesim attribute`.
//
// The user times the training loop five ways, each adding one stage to the one below it:
//   device_cached  one batch kept on the accelerator: compute alone
//   host_cached    one batch kept on the host, copied each step: + the copy to the device
//   sample_cached  the DataLoader over one transformed sample: + taking batches from the workers
//   raw_cached     one raw sample, transformed each time: + the transform, in the workers
//   full           the real pipeline: + loading (reading, and decoding if the raw sample was decoded)
// The first three stages run in the training loop, one after the other, so each adds its time
// to the step. The last two run in W workers that overlap the loop: W workers deliver a batch
// every T/W seconds, T being one worker's time per batch, so the step is max(loop, T/W). A worker
// stage's cost is therefore only seen when the workers set the step, and then T = W x step.
// When they keep up, T is only bounded: at most W x the loop's step.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/fields.hpp"

namespace pipesim {

enum class CacheLevel { Device, Host, Sample, Raw, Full };
inline constexpr std::size_t kCacheLevels = 5;

// Stable keys (JSON): "device_cached", "host_cached", "sample_cached", "raw_cached", "full".
std::string_view level_key(CacheLevel l);
// Its command-line option: "--device-cached", ..., "--full".
std::string level_option(CacheLevel l);
// What the level keeps cached, for people: "one batch on the device", ...
std::string_view level_words(CacheLevel l);
// The stage a level adds over the level below it: "compute", "copy", "receive", "transform",
// "load" (stable keys).
std::string_view added_stage_key(CacheLevel l);
// Whether the stage a level adds runs in the training loop (true) or in the workers (false).
// With no workers every stage runs in the loop.
bool in_loop(CacheLevel l, double workers);

// Two levels whose step times differ by less than this share are the same within the noise of a
// rate measured over a few hundred steps; a worker level at most this much slower than the
// loop's own step has the workers keeping up.
inline constexpr double kSameRate = 0.02;

struct CachingExperiments {
  double batch = 0;                                             // samples per step
  double workers = 0;                                           // DataLoader num_workers in every experiment
  std::array<std::optional<double>, kCacheLevels> steps_per_s;  // by CacheLevel; device and full required
  std::optional<double> device_sample_bytes;                    // to express the copy as a link bandwidth
  std::optional<double> sample_bytes;                           // bytes stored per sample, copied into the fragment
  // The full pipeline again at another worker count (--full-at W=RATE): whether the workers'
  // count moves the rate, the evidence for or against the workers binding.
  std::optional<double> other_workers;
  std::optional<double> other_full;

  [[nodiscard]] std::optional<double> rate(CacheLevel l) const { return steps_per_s[static_cast<std::size_t>(l)]; }
};

// What the full pipeline at another worker count says of the workers at the experiments' count.
enum class WorkerEvidence : std::uint8_t {
  None,     // no second count measured: only the caching levels speak
  Slack,    // the rate did not move with the count (within kSameRate): the workers are not what binds
  Moves,    // the rate moved with the count: the workers bind at the experiments' count
  Partial,  // fewer workers ran slower, but this count less than in proportion: near the balance
  Falls,    // more workers ran slower (or fewer faster): past some count the node loses with more
};

// Stable keys (JSON): "none", "slack", "moves", "partial", "falls".
std::string_view evidence_key(WorkerEvidence e);

// A cost in seconds per batch known exactly or only within [low, high].
struct Cost {
  double low = 0;
  double high = 0;
  [[nodiscard]] bool exact() const { return low == high; }
};

// One measured level and what it adds over the measured level below it (several stages when
// levels in between were not measured: `first` to `level`).
struct LevelCost {
  CacheLevel level = CacheLevel::Device;
  CacheLevel first = CacheLevel::Device;  // the lowest stage this row's cost covers
  double measured_steps_per_s = 0;
  double step_s = 0;             // 1 / measured
  bool in_loop = true;           // the stages it adds run in the training loop
  bool workers_bind = false;     // a worker level whose step the workers set
  Cost added;                    // seconds per batch: loop time per step, or one worker's time per batch
  Cost added_per_sample;         // added over the batch size
  Cost worker_batch;             // one worker's whole time per batch at this level (0 below raw_cached)
  double model_steps_per_s = 0;  // the attributed scenario's rate at this level (pipesim's model)
};

struct Attribution {
  CachingExperiments in;
  std::vector<LevelCost> levels;  // the measured levels, in pipeline order
  double compute_s = 0;           // device_cached step
  double copy_s = 0;              // host - device (0 when host_cached was not measured)
  double receive_s = 0;           // sample - (host or device)
  double loop_step_s = 0;         // the loop's own chain: compute + copy + receive
  Cost worker_batch;              // one worker's time per batch in the full pipeline
  Cost worker_per_sample;         // worker_batch over the batch size
  bool workers_bind = false;      // the full pipeline's step is set by the workers
  double utilization = 0;         // the full pipeline's compute over its step
  double worker_budget_s = 0;     // W x loop step: the most one worker's batch may take to keep up
  // With the workers binding: workers of the measured speed needed to keep up with the loop
  // (cores permitting: their time was measured with W sharing the node).
  std::optional<double> workers_needed;
  // The full pipeline at another worker count: what it says, and the rate W workers would give if
  // it moved in proportion to the count.
  WorkerEvidence evidence = WorkerEvidence::None;
  double proportional_steps_per_s = 0;
  // Things the user should know: rates that rose going up the pipeline, stages not separable.
  std::vector<std::string> notes;
};

// A measured rate as users write it: "3.45", "3.45 steps/s", "3.45 it/s" (steps per second), or
// "880 samples/s" (divided by `batch`). Throws Error (without origin) otherwise.
double parse_step_rate(std::string_view text, double batch);

// Checks the experiments (batch > 0, workers >= 0, device_cached and full measured, every rate
// > 0 and finite; throws Error naming the option otherwise) and attributes the stage costs.
Attribution attribute(const CachingExperiments& e);

// The scenario fields the attribution sets for the pipeline up to `upto` (full: the whole
// fragment): pipeline.batch_size and workers, model.measured_per_sample, the copy (as link
// bandwidth when the device sample size is known, else in pipeline.loop_overhead),
// pipeline.receive_time, and workload.transform_cost when the workers' time per batch is known
// (left out when they keep up: only its upper bound is known). workload.sample_size is set when
// given.
Scenario attributed_scenario(const Attribution& a, CacheLevel upto);

}  // namespace pipesim
