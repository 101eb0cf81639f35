#include "core/sim/sim_costs.hpp"

#include <algorithm>

#include "core/stages/compute.hpp"
#include "core/stages/storage.hpp"
#include "core/stages/transfer.hpp"
#include "core/stages/transform.hpp"

namespace pipesim {

Window window(const Inputs& in, std::size_t steps) {
  const std::size_t round = std::max<std::size_t>(1, workers_of(in));
  const auto p = static_cast<std::size_t>(in.prefetch_factor);
  const std::size_t k1 = round_up(std::max(steps / 5, (p + 2) * round), round);
  if (steps < k1 + 1 + round) return {k1, k1};
  return {k1, k1 + round * ((steps - 1 - k1) / round)};
}

Costs costs(const Inputs& in, const Result& r) {
  Costs c;
  c.ranks = static_cast<std::size_t>(in.accelerators);
  c.other_ranks = (in.nodes - 1) * in.accelerators;
  c.workers = workers_of(in);
  c.prefetch = static_cast<std::size_t>(in.prefetch_factor);
  c.in_order = in.in_order;
  c.batch = in.batch;
  c.storage = in.storage.modelled;
  if (c.storage) c.storage_bytes = storage_bytes_per_batch(in.storage, in, in.batch);
  c.cpu_work = in.transform.cpu_work;
  c.collate = collate_time(in.transform, in, in.batch);
  c.decoder = in.transform.decoder_seconds_per_sample > 0;
  c.decoder_time = in.batch * in.transform.decoder_seconds_per_sample;
  if (in.transfer.modelled) {
    c.transfer_stage = r.stage(Stage::Transfer).time_s;
    if (in.transfer.pinned) {
      c.link = true;
      c.link_time = transfer_time(in.transfer, in.batch);
      c.pin_work = pin_time(in, in.batch);
      c.pin = c.pin_work > 0;
      if (lock_time(in, in.batch) > 0) {
        c.launch = in.launch_time;
        c.pin_locked = in.pin_lock_share * c.pin_work;
      }
    } else {
      c.serial_copy = transfer_time(in.transfer, in.batch);
    }
  }
  c.loop_time = in.loop_time();
  c.model_compute = r.model_compute_s;
  c.compute = r.stage(Stage::Compute).time_s;
  c.shared = in.loop_cpu_share.has_value() && c.cpu_work && c.workers >= 1 && in.transform.cores_per_accelerator;
  c.share = in.loop_cpu_share.value_or(0);
  c.crowded = c.shared ? in.crowded_loop_time : 0;
  c.cores = in.transform.cores_per_accelerator;
  c.start = in.epoch_overhead + in.workers * in.worker_start_time;
  c.warmup = in.worker_warmup_time;
  c.persistent = in.persistent_workers;
  return c;
}

}  // namespace pipesim
