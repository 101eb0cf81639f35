#include "core/stages/training_process.hpp"

#include <algorithm>

namespace pipesim {

// The training process's chain per step: its own loop time, then (unless pinned) the copy, then
// compute. Needs the stages and transfer_serialised of `r`.
double device_chain(const Result& r) {
  return r.compute_side_s() + (r.transfer_serialised ? r.stage(Stage::Transfer).time_s : 0);
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
// All W are busy when the workers set the pace; but a training process that never waits for a
// batch is runnable all step, with C / n of a CPU among n tasks, so its a of the step fits only
// while n <= C / a: past that not every worker can be busy beside it, and the tasks are at
// most max(C, C / a) (simulate's workers then take turns, few busy, nothing sliced).
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
    // A training process that never waits leaves room for at most C / a tasks (above).
    return a > 0 ? std::min(n, std::max(logical, logical / a)) : n;
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
  StageResult& transform = r.stage(Stage::Transform);
  if (step > transform.time_s * (1 + 1e-12)) {
    transform.time_s = step;
    transform.limit = Limit::SharedCores;
  }
}

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
  // A task's rate among n working tasks, or a hold's among n (shared_rates).
  const auto rate = [&](double n, bool held) {
    const SharedRates at = shared_rates(t, n, n, cores);
    return held ? at.hold : at.work;
  };
  // A task is busy for as long as its work takes at the rate the others leave it (shared_rates,
  // as simulate runs them): the workers (a batch is `build` of CPU), the pin thread and the
  // process's thread (its share of compute, held, and its own time). The tasks busy on average
  // are the fixed point of n = min(W, build / (step w(n))) + min(1, pin / (step w(n))) +
  // min(1, share / (step h(n)) + own / (step w(n))), w and h the rates of work and of a hold
  // among them, found by iterating from their CPU time over the step (it rises, to at most
  // W + 2); busy() is the workers and the pin thread of it.
  const auto busy = [&](double step) {
    double x = 0, held = 0, mine = 0;  // the workers and pin thread, the process's hold and own time
    for (int i = 0; i < 1000; ++i) {
      const SharedRates at = shared_rates(t, x + held + mine, x + mine, cores);
      const double nx = std::min(in.workers, build / at.work / step) + std::min(1.0, pin / at.work / step);
      double nh = share / at.hold / step, nm = own / at.work / step;
      if (nh + nm > 1) nh /= nh + nm, nm = 1 - nh;
      const bool rose = nx + nh + nm > x + held + mine;
      x = nx, held = nh, mine = nm;
      if (!rose) break;
    }
    return x;
  };
  const auto receiving = [&](double step) {
    return receive_busy(in.workers, build, step, own) + std::min(1.0, pin / step);
  };
  const auto wait = [&](double step) {
    return own * (1 / rate(1 + receiving(step), false) - 1) +
           std::max(0.0, share / rate(1 + busy(step), true) - compute) + crowded_loss(in, receiving(step), cores);
  };
  // One of the process's threads beside the busy workers (and the pin thread) and its other thread.
  const auto thread_rate = [&](double step) {
    return rate(std::max(1.0, busy(step) + std::min(1.0, (share + own) / step)), false);
  };
  StageResult& transfer = r.stage(Stage::Transfer);
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

}  // namespace pipesim
