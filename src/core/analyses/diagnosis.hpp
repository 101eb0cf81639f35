// What moves the wall: figures needed to become compute-bound, the batch size where
// the input pipeline and compute cross, and single fixes with the utilization each buys.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <string_view>

#include "core/analyses/unused.hpp"
#include "core/stages/model.hpp"

namespace pipesim {

enum class FixKind : std::uint8_t {
  Workers,          // more workers (within the cores)
  WorkersAndCores,  // more workers and the cores to run them
  Overlap,          // workers >= 1 so stages overlap
  StorageBandwidth,
  StorageIops,
  StorageQueueDepth,
  LocalCache,          // a node-local cache in front of storage that holds enough of the node's share
  StorageRequestSize,  // larger requests: samples in shards (workload.samples_per_shard), or storage.request_size
  LinkBandwidth,
  PinMemory,
  DecodeOnDecoder,  // decode on the accelerator's hardware decoder
  DecodeOnGpu,      // decode with kernels on the accelerator (DALI/nvJPEG)
  Predecoded,       // read a pre-decoded copy of the dataset: more bytes, cheaper transform
  SmallerBatch,     // down to the crossover: higher utilization, not more throughput
  FitMemory,        // the largest batch that fits in accelerator memory
  Prefetch,         // a deeper prefetch window (variance under in-order delivery)
  OutOfOrder,       // take any ready batch (pipeline.in_order = false)
  AllTogether,      // every fix above but the batch size, applied at once
  FewerWorkers,     // fewer workers: less time slicing of the cores, or back to the scaling law's peak
  Uint8Samples,     // samples as uint8 on the device (4x fewer bytes to collate and pin), converted there
  // As many workers as the node's cores run, when keeping up needs more than it has: the fix in
  // hand, offered before the one that adds cores (not a wall of its own in AllTogether).
  WorkersWithinCores,
};
// Stable key of a fix kind, for JSON ("workers", "storage_bandwidth", "decoder", ...).
std::string_view fix_key(FixKind k);

struct Change {
  Field field;
  Quantity value;
};

// What each of the storage's limits must give for its reads to take at most the compute stage's
// time: the aggregate read bandwidth, and where the model has them the IOPS (for all
// storage.shared_by accelerators), the requests in flight (storage.latency), and one node's cap
// (storage.node_bandwidth, or the network to shared storage) where it is below what the node reads.
struct StorageNeeds {
  double bandwidth = 0;
  std::optional<double> iops;
  std::optional<double> queue_depth;
  std::optional<double> node_bandwidth;
};

struct Fix {
  FixKind kind;
  std::vector<Change> changes;  // applied together to the scenario
  Result result;                // the model re-run with the changes
  double dataset_bytes = 0;     // the dataset's size after the changes (0: unknown)
};

// Batch sizes (real-valued) where the binding wall switches between the input pipeline
// and the accelerator (the step's device side). Empty when it never switches.
struct Crossover {
  double batch;
  double last_batch;       // the largest whole batch size before the crossing: floor(batch)
  Stage input_stage;       // the input stage that crosses compute
  bool input_binds_above;  // true: input binds for larger batches
};

// A default that decides the answer (docs/manual/commands.md, "diagnose"): the field that would replace it,
// and what it assumes, in words.
struct Assumption {
  Field field;
  std::string text;
};
// The defaults this scenario leaves in place that bear on its modelled stages.
std::vector<Assumption> assumptions(const Scenario& s, const Inputs& in);

// What a real loader loses against the ideal of docs/model.md, one mechanism of section 6
// at a time: the steady utilization with the mechanism alone taken away (its keys at their
// ideal defaults; the training process's CPU share at 0), against the scenario's. The epoch's
// start is the steady utilization against the whole epoch's.
enum class LossKind : std::uint8_t {
  LoopTime,       // pipeline.loop_overhead, pipeline.receive_time*
  BatchAssembly,  // cpu.memcpy_bandwidth, pipeline.worker_batch_overhead
  Contention,     // cpu.scaling_contention, cpu.scaling_coherency
  TimeSlicing,    // cpu.oversubscription_cost
  LoopCpu,        // pipeline.loop_cpu_share
  Lock,           // pipeline.launch_time, pipeline.pin_lock_share (the interpreter lock)
  Crowded,        // pipeline.crowded_loop_time (the loop waiting for a CPU)
  Variance,       // transform.cv
  StepSpread,     // model.step_cv (the slowest accelerator, and the loop's uneven takes)
  EpochStart,     // worker start-up, warm-up, the first batch (epoch_utilization)
};
// Stable key of a loss, for JSON ("loop_time", "batch_assembly", ...).
std::string_view loss_key(LossKind k);

struct FidelityLoss {
  LossKind kind;
  double without = 0;  // the utilization without it (steady)
  double loss = 0;     // without it less with it, in utilization (0..1)
  // The epoch's start: the whole epoch's utilization with persistent workers, when the workers'
  // start-up costs something and they do not persist (what that remedy buys, by the model).
  std::optional<double> persistent;
};
// Losses of at least 0.1 points of utilization, the largest first.
std::vector<FidelityLoss> fidelity_losses(const Scenario& s, const Result& r);

struct Diagnosis {
  Inputs inputs;
  Result result;
  std::optional<StorageCapacity> storage_capacity;
  std::optional<CoreNeeds> cores;
  std::optional<double> max_batch;   // largest batch that fits in accelerator memory
  double scenario_decoder_rate = 0;  // the hardware decoder's samples/s, when given (for the fix's text)
  double scenario_gpu_time = 0;      // transform.gpu_time, when given
  double scenario_dtype = 0;         // workload.device_dtype, when given (an index of Dtype)
  // Workers per accelerator needed for the transform to keep up with compute.
  std::optional<double> workers_needed;
  // What the storage needs to keep up (for all storage.shared_by accelerators), and the share of
  // its read bandwidth one accelerator reads.
  StorageNeeds storage_needed;
  double storage_bandwidth_needed_per_accelerator = 0;
  // When every later read is a page-cache hit: what the first epoch, reading every sample, needs.
  std::optional<StorageNeeds> first_epoch_storage_needed;
  // Host link bandwidth (for all link.shared_by accelerators) needed, if transfer is modelled.
  std::optional<double> link_bandwidth_needed;
  std::vector<Crossover> crossovers;
  std::vector<Fix> fixes;
  std::vector<FidelityLoss> losses;  // what the loader's mechanisms cost, the largest first
  // Where the accelerators wait for the slowest of them (model.step_cv) and that alone keeps
  // utilization under the target: the most it reaches with an input pipeline that never waits.
  std::optional<double> spread_ceiling;
  // Filled by diagnose_with_assumptions (not by diagnose: a sweep's rows do not show them, and the
  // words are allocated).
  std::vector<Assumption> assumptions;
  // Filled by the command (it knows which keys the user set): those that change nothing here.
  std::vector<UnusedKey> unused;
};

std::vector<Crossover> find_crossovers(const Inputs& in);

// The results of fixes already run, for diagnosing many scenarios that differ only in a few
// fields (a sweep's points, which differ in its axes): a fix that lands on a scenario met before
// (the workers fix of every row of one batch size, the batch-size fix of every row of one worker
// count) is looked up rather than resolved and evaluated again. A slot holds one scenario's
// result; another with the same hash takes its place. Not shared between threads.
class FixMemo {
 public:
  // `varying`: every field in which the scenarios diagnosed with this memo may differ from one
  // another; all other fields must be the same in each (the same base scenario).
  explicit FixMemo(std::span<const Field> varying);
  FixMemo(const FixMemo&) = delete;
  FixMemo& operator=(const FixMemo&) = delete;
  ~FixMemo();
  // Fixes looked up and fixes run, for the tests.
  [[nodiscard]] std::size_t hits() const { return hits_; }
  [[nodiscard]] std::size_t misses() const { return misses_; }

