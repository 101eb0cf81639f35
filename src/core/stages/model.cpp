#include "core/stages/model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>

#include "core/stages/resolve_util.hpp"
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
  w.loop_cpu_share = s.opt(Field::LoopCpuShare);
  w.launch_time = s.value(Field::LaunchTime);
  w.pin_lock_share = s.value(Field::PinLockShare);
  w.crowded_loop_time = s.value(Field::CrowdedLoopTime);
  w.epoch_overhead = s.value(Field::EpochOverhead);
  w.prefetch_factor = s.value(Field::PrefetchFactor);
  w.in_order = s.value(Field::InOrder) != 0;
  w.transform_cv = s.value(Field::TransformCv);
  w.sample_size_cv = s.value(Field::SampleSizeCv);
  w.step_cv = s.value(Field::StepCv);
  if (s.has(Field::DatasetSize))
    w.dataset_bytes = s.get(Field::DatasetSize);
  else if (w.dataset_samples)
    w.dataset_bytes = *w.dataset_samples * w.sample_bytes;
  return w;
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

Field unmodelled_key(Stage s, TransformAt at) {
  switch (s) {
    case Stage::Storage:
      return Field::ReadBandwidth;
    case Stage::Transform:
      return at == TransformAt::Cpu ? Field::WorkerThroughput : Field::HostCost;
    case Stage::Transfer:
    case Stage::Compute:
      break;
  }
  return Field::LinkBandwidth;
}

bool Result::compute_bound() const {
  return stage(Stage::Compute).time_s + loop_overhead_s + shared_wait_s >= step_s * (1 - kCoBinding);
}

