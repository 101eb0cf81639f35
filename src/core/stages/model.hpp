// The stage model of docs/model.md: pure functions over plain values. Each stage lives in
// its own file (storage, transform, transfer, compute); this composes them: overlap or serial,
// the binding wall, throughput, demand, epochs and cost.
#pragma once

#include <array>
#include <optional>

#include "core/base/error.hpp"
#include "core/stages/compute.hpp"
#include "core/stages/stage.hpp"
#include "core/stages/storage.hpp"
#include "core/stages/transfer.hpp"
#include "core/stages/transform.hpp"
#include "core/stages/workload.hpp"

namespace pipesim {

// Everything the model needs, per accelerator, in SI base units.
struct Inputs : Workload {
  StorageInputs storage;
  TransformInputs transform;
  TransferInputs transfer;
  ComputeInputs compute;
  // cost of one node, USD per second (from a price per hour or an amortised purchase)
  std::optional<double> price_per_second;
};

// Turns a scenario into model inputs. Throws FieldError for missing or inconsistent fields.
Inputs resolve(const Scenario& s);
// The training process's share of the compute during which it holds a core
// (pipeline.loop_cpu_share, else what pipeline.loop_wait implies: 1 for a loop that spins, 0 for
// one that sleeps or polls); none when neither is set, and a core is kept for it instead.
std::optional<double> loop_cpu_share(const Scenario& s);

// The first epoch, when its page cache is cold and so differs from later epochs.
struct ColdEpoch {
  double cache_hit = 0;
  double storage_s = 0;
  double step_s = 0;
  double utilization = 0;
  double throughput = 0;
  unsigned binding = 0;
  std::optional<double> epoch_s;
};

// Several nodes reading a fresh random share of the dataset each epoch: the page cache warms
// over epochs. The hit ratio of epochs 2, 3, 5 and 10, and the first epoch within 1% of the
// steady state's.
struct CacheWarmup {
  double shards = 1;
  std::array<double, 4> hits{};  // epochs 2, 3, 5, 10
  double near_epoch = 2;
};

// The slowest epoch of a run, its start included: the first, read from storage where its page
// cache is cold (later epochs warm it and are faster). What every epoch reaches at least.
struct WorstEpoch {
  double utilization = 0;  // model compute over the epoch with its start
  double throughput = 0;   // samples/s for the cluster over it
  double epoch_s = 0;      // its time, start included
};

struct Result {
  std::array<StageResult, 4> stages{};
  double step_s = 0;
  double model_compute_s = 0;  // the compute stage less any GPU decoding: the useful work
  double utilization = 0;      // model compute / step
  double idle_fraction = 0;    // of every step, the accelerator idles this share: 1 - utilization
  double slowdown = 0;         // step / model compute
  double throughput = 0;       // samples/s for the cluster: nodes * accelerators * B / step
  double throughput_per_node = 0;
  double throughput_per_accelerator = 0;
  double data_demand = 0;  // bytes/s one accelerator would read if never starved
  double data_demand_per_node = 0;
  double data_demand_per_cluster = 0;
  unsigned binding = 0;  // bit per Stage
  // Stages before compute that are not modelled (bit per Stage): each could bound the step, so
  // utilization and throughput are upper bounds (docs/manual/commands.md, "diagnose"). unmodelled_keys names
  // the fields that model one.
  unsigned unmodelled = 0;
  bool serial = false;                          // workers == 0: stages run in turn
  bool transfer_serialised = false;             // not pinned: transfer adds to compute
  bool memory_bound = false;                    // roofline weight-streaming term dominates
  TransformAt transform_at = TransformAt::Cpu;  // where the transform stage ran
  bool transfer_needs_device_bytes = false;     // TransferInputs::needs_device_bytes
  double effective_workers = 0;                 // per accelerator (0 when no CPU work is modelled)
  double worker_slicing = 1;                    // what time slicing costs the W workers' CPU work on their cores (>= 1)
  double padding = 1;             // samples padded to their batch's longest: the padded batch over its samples unpadded
  double worker_bytes_per_s = 0;  // one worker's transform rate (0 when no CPU work)
  double cache_hit = 0;           // storage reads served from page cache (steady state)
  std::optional<ColdEpoch> cold;  // the first epoch, when the page cache makes it differ
  std::optional<CacheWarmup> warmup;  // later epochs, when the cache warms over several
  // Accelerator memory, when modelled: bytes needed at this batch, and whether they fit.
  std::optional<double> memory_needed;
  bool fits = true;
  std::optional<double> epoch_s;           // steady state: dataset / throughput
  std::optional<double> idle_per_epoch_s;  // of the epoch, the accelerator idles this long
  // The epoch's start (needs the dataset size): time it adds to the steady-state epoch (worker
  // start-up unless persistent, one worker's whole batch, the last burst), time to the first
  // step's end, and utilization over the whole epoch (model compute over epoch_s + start).
  std::optional<double> epoch_start_s;
  std::optional<double> first_batch_s;
  std::optional<double> epoch_utilization;
  std::optional<double> workers_start_s;  // of epoch_start_s: starting the workers, per epoch
  // The whole run of workload.epochs epochs (needs the dataset size): the first epoch at its
  // cold figures, the others steady, each with its start; utilization = model compute / run.
  std::optional<double> run_s;
  std::optional<double> run_utilization;
  std::optional<WorstEpoch> worst_epoch;  // needs the dataset size
  double loop_overhead_s = 0;             // the training loop's own time per step (loop overhead + receive)
  // Cores shared by time (pipeline.loop_cpu_share): CPU seconds per step of workers, training
  // process and pin thread, and the cores (in whole-core workers) they share; 0 otherwise.
  double shared_cpu_s = 0;
  double shared_cores = 0;
  // Shared by time, the training process's own time (and its CPU share of the compute) runs on
  // the cores the workers hold and takes longer: the time per step this adds to its chain.
  double shared_wait_s = 0;
  double busy_workers = 0;  // the workers (and pin thread) busy on average (beside its CPU share)
  // The training process's threads: the interpreter lock's work per step (the loop's launch and
  // the pin thread's locked share of its batch; 0 without a pin thread), and the share of a CPU
  // each of its threads gets beside the busy workers (1 unless the cores are shared by time).
  double lock_s = 0;
  double thread_rate = 1;
  double receive_busy_workers = 0;  // the workers (and pin thread) busy while it receives a batch
  // Shared by time, the part of shared_wait_s the loop loses waiting for a CPU when every CPU is
  // busy as it takes a batch (pipeline.crowded_loop_time).
  double crowded_s = 0;
  // Variance under the DataLoader's delivery (transform.cv, model.step_cv): one worker's batch
  // time's coefficient of variation, and the step it would be with no variance.
  double batch_cv = 0;
  double step_without_variance_s = 0;
  // The accelerators that step together (accelerator.count x cluster.nodes) wait every step for
  // the slowest of them (model.step_cv): the time per step that adds to the mean compute.
  double sync_wait_s = 0;
  // Cost, when the node has a price: USD per hour for the cluster, USD per epoch (needs the
  // dataset size), the part of it paid for idle accelerator time, and samples per USD.
  std::optional<double> price_per_hour;
  std::optional<double> cost_per_epoch;
  std::optional<double> idle_cost_per_epoch;
  std::optional<double> samples_per_usd;
  std::optional<double> run_cost;  // USD for the whole run (needs the run and a price)

