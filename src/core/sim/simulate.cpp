#include "core/sim/simulate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numbers>
#include <queue>
#include <utility>

#include "core/base/error.hpp"
#include "core/sim/random.hpp"
#include "core/sim/sim_costs.hpp"
#include "core/sim/sim_engine.hpp"

namespace pipesim {

std::string_view cause_key(Cause c) {
  switch (c) {
    case Cause::None:
      return "none";
    case Cause::Storage:
      return "storage";
    case Cause::Workers:
      return "workers";
    case Cause::Decoder:
      return "decoder";
    case Cause::PinThread:
      return "pin_thread";
    case Cause::Link:
      return "link";
    case Cause::WorkerStart:
      return "worker_start";
    case Cause::Prefetch:
    case Cause::kCount:
      break;
  }
  return "prefetch";
}

std::string_view track_name(Track t) {
  switch (t) {
    case Track::Storage:
      return "storage";
    case Track::Worker:
      return "worker";
    case Track::Decoder:
      return "decoder";
    case Track::PinThread:
      return "pin thread";
    case Track::Link:
      return "link";
    case Track::Loop:
      return "loop";
    case Track::Accelerator:
      break;
  }
  return "accelerator";
}

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::Read:
      return "read";
    case Phase::Build:
      return "build batch";
    case Phase::Decode:
      return "decode";
    case Phase::Pin:
      return "pin";
    case Phase::Copy:
      return "copy";
    case Phase::Wait:
      return "wait";
    case Phase::Receive:
      return "receive";
    case Phase::Compute:
      break;
  }
  return "compute";
}

namespace {

// About how many operations one step of the node costs: the draws per batch (one per sample
// when a time or size varies and its batch's is not drawn at once) and the tasks every event
// visits.
double work_per_step(const Inputs& in, const SimOptions& o) {
  const auto n = static_cast<std::size_t>(in.batch);
  const auto per_sample = [&](double cv) { return cv > 0 && (o.sample_draws || !LognormalSum(1, cv, n).at_once()); };
  const bool draws =
      per_sample(in.transform_cv) || !o.sample_times.empty() || (in.storage.modelled && per_sample(in.sample_size_cv));
  const double tasks = in.accelerators * (in.workers + 2);
  return in.accelerators * ((draws ? 2 * in.batch : 2) + 8 * tasks + 16);
}

}  // namespace

std::size_t min_batches(const Inputs& in) {
  const std::size_t round = std::max<std::size_t>(1, workers_of(in));
  const auto p = static_cast<std::size_t>(in.prefetch_factor);
  // The warm-up (prefetch + 2 rounds) and two rounds of window: five times that keeps
  // steps / 5 from setting the warm-up.
  return round_up((p + 2) * round, round) + 2 * round + 1;
}

std::size_t default_batches(const Inputs& in) { return std::max<std::size_t>(2000, 10 * min_batches(in)); }

namespace {

// The engine's clock is absolute seconds from the run's start. Where a run lasts so long that
// the clock's last digit is more than a ten-thousandth of a step (an epoch_overhead of 1e17 s: 16 s
// a digit against steps of 0.1 s), it cannot tell the steps apart and every figure would be
// wrong (a step of 0 s, utilization inf): refused, with what to change.
void check_clock(double end, double step) {
  if (!(end > 0) || !(step > 0)) return;
  const double digit = std::nextafter(end, std::numeric_limits<double>::infinity()) - end;
  if (digit <= 1e-4 * step) return;
  throw Error(fmt::format(
      "simulate: the run lasts {:.4g} s, too long beside steps of {:.4g} s for its clock (16 digits) to tell "
      "them apart; lower the longest times (pipeline.epoch_overhead, pipeline.worker_start_time, "
      "pipeline.worker_warmup_time) or simulate fewer epochs (the closed forms of `pipesim diagnose` hold)",
      end, step));
}

}  // namespace