namespace {

StageResult& at(Result& r, Stage s) { return r.stages[static_cast<std::size_t>(s)]; }

// Rates, shares and demand of a stage once the step is known.
void rates(StageResult& st, double batch, double step_s, double compute_s) {
  if (!st.modelled) return;
  st.samples_per_s = st.time_s > 0 ? batch / st.time_s : 0;
  st.bytes_per_s = st.time_s > 0 ? st.bytes_per_batch / st.time_s : 0;
  st.share_of_step = st.time_s / step_s;
  st.demand_bytes_per_s = st.bytes_per_batch / compute_s;
}

// The training process's chain per step: its own loop time, then (unless pinned) the copy, then
// compute. Needs the stages and transfer_serialised of `r`.
double device_chain(const Result& r) {
  return r.loop_overhead_s + r.shared_wait_s + r.stage(Stage::Compute).time_s +
         (r.transfer_serialised ? r.stage(Stage::Transfer).time_s : 0);
}

// What the training loop needs per step when never starved: its chain, or an overlapped copy.
double loop_side(const Result& r) {
  double loop = device_chain(r);
  if (r.stage(Stage::Transfer).modelled && !r.transfer_serialised)
    loop = std::max(loop, r.stage(Stage::Transfer).time_s);
  return loop;
}

// The training process's own CPU work per step: its loop time and a pageable copy it makes itself.
double loop_own_work(const Result& r) {
  return r.loop_overhead_s + (r.transfer_serialised ? r.stage(Stage::Transfer).time_s : 0);
}

// Shared by time (pipeline.loop_cpu_share set), every CPU second of a step comes from the cores
// of one accelerator: the workers' batch, the training process's own time (plus a pageable copy
// it makes itself), the pin thread's copy, and its share of the compute, which holds a core.
// The transform stage cannot be faster than that work over the cores (processor sharing, as a
// fluid). Under the scaling law the work costs more the more of it runs at once: at a step P the
// hold takes share x compute / P of the cores, the work runs at the parallelism left, p = the
// cores less that (at most what its tasks can use: the W workers, the training process's own
// time and the pin thread), and costs p / usl(p) times its single-core time (the hold neither
// suffers contention nor adds to it, as simulate runs it; past the peak of a law with kappa,
// the peak's rate, below). The cores in this bound are those the tasks can use at once: W + 1
// (+ 1 for the pin thread) when that is fewer; dividing by idle cores would let a few workers
// look faster than more on the same node.
// With more tasks than logical CPUs (the W workers, all busy here, the training process while
// it holds or works, the pin thread while it copies), time slicing makes the work cost
// oversubscription(tasks) times as much again. The training process wants a core for
// a = (hold + loop) / P of the step and the pin thread for b = pin / P, each stretched by the
// time slicing that n tasks on C logical CPUs bring: n = W + min(1, a max(1, n / C)) +
// min(1, b max(1, n / C)), found by iterating from n = W + a + b (it rises, slope below 1).
// A longer step leaves the work more parallelism (and fewer tasks), so the bound P = (work x
// p(P) / usl(p(P)) x oversubscription + hold) / cores is found by iterating from the bound
// without either, which rises towards the fixed point, then by bisection between the last two
// steps once one overshoots it. With sigma, kappa and the cost at 0 it is (work + hold) / cores.
void shared_cores(const Inputs& in, Result& r) {
  const TransformInputs& t = in.transform;
  if (!in.loop_cpu_share || !t.cpu_work || in.workers < 1 || !t.cores_per_accelerator) return;
  const double B = in.batch;
  const double hold = *in.loop_cpu_share * r.stage(Stage::Compute).time_s;
  const double own = loop_own_work(r);
  const double pin = pin_time(in, B);
  const double work = worker_batch_time(t, in, B) + own + pin;
  const double logical = *t.cores_per_accelerator;
  const double cores = core_capacity(t, cpu_tasks(in), logical);  // W + training process (+ pin thread)
  const double most = core_capacity(t, in.workers + (own > 0 ? 1 : 0) + (pin > 0 ? 1 : 0), logical);
  // Past the law's peak (kappa > 0) more parallelism loses throughput; the transform stage
  // carries that loss for the W workers, and this bound takes the peak's rate there, so that a
  // shorter hold (faster compute, a smaller share) never lengthens it.
  const double peak = t.kappa > 0 ? usl_peak(t) : most;
  const auto tasks = [&](double step) {
    const double a = (hold + own) / step, b = pin / step;
    const auto of = [&](double n) {
      const double stretch = std::max(1.0, n / logical);
      return in.workers + std::min(1.0, a * stretch) + std::min(1.0, b * stretch);
    };
    double n = of(in.workers);
    for (int i = 0; i < 200; ++i) {
      const double next = of(n);
      if (next <= n * (1 + 1e-12)) break;
      n = next;
    }
    return n;
  };
  const auto contended = [&](double step) {
    const double p = std::min(most, cores - hold / step);
    return (p > 1 ? work * p / usl_workers(t, std::min(p, std::max(1.0, peak))) : work) *
           (t.oversubscription > 0 ? oversubscription(t, tasks(step), logical) : 1);
  };
  const auto bound = [&](double step) { return (contended(step) + hold) / cores; };
  double below = (work + hold) / cores, step = below;
  for (int i = 0; i < 10000; ++i) {  // rises towards the fixed point; ends when it stops rising
    const double next = bound(step);
    if (next <= step) break;
    below = step;
    step = next;
  }
  for (int i = 0; i < 100 && step - below > 1e-12 * step; ++i) {  // past it: between the last two
    const double mid = 0.5 * (below + step);
    (bound(mid) > mid ? below : step) = mid;
  }
  r.shared_cpu_s = contended(step) + hold;
  r.shared_cores = core_capacity(t, logical, logical);
  StageResult& transform = at(r, Stage::Transform);
  if (step > transform.time_s * (1 + 1e-12)) {
    transform.time_s = step;
    transform.limit = Limit::SharedCores;
  }
}

}  // namespace

double receive_busy(double workers, double build, double step, double receive) {
  // Takes come one step apart and each sends the next index to a worker in turn, so the workers
  // got their last batches 0, 1, ..., W-1 steps before this take; the one that got it j steps
  // ago still builds it for build - j x step, which covers that share of the receive.
  if (workers < 1 || build <= 0 || step <= 0) return 0;
  const double count = std::ceil(workers);
  const auto term = [&](double j) {
    return receive > 0 ? std::clamp((build - j * step) / receive, 0.0, 1.0) : (build > j * step ? 1.0 : 0.0);
  };
  // The terms fall as j grows: 1 below `full`, fractions up to `none`, 0 from there. Both ends
  // come in closed form (W may be 10^9: no loop per worker), then are moved to where the terms
  // themselves change, so that a rounding at the edge counts as the term says.
  const auto settle = [&](double at, auto inside) {
    for (int k = 0; k < 4 && at > 0 && !inside(at - 1); ++k) --at;
    for (int k = 0; k < 4 && at < count && inside(at); ++k) ++at;
    return at;
  };
  const double full =
      settle(std::clamp(std::floor((build - receive) / step) + 1, 0.0, count), [&](double j) { return term(j) >= 1; });
  const double none =
      std::max(full, settle(std::clamp(std::ceil(build / step), 0.0, count), [&](double j) { return term(j) > 0; }));
  double n = full;
  const double m = none - full;
  if (m <= 64) {
    for (double j = full; j < none; ++j) n += term(j);
  } else {  // many fractions (a receive of many steps): their sum as a series
    n += m * build / receive - step / receive * (full + none - 1) * m / 2;
  }
  return std::min(workers, n);
}

