// `pipesim simulate` (docs/manual/commands.md, "Simulation"): the scenario run event by event with the PyTorch
// DataLoader's rules. Batch i goes to a worker in turn (in order: i mod W; out of order: the
// next worker in turn with room), priming dispatches prefetch_factor x W batches, and every batch
// the loop takes dispatches one more; a worker builds its batches in order and whole; the loop
// takes them in order (or any ready one); one pin thread copies each batch in arrival order.
// Per-sample transform times, stored sizes and step times are drawn (lognormal, or an
// empirical list of per-sample times); the node's cores are shared by processor sharing, scaled
// by the same law as the analytic model. Pure: no I/O, the same seed gives the same answer.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/statistics.hpp"
#include "core/stages/model.hpp"

namespace pipesim {

struct SimOptions {
  std::uint64_t seed = 1;
  std::size_t batches = 0;           // steps of the steady run (0: default_batches)
  std::size_t epochs = 0;            // epochs of the epoch run (0: 2 when the dataset size is known)
  std::vector<double> sample_times;  // empirical per-sample transform times (s); empty: lognormal
  std::string sample_times_label;    // where they came from, for the report
  std::size_t trace_steps = 0;       // keep the spans of the steady run's first N steps
  // Draw every sample's time and size, never a batch's at once (LognormalSum): slower, for
  // checking the batch draws against.
  bool sample_draws = false;
  std::size_t max_steps = 2'000'000;  // steps x accelerators per node one run may take
  double max_work = 4e9;              // about the operations one run may take (see work_per_step)
};

// Steps the steady run takes by default, and the fewest it may take (a warm-up, then a window
// of whole rounds of W batches).
std::size_t default_batches(const Inputs& in);
std::size_t min_batches(const Inputs& in);

// Why the training loop waited for a step's batch: what held that batch last.
enum class Cause : std::uint8_t {
  None,         // it was ready: the accelerator and the loop's own time set the step
  Storage,      // its read (the storage server was busy, or the read itself)
  Workers,      // its worker was still building earlier batches, or building it
  Decoder,      // the hardware decoder was busy
  PinThread,    // the pin thread was busy copying earlier batches
  Link,         // the host-to-device link was busy
  WorkerStart,  // the workers were still starting
  Prefetch,     // it was dispatched too late: the prefetch window was full until then
  kCount
};
inline constexpr std::size_t kCauseCount = static_cast<std::size_t>(Cause::kCount);
// Stable keys: "none", "storage", "workers", "decoder", "pin_thread", "link", "worker_start",
// "prefetch".
std::string_view cause_key(Cause c);

// One span of the trace: what a track did from start to end.
enum class Track : std::uint8_t { Storage, Worker, Decoder, PinThread, Link, Loop, Accelerator };
enum class Phase : std::uint8_t { Read, Build, Decode, Pin, Copy, Wait, Receive, Compute };
std::string_view track_name(Track t);  // "storage", "worker", "decoder", "pin thread", "link", "loop", "accelerator"
std::string_view phase_name(Phase p);  // "read", "build batch", "decode", "pin", "copy", "wait", "receive", "compute"
struct Span {
  Track track;
  Phase phase;
  std::uint32_t rank;    // accelerator on the node
  std::uint32_t worker;  // worker of that accelerator (Worker track)
  std::uint64_t batch;   // batch index (the step, for Loop and Accelerator)
  double start_s;
  double end_s;
};

// Busy fractions of each resource over the steady run (absent: not in the scenario).
struct Busy {
  double workers = 0;                      // wall time workers were building batches, over W x time
  std::optional<double> cores;             // CPU work over the cores' capacity (needs cpu.cores)
  std::optional<double> storage;           // the storage server
  std::optional<double> decoder;           // the hardware decoder
  std::optional<double> pin_thread;        // the pin thread
  std::optional<double> interpreter_lock;  // the training process's lock, held (launch and pin thread)
  std::optional<double> link;              // the host-to-device link (pinned, overlapped)
  double accelerator = 0;                  // compute (with any GPU decoding) over time
};

// Why the epoch run did not run.
enum class EpochSkip : std::uint8_t { None, NoDataset, TooFewSamples, TooLong };

struct Simulation {
  Inputs inputs;
  Result analytic;  // the closed forms at the same point
  std::uint64_t seed = 1;
  // Per-sample times drawn from a list: how many, their mean, and where they came from.
  std::size_t sample_times = 0;
  double sample_times_mean = 0;
  std::string sample_times_label;
  // The steady run: `steps` steps from an empty pipeline; its window is the last `window_steps`
  // (whole rounds of W batches after a warm-up) and every steady figure is taken over it.
  std::size_t steps = 0;
  std::size_t window_steps = 0;
  double step_s = 0;                              // mean time per step
  double utilization = 0;                         // model compute over time, mean over the node's accelerators
  double throughput = 0;                          // samples/s, the cluster (nodes are alike)
  Spread wait;                                    // the loop's wait for its batch, per step and accelerator
  WaitHistogram wait_histogram;                   // the same waits, binned (at most 30 bins)
  std::array<double, kCauseCount> cause_steps{};  // share of steps each cause held up (None: not held)
  std::array<double, kCauseCount> cause_wait{};   // share of the wait time each cause made
  Busy busy;
  // The epoch run (needs workload.dataset_samples): every epoch starts with an empty pipeline
  // (and starts its workers unless they persist). epoch_utilization is over epochs after the
  // first when there are several (the first also starts persistent workers).
  EpochSkip epoch_skip = EpochSkip::None;
  std::size_t epochs = 0;
  std::size_t steps_per_epoch = 0;
  std::size_t epochs_that_fit = 0;  // EpochSkip::TooLong: the most epochs that would run (0: not one)
  std::optional<double> epoch_utilization;
  std::vector<double> epoch_s;        // per epoch
  std::vector<double> first_batch_s;  // per epoch: from its start to its first step's end
  std::vector<Span> spans;            // the steady run's first trace_steps steps
};

// Throws Error when the options ask for fewer steps than min_batches or more than max_steps.
Simulation simulate(const Inputs& in, const SimOptions& options);
// Throws the Error simulate would for a run too short for its steady state or too long to
// finish (options.batches, or the default for these inputs), without running it.
void check_simulation_size(const Inputs& in, const SimOptions& options);

}  // namespace pipesim
