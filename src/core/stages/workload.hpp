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
  std::optional<double> epochs;  // of the whole run (workload.epochs)
  double dataset_bytes = 0;      // stored for one epoch (0: unknown)
  double target_utilization = 0.9;
  // The training loop's own time per step, not overlapped (s): loop_overhead, and with workers
  // receive_time + B x receive_time_per_sample to take the batch from them.
  double loop_overhead = 0;
  double receive_time = 0;
  double receive_time_per_sample = 0;
  // Share of the compute the training process keeps a core busy; set: cores shared by time.
  std::optional<double> loop_cpu_share;
  // The interpreter lock (one per training process): the loop's time per step launching the
  // step's work while it holds the lock, and the share of the pin thread's work per batch during
  // which the pin thread holds it. The two take turns.
  double launch_time = 0;
  double pin_lock_share = 0;
  // Shared by time, what the loop loses per step waiting for a CPU when every CPU is busy as it
  // takes a batch: none with half the CPUs busy or fewer, then in proportion up to all of them.
  double crowded_loop_time = 0;
  bool persistent_workers = false;  // workers live across epochs
  double worker_start_time = 0;     // starting one worker at an epoch's start (s); W in turn
  double worker_warmup_time = 0;    // a new worker's first batch over its later ones (s); together
  double epoch_overhead = 0;        // fixed per epoch without persistent workers (s)
  // What only the simulation uses so far (docs/manual/commands.md, "Simulation"): the DataLoader's per-worker
  // window and delivery order, and the variation of transform time, stored size and step time
  // (the stored size's also sets the padding, below).
  double prefetch_factor = 2;
  bool in_order = true;
  double transform_cv = 0;
  double sample_size_cv = 0;
  double step_cv = 0;
  // Samples padded to their batch's longest (workload.padding): the padded batch over the
  // unpadded one, in length (padded_length); 1 when nothing is padded. The bytes on the device,
  // the compute and the activations grow by it.
  double padding = 1;
  double length_buckets = 1;  // workload.length_buckets, where padded

  // The training loop's own time per step.
  [[nodiscard]] double loop_time() const {
    return loop_overhead + (workers >= 1 ? receive_time + batch * receive_time_per_sample : 0);
  }
};

// The most length buckets (workload.length_buckets) the padding is computed over.
inline constexpr double kMaxLengthBuckets = 256;

class Scenario;
// pipeline.*, cluster.nodes, accelerator.count and workload.* sizes; throws FieldError when a
// required one is missing.
Workload resolve_workload(const Scenario& s);

}  // namespace pipesim
