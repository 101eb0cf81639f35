// What the simulation derives from the inputs before it runs: each batch's costs per
// accelerator, and the steady window its figures are measured over.
#pragma once

#include <cstddef>
#include <optional>

#include "core/stages/model.hpp"

namespace pipesim {

inline std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }
inline std::size_t workers_of(const Inputs& in) { return static_cast<std::size_t>(in.workers); }

// The steady window: from step k1 (after the warm-up, a whole number of rounds of W) to k2,
// whole rounds of W later, so that batches arriving in bursts of W are counted whole.
struct Window {
  std::size_t k1 = 0, k2 = 0;
};
Window window(const Inputs& in, std::size_t steps);

// What each batch costs, derived once from the inputs (per accelerator).
struct Costs {
  std::size_t ranks = 1, workers = 0, prefetch = 2;
  // The accelerators of the other nodes, which step with these: each step ends when the slowest
  // of all of them has computed (cluster.nodes - 1 times accelerator.count).
  double other_ranks = 0;
  bool in_order = true;
  double batch = 1;
  bool storage = false;
  double storage_bytes = 0;
  bool cpu_work = false;
  double collate = 0;  // per batch, one worker
  bool decoder = false;
  double decoder_time = 0;
  bool pin = false;
  double pin_work = 0;
  // The interpreter lock: the loop's launch per step and the pin thread's locked share of its
  // work take turns on it (lock_time in model.cpp); 0: no lock modelled.
  double launch = 0;
  double pin_locked = 0;
  bool link = false;
  double link_time = 0;
  double transfer_stage = 0;  // the analytic transfer stage (serial: the loop waits for it)
  double serial_copy = 0;     // a pageable copy the loop makes itself
  double loop_time = 0;
  double compute = 0, model_compute = 0;
  bool shared = false;  // training process and pin thread share the workers' cores
  double share = 0;
  double crowded = 0;           // pipeline.crowded_loop_time when shared (the loop's wait as it takes a batch)
  std::optional<double> cores;  // logical CPUs per accelerator for workers (and shared threads)
  double start = 0;             // worker start-up at an epoch's start
  double warmup = 0;            // added to a newly started worker's first batch
  bool persistent = false;
};
Costs costs(const Inputs& in, const Result& r);

}  // namespace pipesim