  // Which scenario a fix lands on: the values of the varying fields and of those its changes set
  // (or unset, as alternatives), field by field. Larger ones are not memoized.
  static constexpr std::size_t kMaxKey = 12;
  struct Key {
    std::array<Field, kMaxKey> fields{};
    std::array<Value, kMaxKey> values{};
    std::size_t size = 0;
  };
  struct Slot;

 private:
  friend struct FixMemoAccess;
  std::vector<Field> varying_;  // with the alternatives of each
  std::unique_ptr<Slot[]> slots_;
  std::size_t hits_ = 0;
  std::size_t misses_ = 0;
};

Diagnosis diagnose(const Scenario& s);
// The same diagnosis, its fixes looked up in `memo` where run before (memo may be null).
Diagnosis diagnose(const Scenario& s, FixMemo* memo);
// The same, into `d` (every member replaced), reusing the storage of its fixes: a sweep diagnoses
// row after row into one, without allocating it again for each. A row shows no capacity answers,
// so the fewest CPUs for the node are searched only where a fix needs them (the node's are too few).
void diagnose(const Scenario& s, FixMemo* memo, Diagnosis& d);
// diagnose with its assumptions: what `pipesim diagnose` shows.
Diagnosis diagnose_with_assumptions(const Scenario& s);

}  // namespace pipesim
