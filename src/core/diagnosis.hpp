// What moves the wall: figures needed to become compute-bound, the batch size where
// the input pipeline and compute cross, and single fixes with the utilization each buys.
#pragma once

#include <optional>
#include <vector>

#include "core/model.hpp"

namespace pipesim {

enum class FixKind : std::uint8_t {
  Workers,           // more workers (within the cores)
  WorkersAndCores,   // more workers and the cores to run them
  Overlap,           // workers >= 1 so stages overlap
  StorageBandwidth,
  StorageIops,
  StorageQueueDepth,
  LinkBandwidth,
  PinMemory,
  DecodeOnDecoder,   // decode on the accelerator's hardware decoder
  DecodeOnGpu,       // decode with kernels on the accelerator (DALI/nvJPEG)
  Predecoded,        // read a pre-decoded copy of the dataset: more bytes, cheaper transform
  SmallerBatch,      // down to the crossover: higher utilization, not more throughput
  FitMemory,         // the largest batch that fits in accelerator memory
  AllTogether,       // every fix above but the batch size, applied at once
};

struct Change {
  Field field;
  Quantity value;
};

struct Fix {
  FixKind kind;
  std::vector<Change> changes;  // applied together to the scenario
  Result result;                // the model re-run with the changes
};

// Batch sizes (real-valued) where the binding wall switches between the input pipeline
// and the accelerator (the step's device side). Empty when it never switches.
struct Crossover {
  double batch;
  Stage input_stage;     // the input stage that crosses compute
  bool input_binds_above;  // true: input binds for larger batches
};

// "How many accelerators does this storage feed at >= the target utilization?" (MLPerf
// Storage's question), from the storage stage alone.
struct StorageCapacity {
  double target = 0.9;  // utilization aimed for
  double demand = 0;    // bytes/s one accelerator reads at the target (0: all from page cache)
  std::optional<double> by_bandwidth;  // accelerators storage.read_bandwidth feeds
  std::optional<double> by_iops;       // accelerators storage.iops feeds
  std::optional<double> per_node;      // accelerators one node's cap (client or network) feeds
  bool latency_ok = true;              // latency x queue depth keeps up, for any count
  std::optional<double> accelerators;  // the answer: the least of the above (none: unlimited)
};

// "How many cores per accelerator does this workload need?"
struct CoreNeeds {
  double workers_full = 0;    // workers per accelerator for the transform to keep up with compute
  double workers_target = 0;  // ... for the target utilization
  double reserved_per_accelerator = 0;
  double node_full = 0;       // cores for the node: workers x accelerators + reserved
  double node_target = 0;
};

struct Diagnosis {
  Inputs inputs;
  Result result;
  std::optional<StorageCapacity> storage_capacity;
  std::optional<CoreNeeds> cores;
  std::optional<double> max_batch;  // largest batch that fits in accelerator memory
  double scenario_decoder_rate = 0;  // accelerator.decoder_rate, when given (for the fix's text)
  double scenario_gpu_time = 0;      // transform.gpu_time, when given
  // Workers per accelerator needed for the transform to keep up with compute.
  std::optional<double> workers_needed;
  // Storage read bandwidth (for all storage.shared_by accelerators) needed to keep up.
  double storage_bandwidth_needed = 0;
  // Host link bandwidth (for all link.shared_by accelerators) needed, if transfer is modelled.
  std::optional<double> link_bandwidth_needed;
  std::vector<Crossover> crossovers;
  std::vector<Fix> fixes;
};

std::vector<Crossover> find_crossovers(const Inputs& in);

Diagnosis diagnose(const Scenario& s);

}  // namespace pipesim