double crowded_loss(const Inputs& in, double busy, double cores) {
  if (in.crowded_loop_time <= 0 || cores <= 0) return 0;
  return in.crowded_loop_time * std::clamp(2 * busy / cores - 1, 0.0, 1.0);
}

namespace {

// Shared by time, the training process's own CPU work runs on the cores the workers hold. Its
// own time (receive, loop overhead, a pageable copy it makes) and its share of the compute run
// as one more task among the busy workers (and the pin thread): with n tasks wanting C cores
// each runs at min(1, C' / n) (processor sharing, as simulate runs it). For its own work C' is
// the cores' capacity for n under the scaling law, whose loss is the work's; its share of the
// compute holds a core for the accelerator's time, which time slicing lengthens but contention
// does not, so there C' is the capacity alone (pooled_rates in simulate.cpp); past the cores its
// own work also costs oversubscription(1 + n) times as much, the hold nothing more. Its share of the
// compute spans the step, beside the build / step workers busy on average (at most W); its own
// time comes at the take, beside the workers busy then (receive_busy: the sender's next batch
// and those still building theirs), as simulate runs it; the pin thread pin / step in both.
// The pin thread and the interpreter lock (the loop's launch and the pin thread's locked work,
// in turn) are the process's serial work too: each runs at the rate one of its threads gets
// beside the busy workers and the process's other thread (busy for its CPU share and own time
// over the step), so the transfer stage takes at least pin / rate and lock / rate.
// When it takes a batch with most CPUs busy (the workers building, the pin thread), the loop also
// waits to be run at all: crowded_loss of the tasks busy then (the scheduler's wake-up latency
// for each time it slept in the step; pipeline.crowded_loop_time from all CPUs busy).
// The wait this adds lengthens the step, which lowers the workers busy: the step is the one fixed
// point of step = max(other stages, transfer(step), chain + wait(step)), found by bisection (both
// only shrink as the step grows).
void shared_wait(const Inputs& in, Result& r) {
  const TransformInputs& t = in.transform;
  if (!in.loop_cpu_share || !t.cpu_work || in.workers < 1 || !t.cores_per_accelerator) return;
  const double own = loop_own_work(r);
  const double compute = r.stage(Stage::Compute).time_s;
  const double share = *in.loop_cpu_share * compute;
  const double pin = pin_time(in, in.batch);
  const double lock = lock_time(in, in.batch);
  if (own <= 0 && share <= 0 && pin <= 0 && lock <= 0 && in.crowded_loop_time <= 0) return;
  const double build = worker_batch_time(t, in, in.batch);
  const double cores = *t.cores_per_accelerator;
  const auto busy = [&](double step) { return std::min(in.workers, build / step) + std::min(1.0, pin / step); };
  const auto receiving = [&](double step) {
    return receive_busy(in.workers, build, step, own) + std::min(1.0, pin / step);
  };
  const auto rate = [&](double n, bool held) {
    const double capacity = core_capacity(t, n, cores);
    return std::min(1.0, held ? capacity / n : usl_workers(t, capacity) / n / oversubscription(t, n, cores));
  };
  const auto wait = [&](double step) {
    return own * (1 / rate(1 + receiving(step), false) - 1) +
           std::max(0.0, share / rate(1 + busy(step), true) - compute) + crowded_loss(in, receiving(step), cores);
  };
  // One of the process's threads beside the busy workers (and the pin thread) and its other thread.
  const auto thread_rate = [&](double step) {
    return rate(std::max(1.0, busy(step) + std::min(1.0, (share + own) / step)), false);
  };
  StageResult& transfer = at(r, Stage::Transfer);
  const bool overlapped = transfer.modelled && !r.transfer_serialised;
  const double link = overlapped ? transfer_time(in.transfer, in.batch) : 0;
  const auto transfer_at = [&](double step) {
    const double rate_now = thread_rate(step);
    return std::max({link, pin / rate_now, lock / rate_now});
  };
  double others = 0;
  for (Stage s : {Stage::Storage, Stage::Transform, Stage::Transfer}) {
    if (s == Stage::Transfer && r.transfer_serialised) continue;
    if (r.stage(s).modelled) others = std::max(others, r.stage(s).time_s);
  }
  const double chain = device_chain(r);
  const auto step_at = [&](double step) { return std::max({others, transfer_at(step), chain + wait(step)}); };
  double lo = std::max(others, chain);
  double hi = step_at(lo);
  for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (step_at(mid) > mid ? lo : hi) = mid;
  }
  r.shared_wait_s = wait(hi);
  r.crowded_s = crowded_loss(in, receiving(hi), cores);
  r.thread_rate = thread_rate(hi);
  if (overlapped) {
    const double stretched = transfer_at(hi);
    if (stretched > transfer.time_s * (1 + 1e-12)) {
      transfer.time_s = stretched;
      transfer.limit = lock > pin ? Limit::InterpreterLock : Limit::PinThread;
    }
  }
  const double step = std::max({others, overlapped ? transfer.time_s : 0.0, chain + r.shared_wait_s});
  r.busy_workers = busy(step);
  r.receive_busy_workers = receiving(step);
}