  [[nodiscard]] const StageResult& stage(Stage s) const { return stages[static_cast<std::size_t>(s)]; }
  [[nodiscard]] StageResult& stage(Stage s) { return stages[static_cast<std::size_t>(s)]; }
  [[nodiscard]] bool binds(Stage s) const { return (binding & stage_bit(s)) != 0; }
  // The accelerator sets the step (within the co-binding tolerance).
  [[nodiscard]] bool compute_bound() const;
  // The training loop's own time, what the shared CPUs add, compute, and the wait for the
  // slowest accelerator: the step's compute side (without a copy the loop makes).
  [[nodiscard]] double compute_side_s() const {
    return loop_overhead_s + shared_wait_s + stage(Stage::Compute).time_s + sync_wait_s;
  }
  [[nodiscard]] bool upper_bound() const { return unmodelled != 0; }
};

// The fields that must be set to model a stage when it is not modelled: storage.read_bandwidth,
// cpu.worker_throughput (transform.host_cost when decoding is off the CPU), link.bandwidth (with
// workload.device_sample_size after a CPU transform whose output size is not given).
std::vector<Field> unmodelled_keys(Stage s, TransformAt at, bool needs_device_bytes);

Result evaluate(const Inputs& in);

// The pin thread's work on one batch (0 unless the transfer is modelled and pinned, with a pin
// rate: cpu.pin_bandwidth, else cpu.memcpy_bandwidth).
double pin_time(const Inputs& in, double batch);
// The interpreter lock's work per step, one CPU's time: the loop's launch (pipeline.launch_time)
// and the pin thread's locked share of its batch (pipeline.pin_lock_share), which take turns.
// 0 unless workers feed a pinned, modelled transfer.
double lock_time(const Inputs& in, double batch);
// The tasks that may want one accelerator's CPUs at once: the W workers and, when the cores are
// shared by time (pipeline.loop_cpu_share set), the training process and the pin thread when it
// copies. What decides whether time slicing can play a part (diagnose's assumption and its
// fewer_workers search count the same).
double cpu_tasks(const Inputs& in);

// An epoch's start with W prefetching workers (docs/model.md, "What real loaders do"): the W workers start
// together (after pipeline.worker_start_time unless persistent; their first batches take
// pipeline.worker_warmup_time longer) and each builds a whole batch,
// so the first W batches arrive together after one worker's batch time; steps: per accelerator.
struct EpochStart {
  double steps = 0;          // steps per epoch per accelerator
  double first_batch_s = 0;  // from the epoch's start to the end of its first step
  double extra_s = 0;        // added to steps x step_s
  double start_s = 0;        // of it, starting the workers and their warm-up (and the epoch's fixed cost)
};
EpochStart epoch_start(const Inputs& in, const Result& r);

// Co-binding tolerance: stages within 1% of the largest bind together.
constexpr double kCoBinding = 0.01;

}  // namespace pipesim