namespace {

// Refuses a run too short for the steady state, or too long to finish.
void check_steps(const Inputs& in, const SimOptions& o, std::size_t steps) {
  if (steps < min_batches(in))
    throw Error(
        fmt::format("--batches {} is too few: with {} worker{} and prefetch factor {} the steady state "
                    "needs at least {} steps",
                    steps, workers_of(in), workers_of(in) == 1 ? "" : "s", in.prefetch_factor, min_batches(in)));
  if (static_cast<double>(steps) * in.accelerators > static_cast<double>(o.max_steps) ||
      work_per_step(in, o) * static_cast<double>(steps) > o.max_work)
    throw Error(
        fmt::format("simulating {} steps (--batches) of {} accelerator{} per node with {} worker{} each and "
                    "batch {} would take too long: lower --batches (at least {}), the workers or the "
                    "accelerators",
                    steps, in.accelerators, in.accelerators == 1 ? "" : "s", in.workers, in.workers == 1 ? "" : "s",
                    in.batch, min_batches(in)));
}

// The steady run's figures over its window: step, utilization, throughput, waits and their
// causes, busy fractions. Sorts the window of e.wait.
void steady_figures(const Inputs& in, const Costs& c, EngineRecord& e, std::size_t steps, Simulation& s) {
  const Window w = window(in, steps);
  s.steps = steps;
  s.window_steps = w.k2 - w.k1;
  double compute = 0;
  for (std::size_t k = w.k1; k < w.k2; ++k) compute += e.step_compute[k];
  // Each step's compute lies within the window, so the window is at least as long as the
  // compute it holds; the clock's ends, rounded at a larger magnitude than each step, can come
  // out shorter by a few parts in 10^14 (utilization 1.0000000000000333): held at the compute.
  const double span = std::max(e.step_end[w.k2 - 1] - e.step_end[w.k1 - 1], compute / in.accelerators);
  s.step_s = span / static_cast<double>(s.window_steps);
  s.utilization = compute / in.accelerators / span;
  s.throughput = static_cast<double>(s.window_steps) * in.batch * in.accelerators * in.nodes / span;
  const auto ranks = static_cast<std::size_t>(in.accelerators);
  // The window's waits, in e.wait itself: spread_sorting sorts them there (last, below).
  const std::span<double> waits(e.wait.data() + w.k1 * ranks, (w.k2 - w.k1) * ranks);
  double total_wait = 0;
  for (std::size_t i = w.k1 * ranks; i < w.k2 * ranks; ++i) {
    const auto k = static_cast<std::size_t>(e.cause[i]);
    s.cause_steps[k] += 1.0 / static_cast<double>(waits.size());
    s.cause_wait[k] += e.wait[i];
    total_wait += e.wait[i];
  }
  for (double& x : s.cause_wait) x = total_wait > 0 ? x / total_wait : 0;
  s.wait_histogram = wait_histogram(waits, 30);
  s.wait = spread_sorting(waits);
  const double elapsed = e.step_end.back() * in.accelerators;  // accelerator-seconds
  s.busy.accelerator = e.compute_busy / elapsed;
  s.busy.workers = c.workers ? e.worker_busy / (elapsed * static_cast<double>(c.workers)) : 0;
  if (c.cores && c.workers) s.busy.cores = e.cpu_work / (elapsed * *c.cores);
  if (c.storage) s.busy.storage = e.storage_busy / elapsed;
  if (c.decoder) s.busy.decoder = e.decoder_busy / elapsed;
  if (c.pin && c.workers) s.busy.pin_thread = e.pin_busy / elapsed;
  if ((c.launch > 0 || c.pin_locked > 0) && c.workers) s.busy.interpreter_lock = e.lock_held / elapsed;
  if (c.link && c.workers) s.busy.link = e.link_busy / elapsed;
}

// Whole epochs, when the dataset's size is known and they fit the limits: each epoch's time and
// first step, and utilization over the epochs after the first.
void simulate_epochs(const Inputs& in, const Costs& c, const SimOptions& o, Rng& rng, Simulation& s) {
  if (!in.dataset_samples) {
    s.epoch_skip = EpochSkip::NoDataset;
    return;
  }
  const double per_step = in.batch * in.accelerators * in.nodes;
  const auto n = static_cast<std::size_t>(std::floor(*in.dataset_samples / per_step));
  const std::size_t epochs = o.epochs ? o.epochs : 2;
  s.steps_per_epoch = n;
  if (n == 0) {
    s.epoch_skip = EpochSkip::TooFewSamples;
    return;
  }
  // The most epochs of n steps the run's bounds take.
  const double fit = std::floor(std::min(static_cast<double>(o.max_steps) / (static_cast<double>(n) * in.accelerators),
                                         o.max_work / (work_per_step(in, o) * static_cast<double>(n))));
  if (fit < static_cast<double>(epochs)) {
    s.epoch_skip = EpochSkip::TooLong;
    s.epochs = epochs;
    s.epochs_that_fit = static_cast<std::size_t>(std::max(0.0, fit));
    return;
  }
  const EngineRecord e = run_engine(in, c, o, rng, false, epochs, n);
  check_clock(e.step_end.back(), s.analytic.stage(Stage::Compute).time_s);
  s.epochs = epochs;
  double compute = 0, time = 0;
  for (std::size_t ep = 0; ep < epochs; ++ep) {
    const double start = e.epoch_start[ep];
    const double end = e.step_end[(ep + 1) * n - 1];
    s.epoch_s.push_back(end - start);
    s.first_batch_s.push_back(e.step_end[ep * n] - start);
    if (epochs > 1 && ep == 0) continue;
    double epoch_compute = 0;
    for (std::size_t k = ep * n; k < (ep + 1) * n; ++k) epoch_compute += e.step_compute[k];
    compute += epoch_compute;
    time += std::max(end - start, epoch_compute / in.accelerators);  // as the steady window's span
  }
  s.epoch_utilization = compute / in.accelerators / time;
}

}  // namespace

void check_simulation_size(const Inputs& in, const SimOptions& o) {
  check_steps(in, o, o.batches ? o.batches : default_batches(in));
}

Simulation simulate(const Inputs& in, const SimOptions& o) {
  Simulation s;
  s.inputs = in;
  s.analytic = evaluate(in);
  s.seed = o.seed;
  if (!o.sample_times.empty()) {
    s.sample_times = o.sample_times.size();
    s.sample_times_mean = mean(o.sample_times);
    s.sample_times_label = o.sample_times_label;
  }
  const Costs c = costs(in, s.analytic);
  const std::size_t steps = o.batches ? o.batches : default_batches(in);
  check_steps(in, o, steps);
  Rng rng(o.seed);
  {
    EngineRecord e = run_engine(in, c, o, rng, o.trace_steps > 0, 1, steps);
    check_clock(e.step_end.back(), s.analytic.stage(Stage::Compute).time_s);
    steady_figures(in, c, e, steps, s);
    s.spans = std::move(e.spans);
  }
  simulate_epochs(in, c, o, rng, s);
  return s;
}

}  // namespace pipesim