// Per-sample variance (transform.cv) and step variance (model.step_cv) under the DataLoader's
// delivery: the loop receives fewer batches than the slower side makes (variance.hpp). The
// transform stage then takes the time per batch the loop receives them (limit variance).
void variance(const Inputs& in, Result& r) {
  const TransformInputs& t = in.transform;
  if (in.workers < 1 || !t.cpu_work || (in.transform_cv <= 0 && in.step_cv <= 0)) return;
  StageResult& transform = at(r, Stage::Transform);
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
  v.loop_cv = in.step_cv * r.stage(Stage::Compute).time_s / loop;
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
  if (r.serial || e.steps <= 0) return e;  // the main process alone: no pipeline to fill
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
  const double n = e.steps;
  const double loop_paced = tw + n * loop;
  const double worker_paced = std::max(n / W, 1.0) * tw + std::min(W, n) * loop;
  e.start_s = start;
  e.first_batch_s = start + tw + loop;
  e.extra_s = std::max(0.0, start + std::max(loop_paced, worker_paced) - n * r.step_s);
  return e;
}

namespace {

// Each modelled stage's time per batch, bytes and what limits it; compute is always modelled.
void stage_times(const Inputs& in, Result& r) {
  const double B = in.batch;
  StageResult& storage = at(r, Stage::Storage);
  StageResult& transform = at(r, Stage::Transform);
  StageResult& transfer = at(r, Stage::Transfer);
  StageResult& compute = at(r, Stage::Compute);
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
  r.model_compute_s = model_compute_time(in.compute, B, &compute.limit);
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
  r.loop_overhead_s = in.loop_time();
  for (Stage s : {Stage::Storage, Stage::Transform, Stage::Transfer})
    if (!r.stage(s).modelled) r.unmodelled |= stage_bit(s);
  if (transform_modelled) shared_cores(in, r);
  if (transform_modelled) shared_wait(in, r);
  if (transform_modelled) variance(in, r);
}

// The step and the stages that bind: in turn (workers = 0) or overlapped.
void step_and_binding(Result& r) {
  if (r.serial) {
    double largest = 0;
    r.step_s = r.loop_overhead_s;
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
      if (s == Stage::Compute) binds = r.loop_overhead_s + r.shared_wait_s + st.time_s >= cut;
      if (binds) r.binding |= stage_bit(s);
    }
  }
}

// Rates, utilization, throughput and demand from the step.
void rates_and_demand(const Inputs& in, Result& r) {
  const double B = in.batch;
  const StageResult& compute = r.stage(Stage::Compute);
  for (Stage s : kStages) {
    at(r, s).binding = r.binds(s);
    rates(at(r, s), B, r.step_s, compute.time_s);
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
  if (in.dataset_samples) {
    r.epoch_s = *in.dataset_samples / r.throughput;
    r.idle_per_epoch_s = *r.epoch_s * r.idle_fraction;
    const EpochStart e = epoch_start(in, r);
    r.epoch_start_s = e.extra_s;
    r.first_batch_s = e.first_batch_s;
    r.workers_start_s = e.start_s;
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
  run(in, r);
  return r;
}

}  // namespace pipesim
