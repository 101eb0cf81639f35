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
  SmallerBatch,      // down to the crossover: higher utilization, not more throughput
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

struct Diagnosis {
  Inputs inputs;
  Result result;
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
