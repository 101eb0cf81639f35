// The simulation's event engine: the DataLoader's rules run event by event over the costs
// sim_costs derives, recording every step. simulate() turns the record into its figures.
#pragma once

#include <cstddef>
#include <vector>

#include "core/sim/random.hpp"
#include "core/sim/sim_costs.hpp"
#include "core/sim/simulate.hpp"

namespace pipesim {

// What one run of the engine recorded.
struct EngineRecord {
  // Per step (all epochs, in order): its end, and the model compute summed over accelerators.
  std::vector<double> step_end, step_compute;
  std::vector<double> epoch_start;
  // Per step and accelerator: the wait for its batch and why.
  std::vector<double> wait;
  std::vector<Cause> cause;
  std::vector<Span> spans;
  // Busy time (s, summed over accelerators) and CPU work done (core-seconds).
  double worker_busy = 0, storage_busy = 0, decoder_busy = 0, pin_busy = 0, link_busy = 0, compute_busy = 0;
  double lock_held = 0;  // the training processes' interpreter lock, held (s, summed over accelerators)
  double cpu_work = 0;
};

// `epochs` epochs of `steps` steps, from an empty pipeline; spans recorded when `trace`.
EngineRecord run_engine(const Inputs& in, const Costs& c, const SimOptions& o, Rng& rng, bool trace, std::size_t epochs,
                        std::size_t steps);

}  // namespace pipesim
