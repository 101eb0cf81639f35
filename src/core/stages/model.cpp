#include "core/stages/model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>

#include "core/stages/resolve_util.hpp"
#include "core/stages/training_process.hpp"
#include "core/stages/variance.hpp"

namespace pipesim {

void require(const Scenario& s, Field f, std::string_view why) {
  if (!s.has(f)) throw FieldError(f, fmt::format("missing required field {} ({})", spec(f).key, why));
}

void forbid_without(const Scenario& s, std::initializer_list<Field> fields, std::string_view needed,
                    std::string_view what) {
  for (Field f : fields)
    if (s.has(f))
      throw FieldError(f,
                       fmt::format("{} is set but {} is not: set {} to model {}", spec(f).key, needed, needed, what));
}

Workload resolve_workload(const Scenario& s) {
  Workload w;
  // Every missing one at once, in this order.
  std::vector<std::string> missing;
  std::optional<Field> first;
  const auto why = [](Field f) {
    return f == Field::BatchSize ? "samples per batch"
           : f == Field::Workers ? "data-loading workers per accelerator; 0 for none"
                                 : "bytes read and transformed per sample";
  };
  for (Field f : required_fields())
    if (!s.has(f)) {
      if (!first) first = f;
      missing.push_back(fmt::format("{} ({})", spec(f).key, why(f)));
    }
  if (first)
    throw FieldError(
        *first, fmt::format("missing required field{} {}", missing.size() > 1 ? "s" : "", fmt::join(missing, ", ")));
  w.batch = s.get(Field::BatchSize);
  w.workers = s.get(Field::Workers);
  w.accelerators = s.value(Field::AcceleratorCount);
  w.nodes = s.value(Field::Nodes);
  w.sample_bytes = s.get(Field::SampleSize);
  w.dataset_samples = s.opt(Field::DatasetSamples);
  w.epochs = s.opt(Field::Epochs);
  w.target_utilization = s.value(Field::TargetUtilization);
  w.loop_overhead = s.value(Field::LoopOverhead);
  w.persistent_workers = s.value(Field::PersistentWorkers) != 0;
  w.worker_start_time = s.value(Field::WorkerStartTime);
  w.worker_warmup_time = s.value(Field::WorkerWarmupTime);
  w.receive_time = s.value(Field::ReceiveTime);
  w.receive_time_per_sample = s.value(Field::ReceiveTimePerSample);
  w.loop_cpu_share = loop_cpu_share(s);
  w.launch_time = s.value(Field::LaunchTime);
  w.pin_lock_share = s.value(Field::PinLockShare);
  w.crowded_loop_time = s.value(Field::CrowdedLoopTime);
  w.epoch_overhead = s.value(Field::EpochOverhead);
  w.prefetch_factor = s.value(Field::PrefetchFactor);
  w.in_order = s.value(Field::InOrder) != 0;
  w.transform_cv = s.value(Field::TransformCv);
  w.sample_size_cv = s.value(Field::SampleSizeCv);
  w.step_cv = s.value(Field::StepCv);
  if (static_cast<Padding>(s.value(Field::Padding)) == Padding::Longest) {
    const double buckets = s.value(Field::LengthBuckets);
    if (buckets > kMaxLengthBuckets)
      throw FieldError(Field::LengthBuckets, fmt::format("workload.length_buckets = {} is more than pipesim models "
                                                         "(at most {}; past a few dozen, buckets pad next to nothing)",
                                                         format_compact(buckets, Dim::Number), kMaxLengthBuckets));
    w.padding = padded_length(w.batch, w.sample_size_cv, buckets);
    w.length_buckets = buckets;
  }
  if (s.has(Field::DatasetSize))
    w.dataset_bytes = s.get(Field::DatasetSize);
  else if (w.dataset_samples)
    w.dataset_bytes = *w.dataset_samples * w.sample_bytes;
  return w;
}

std::optional<double> loop_cpu_share(const Scenario& s) {
  if (const auto share = s.opt(Field::LoopCpuShare)) return share;
  if (const auto wait = s.opt(Field::LoopWait)) return static_cast<LoopWait>(*wait) == LoopWait::Spin ? 1.0 : 0.0;
  return std::nullopt;
}

Inputs resolve(const Scenario& s) {
  Inputs in;
  try {
    static_cast<Workload&>(in) = resolve_workload(s);
  } catch (const FieldError& missing) {
    // The compute stage needs nothing of the workload: what it lacks is said at once too.
    try {
      (void)resolve_compute(s);
    } catch (const FieldError& compute) {
      throw FieldError(missing.field(), fmt::format("{}; and {}", missing.what(), compute.what()));
    }
    throw;
  }
  in.transform = resolve_transform(s, in);
  in.storage = resolve_storage(s, in);
  in.transfer = resolve_transfer(s, in, in.transform);
  in.compute = resolve_compute(s);
  // Padding lengthens every sample on the device: its bytes, the compute and the activations.
  in.transfer.device_bytes *= in.padding;
  in.transform.collate_bytes_per_sample *= in.padding;
  if (in.compute.activation_bytes) *in.compute.activation_bytes *= in.padding;

  // Scenario::set keeps at most one of the two prices.
  if (s.has(Field::PricePerHour)) {
    in.price_per_second = s.get(Field::PricePerHour) / 3600;  // USD per hour, given or as a number
  } else if (s.has(Field::PurchasePrice)) {
    if (!s.has(Field::Amortization))
      throw FieldError(Field::PurchasePrice,
                       "cost.purchase_price needs cost.amortization, the period it is spread over (e.g. \"3 years\")");
    in.price_per_second = s.get(Field::PurchasePrice) / s.get(Field::Amortization);
  } else if (s.has(Field::Amortization)) {
    throw FieldError(Field::Amortization, "cost.amortization is set but cost.purchase_price is not");
  }
  return in;
}

std::vector<Field> unmodelled_keys(Stage s, TransformAt at, bool needs_device_bytes) {
  switch (s) {
    case Stage::Storage:
      return {Field::ReadBandwidth};
    case Stage::Transform:
      return {at == TransformAt::Cpu ? Field::WorkerThroughput : Field::HostCost};
    case Stage::Transfer:
    case Stage::Compute:
      break;
  }
  if (needs_device_bytes) return {Field::LinkBandwidth, Field::DeviceSampleSize};
  return {Field::LinkBandwidth};
}

bool Result::compute_bound() const { return compute_side_s() >= step_s * (1 - kCoBinding); }

namespace {

// Rates, shares and demand of a stage once the step is known.
void rates(StageResult& st, double batch, double step_s, double compute_s) {
  if (!st.modelled) return;
  st.samples_per_s = st.time_s > 0 ? batch / st.time_s : 0;
  st.bytes_per_s = st.time_s > 0 ? st.bytes_per_batch / st.time_s : 0;
  st.share_of_step = st.time_s / step_s;
  st.demand_bytes_per_s = st.bytes_per_batch / compute_s;
}

// What the training loop needs per step when never starved: its chain, or an overlapped copy.
double loop_side(const Result& r) {
  double loop = device_chain(r);
  if (r.stage(Stage::Transfer).modelled && !r.transfer_serialised)
    loop = std::max(loop, r.stage(Stage::Transfer).time_s);
  return loop;
}

// Per-sample variance (transform.cv) and step variance (model.step_cv) under the DataLoader's
// delivery: the loop receives fewer batches than the slower side makes (variance.hpp). The
// transform stage then takes the time per batch the loop receives them (limit variance). The
// step's spread is that of the slowest accelerator's compute (step_sd of the mean compute).
void variance(const Inputs& in, double step_sd, Result& r) {
  const TransformInputs& t = in.transform;
  if (in.workers < 1 || !t.cpu_work || (in.transform_cv <= 0 && in.step_cv <= 0)) return;
  StageResult& transform = r.stage(Stage::Transform);
  const double B = in.batch;
  const double build = worker_batch_time(t, in, B);
  // The loop's side: everything but the transform, as the step would be without it.
  double loop = loop_side(r);
  if (r.stage(Stage::Storage).modelled) loop = std::max(loop, r.stage(Stage::Storage).time_s);
  VarianceInputs v;
  v.workers = in.workers;
  v.prefetch = in.prefetch_factor;
  v.in_order = in.in_order;
  v.worker_rate = 1 / transform.time_s;
  v.batch_cv = in.transform_cv * t.worker_seconds_per_sample * std::sqrt(B) / build;
  v.loop_rate = 1 / loop;
  v.loop_cv = step_sd * r.stage(Stage::Compute).time_s / loop;
  const double delivered = 1 / delivered_rate(v);
  r.batch_cv = v.batch_cv;
  r.step_without_variance_s = std::max(transform.time_s, loop);
  if (delivered > std::max(transform.time_s, loop) * (1 + 1e-12)) {
    transform.time_s = delivered;
    transform.limit = Limit::Variance;
  }
}

}  // namespace

double pin_time(const Inputs& in, double batch) {
  if (!in.transfer.modelled || !in.transfer.pinned || !in.transform.pin_bandwidth) return 0;
  return batch * in.transfer.device_bytes / *in.transform.pin_bandwidth;
}

double lock_time(const Inputs& in, double batch) {
  if (in.workers < 1 || !in.transfer.modelled || !in.transfer.pinned) return 0;
  return in.launch_time + in.pin_lock_share * pin_time(in, batch);
}

double cpu_tasks(const Inputs& in) {
  if (!in.loop_cpu_share) return in.workers;
  return in.workers + 1 + (pin_time(in, in.batch) > 0 ? 1 : 0);
}

EpochStart epoch_start(const Inputs& in, const Result& r) {
  EpochStart e;
  e.steps = in.dataset_samples.value_or(0) / (in.batch * in.accelerators * in.nodes);
  if (r.serial) return e;  // the main process alone: no pipeline to fill
  const double W = in.workers;
  // One worker's whole batch while all W build theirs: W times the input stage's time per batch.
  double input = 0;
  for (Stage s : {Stage::Storage, Stage::Transform})
    if (r.stage(s).modelled) input = std::max(input, r.stage(s).time_s);
  const double tw = W * input;
  const double loop = loop_side(r);
  // The training process starts the workers one after another, unless they persist; then each
  // new worker's first batch takes pipeline.worker_warmup_time longer, all of them at once,
  // stretched as their batches are when they share cores (W workers at the rate of
  // effective_workers).
  const double stretch = r.effective_workers > 0 ? std::max(1.0, W / r.effective_workers) : 1.0;
  const double start =
      in.persistent_workers ? 0 : in.epoch_overhead + W * in.worker_start_time + in.worker_warmup_time * stretch;
  // Batches arrive in bursts of W, one worker's batch time apart: the epoch ends after the
  // first burst plus N steps of the loop (the loop is the slower), or after N / W bursts plus
  // the last burst's steps (the workers are).
  // Where a request holds a shard, each worker first reads its whole first request, then
  // transforms its batch from it.
  const double transform = r.stage(Stage::Transform).modelled ? r.stage(Stage::Transform).time_s : 0;
  const double first = std::max(tw, first_read_time(in.storage, W) + W * transform);
  e.start_s = start;
  e.first_batch_s = start + first + loop;
  const double n = e.steps;
  if (n <= 0) return e;  // no dataset size: the first step is known, the epoch's length is not
  const double loop_paced = first + n * loop;
  const double worker_paced = first + (std::max(n / W, 1.0) - 1) * tw + std::min(W, n) * loop;
  e.extra_s = std::max(0.0, start + std::max(loop_paced, worker_paced) - n * r.step_s);
  return e;
}

namespace {

// Each modelled stage's time per batch, bytes and what limits it; compute is always modelled.
void stage_times(const Inputs& in, Result& r) {
  const double B = in.batch;
  StageResult& storage = r.stage(Stage::Storage);
  StageResult& transform = r.stage(Stage::Transform);
  StageResult& transfer = r.stage(Stage::Transfer);
  StageResult& compute = r.stage(Stage::Compute);
  if (in.storage.modelled) {
    storage.modelled = true;
    storage.bytes_per_batch = storage_bytes_per_batch(in.storage, in, B);
    storage.time_s = storage_time(in.storage, storage.bytes_per_batch, &storage.limit);
  }
  if (in.transform.modelled) {
    transform.modelled = true;
    transform.bytes_per_batch = B * in.sample_bytes;
    transform.time_s = transform_time(in.transform, in, B, &transform.limit);
  }
  if (in.transfer.modelled) {
    transfer.modelled = true;
    transfer.bytes_per_batch = B * in.transfer.device_bytes;
    transfer.limit = in.transfer.pinned ? Limit::Link : Limit::PageableLink;
    transfer.time_s = transfer_time(in.transfer, B);
    // With pinned memory one thread first copies every batch into pinned memory; the loop's
    // launch takes turns with the part of that work which holds the interpreter lock.
    const double pin = pin_time(in, B);
    if (pin > transfer.time_s) {
      transfer.time_s = pin;
      transfer.limit = Limit::PinThread;
    }
    r.lock_s = lock_time(in, B);
    if (r.lock_s > transfer.time_s) {
      transfer.time_s = r.lock_s;
      transfer.limit = Limit::InterpreterLock;
    }
  }
  compute.modelled = true;
  r.padding = in.padding;
  r.model_compute_s = model_compute_time(in.compute, B, &compute.limit) * in.padding;
  compute.time_s = r.model_compute_s + B * in.transform.gpu_seconds_per_sample;  // plus GPU decoding
  compute.bytes_per_batch = B * in.sample_bytes;
}

// The figures beside the stages' times that the step depends on: workers, the shared cores,
// the variance, the training loop's own time.
void loop_and_workers(const Inputs& in, Result& r) {
  const StageResult& compute = r.stage(Stage::Compute);
  const bool transform_modelled = r.stage(Stage::Transform).modelled;
  r.memory_bound = compute.limit == Limit::MemoryBandwidth;
  r.effective_workers = in.transform.cpu_work ? effective_workers(in.transform, in) : 0;
  if (in.transform.cpu_work && in.workers >= 1 && in.transform.cores_per_accelerator)
    r.worker_slicing = oversubscription(in.transform, in.workers, *in.transform.cores_per_accelerator);
  r.worker_bytes_per_s = worker_bytes_per_s(in.transform, in);
  r.serial = in.workers == 0;
  r.transfer_serialised = in.transfer.modelled && !in.transfer.pinned && !r.serial;
  r.cache_hit = in.storage.cache_hit;
  r.transform_at = in.transform.at;
  r.transfer_needs_device_bytes = in.transfer.needs_device_bytes;
  r.loop_overhead_s = in.loop_time();
  const Slowest slowest = slowest_of(in.accelerators * in.nodes, in.step_cv);
  r.sync_wait_s = compute.time_s * (slowest.mean - 1);
  for (Stage s : {Stage::Storage, Stage::Transform, Stage::Transfer})
    if (!r.stage(s).modelled) r.unmodelled |= stage_bit(s);
  if (transform_modelled) shared_cores(in, r);
  if (transform_modelled) shared_wait(in, r);
  if (transform_modelled) variance(in, slowest.sd, r);
}

// The step and the stages that bind: in turn (workers = 0) or overlapped.
void step_and_binding(Result& r) {
  if (r.serial) {
    double largest = 0;
    r.step_s = r.loop_overhead_s + r.sync_wait_s;
    for (const auto& st : r.stages) {
      if (!st.modelled) continue;
      r.step_s += st.time_s;
      largest = std::max(largest, st.time_s);
    }
    for (Stage s : kStages)
      if (r.stage(s).modelled && r.stage(s).time_s >= largest * (1 - kCoBinding)) r.binding |= stage_bit(s);
  } else {
    const double device_side = device_chain(r);
    r.step_s = device_side;
    for (Stage s : {Stage::Storage, Stage::Transform, Stage::Transfer}) {
      if (s == Stage::Transfer && r.transfer_serialised) continue;
      if (r.stage(s).modelled) r.step_s = std::max(r.step_s, r.stage(s).time_s);
    }
    const double cut = r.step_s * (1 - kCoBinding);
    for (Stage s : kStages) {
      const auto& st = r.stage(s);
      if (!st.modelled) continue;
      bool binds = st.time_s >= cut;
      // A serialised transfer binds when the copy-then-compute chain sets the step; compute binds
      // with the loop's own time, which runs in turn with it.
      if (s == Stage::Transfer && r.transfer_serialised) binds = device_side >= cut;
      if (s == Stage::Compute) binds = r.compute_side_s() >= cut;
      if (binds) r.binding |= stage_bit(s);
    }
  }
}

// Rates, utilization, throughput and demand from the step.
void rates_and_demand(const Inputs& in, Result& r) {
  const double B = in.batch;
  const StageResult& compute = r.stage(Stage::Compute);
  for (Stage s : kStages) {
    r.stage(s).binding = r.binds(s);
    rates(r.stage(s), B, r.step_s, compute.time_s);
  }
  r.utilization = r.model_compute_s / r.step_s;
  r.idle_fraction = 1 - r.utilization;
  r.slowdown = r.step_s / r.model_compute_s;
  r.throughput_per_accelerator = B / r.step_s;
  r.throughput_per_node = in.accelerators * r.throughput_per_accelerator;
  r.throughput = in.nodes * r.throughput_per_node;
  r.data_demand = B * in.sample_bytes / compute.time_s;
  r.data_demand_per_node = r.data_demand * in.accelerators;
  r.data_demand_per_cluster = r.data_demand_per_node * in.nodes;
}

// Accelerator memory, the epoch and its start, and the cost.
void memory_epoch_cost(const Inputs& in, Result& r) {
  const double B = in.batch;
  if (in.compute.memory_capacity) {
    r.memory_needed = memory_needed(in.compute, B);
    r.fits = *r.memory_needed <= *in.compute.memory_capacity;
  }
  const EpochStart e = epoch_start(in, r);
  if (!r.serial) {
    r.first_batch_s = e.first_batch_s;
    r.workers_start_s = e.start_s;
  }
  if (in.dataset_samples) {
    r.epoch_s = *in.dataset_samples / r.throughput;
    r.idle_per_epoch_s = *r.epoch_s * r.idle_fraction;
    r.epoch_start_s = e.extra_s;
    r.epoch_utilization = r.model_compute_s * e.steps / (*r.epoch_s + e.extra_s);
  }
  if (in.price_per_second) {
    const double cluster_per_second = *in.price_per_second * in.nodes;
    r.price_per_hour = cluster_per_second * 3600;
    r.samples_per_usd = r.throughput / cluster_per_second;
    if (r.epoch_s) {
      r.cost_per_epoch = *r.epoch_s * cluster_per_second;
      r.idle_cost_per_epoch = *r.cost_per_epoch * r.idle_fraction;
    }
  }
}

// The whole run: the first epoch at its own (cold page cache) time, the others steady, each
// with its start; the compute is every epoch's.
// With several nodes reshuffling, later epochs each at their own hit ratio: every one of up to
// 256 of them, and past that 256 equal blocks of epochs, each at its middle epoch's ratio (the
// ratio varies smoothly); from where the cache is within a millionth of warm, warm.
void run(const Inputs& in, Result& r) {
  if (!in.epochs || !r.epoch_s || !r.epoch_start_s || !r.epoch_utilization) return;
  const double n = *in.epochs;
  const double first = r.cold && r.cold->epoch_s ? *r.cold->epoch_s : *r.epoch_s;
  const double compute_per_epoch = *r.epoch_utilization * (*r.epoch_s + *r.epoch_start_s);
  double later = (n - 1) * *r.epoch_s;
  if (r.warmup && r.cold && n > 1) {
    later = 0;
    const double blocks = std::min(n - 1, 256.0), size = (n - 1) / blocks;
    for (double i = 0; i < blocks; ++i) {
      const double hit = epoch_cache_hit(in.storage, 2 + (i + 0.5) * size - 0.5);
      if (hit >= in.storage.cache_hit * (1 - 1e-6)) {
        later += (blocks - i) * size * *r.epoch_s;
        break;
      }
      Inputs e = in;
      e.storage.cache_hit = hit;
      e.storage.cold_cache_hit.reset();
      e.epochs.reset();
      later += size * evaluate(e).epoch_s.value_or(*r.epoch_s);
    }
  }
  r.run_s = first + later + n * *r.epoch_start_s;
  r.run_utilization = n * compute_per_epoch / *r.run_s;
}

std::optional<CacheWarmup> warmup(const StorageInputs& s) {
  if (!s.cache_from_page_cache || s.shards <= 1 || s.cache_hit <= 0) return std::nullopt;
  CacheWarmup w;
  w.shards = s.shards;
  w.hits = {epoch_cache_hit(s, 2), epoch_cache_hit(s, 3), epoch_cache_hit(s, 5), epoch_cache_hit(s, 10)};
  // (1 - 1/shards)^(k-1) <= 1 - 0.99 hit: the first such whole k.
  const double left = 1 - 0.99 * s.cache_hit;
  w.near_epoch = 1 + std::max(1.0, std::ceil(std::log(left) / std::log(1 - 1 / s.shards) - 1e-9));
  return w;
}

}  // namespace

Result evaluate(const Inputs& in) {
  Result r;
  stage_times(in, r);
  loop_and_workers(in, r);
  step_and_binding(r);
  rates_and_demand(in, r);
  memory_epoch_cost(in, r);
  if (in.storage.cold_cache_hit) {
    Inputs first = in;
    first.storage.cache_hit = *in.storage.cold_cache_hit;
    first.storage.cold_cache_hit.reset();
    first.epochs.reset();
    const Result c = evaluate(first);
    r.cold = ColdEpoch{first.storage.cache_hit,
                       c.stage(Stage::Storage).time_s,
                       c.step_s,
                       c.utilization,
                       c.throughput,
                       c.binding,
                       c.epoch_s};
  }
  r.warmup = warmup(in.storage);
  if (r.epoch_s && r.epoch_start_s && r.epoch_utilization) {
    const double steady = *r.epoch_s + *r.epoch_start_s;
    const double first = (r.cold && r.cold->epoch_s ? *r.cold->epoch_s : *r.epoch_s) + *r.epoch_start_s;
    r.worst_epoch = WorstEpoch{*r.epoch_utilization * steady / first, r.throughput * *r.epoch_s / first, first};
  }
  run(in, r);
  if (r.run_s && in.price_per_second) r.run_cost = *r.run_s * *in.price_per_second * in.nodes;
  return r;
}

}  // namespace pipesim
