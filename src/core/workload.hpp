// The operating point every stage reads: batch, workers, how many accelerators, and the samples.
#pragma once

#include <optional>

namespace pipesim {

struct Workload {
  double batch = 1;         // B
  double workers = 0;       // W per accelerator
  double accelerators = 1;  // per node
  double nodes = 1;         // in the cluster
  double sample_bytes = 0;  // read from storage (and transformed) per sample
  std::optional<double> dataset_samples;
  double dataset_bytes = 0;  // stored for one epoch (0: unknown)
  double target_utilization = 0.9;
  double loop_overhead = 0;         // the training loop's own time per step, not overlapped (s)
  bool persistent_workers = false;  // workers live across epochs
  double worker_start_time = 0;     // starting the workers at an epoch's start (s)
};

class Scenario;
// pipeline.*, cluster.nodes, accelerator.count and workload.* sizes; throws FieldError when a
// required one is missing.
Workload resolve_workload(const Scenario& s);

}  // namespace pipesim
