#include "core/stages/transform.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/base/error.hpp"
#include "core/stages/transfer.hpp"

namespace pipesim {

TransformInputs resolve_transform(const Scenario& s, const Workload& w) {
  TransformInputs in;
  // Rates per step are samples/s by the time a scenario is resolved (the loader converts them
  // with the batch size they were given at); one that is not was set around the loader.
  for (Field f : {Field::WorkerSampleRate, Field::DecoderRate, Field::PredecodedSampleRate})
    if (s.has(f) && s.dim(f) == Dim::StepRate)
      throw FieldError(f, fmt::format("{} is per step: give it in samples/s, or through a scenario file or --set, "
                                      "which multiply it by the batch size",
                                      spec(f).key));
  // Scenario::set keeps at most one of the three rates.
  double cpu_seconds = 0;
  bool cpu_rate = true;
  const double frames = s.value(Field::FramesPerSample);
  if (s.has(Field::FrameCost))
    cpu_seconds = frames * s.get(Field::FrameCost);
  else if (s.has(Field::WorkerThroughput))
    cpu_seconds = w.sample_bytes / s.get(Field::WorkerThroughput);
  else if (s.has(Field::WorkerSampleRate))
    cpu_seconds = 1.0 / s.get(Field::WorkerSampleRate);
  else if (s.has(Field::TransformCost))
    cpu_seconds = s.get(Field::TransformCost);
  else
    cpu_rate = false;

  in.at = static_cast<TransformAt>(s.value(Field::TransformDevice));
  switch (in.at) {
    case TransformAt::Cpu:
      in.cpu_work = cpu_rate;
      in.worker_seconds_per_sample = cpu_seconds;
      // Inside the loader a worker pays more per sample than the same sample timed alone.
      if (cpu_rate && w.workers >= 1) in.worker_seconds_per_sample += s.value(Field::WorkerSampleOverhead);
      break;
    case TransformAt::Gpu:
      if (!s.has(Field::GpuTime))
        throw FieldError(Field::TransformDevice,
                         "transform.device = \"gpu\" needs transform.gpu_time, the accelerator time to decode "
                         "one sample (DALI/nvJPEG)");
      if (s.get(Field::GpuTime) <= 0)
        throw FieldError(Field::GpuTime,
                         "transform.gpu_time = 0 s: decoding on the GPU takes time (0 s is for the GPU's work after "
                         "a hardware decoder, transform.device = \"decoder\", when there is none)");
      in.gpu_seconds_per_sample = s.get(Field::GpuTime);
      break;
    case TransformAt::Decoder:
      // A frame rate per engine, where given, sets the decoder's pace by the frames of a sample;
      // else its rate in samples as measured. GPU work after the decoder adds to the compute.
      if (s.has(Field::DecoderFrameRate))
        in.decoder_seconds_per_sample = frames / (s.value(Field::DecoderEngines) * s.get(Field::DecoderFrameRate));
      else if (s.has(Field::DecoderRate))
        in.decoder_seconds_per_sample = 1.0 / s.get(Field::DecoderRate);
      else
        throw FieldError(Field::TransformDevice,
                         "transform.device = \"decoder\" needs accelerator.decoder_rate, the samples/s of the "
                         "accelerator's hardware decoder, or accelerator.decoder_fps, the frames/s of each of its "
                         "accelerator.decoder_engines");
      in.gpu_seconds_per_sample = s.opt(Field::GpuTime).value_or(0);
      break;
    case TransformAt::None:  // the samples go to the device as stored
      break;
  }
  if (in.at != TransformAt::Cpu && s.has(Field::HostCost)) {
    in.cpu_work = true;
    in.worker_seconds_per_sample = s.get(Field::HostCost);
  }
  // No transform is a known stage that takes no time (beside any transform.host_cost).
  in.modelled = in.cpu_work || in.decoder_seconds_per_sample > 0 || in.at == TransformAt::None;

  in.threads_per_core = s.value(Field::ThreadsPerCore);
  in.smt_yield = s.value(Field::SmtYield);
  in.sigma = s.value(Field::ScalingContention);
  in.kappa = s.value(Field::ScalingCoherency);
  in.oversubscription = s.value(Field::OversubscriptionCost);
  // With pipeline.loop_cpu_share the cores are shared by time: none is reserved unless said.
  in.reserved_cores = s.opt(Field::ReservedCores).value_or(w.loop_cpu_share ? 0 : w.accelerators);
  in.memcpy_bandwidth = s.opt(Field::MemcpyBandwidth);
  in.collate_bandwidth = s.has(Field::CollateBandwidth) ? s.opt(Field::CollateBandwidth) : in.memcpy_bandwidth;
  in.pin_bandwidth = s.has(Field::PinBandwidth) ? s.opt(Field::PinBandwidth) : in.memcpy_bandwidth;
  if (in.collate_bandwidth)  // set whenever the copy rate is: it falls back to that
    in.collate_bytes_per_sample = device_sample_bytes(s).value_or(w.sample_bytes);
  in.worker_batch_overhead = s.value(Field::WorkerBatchOverhead);
  if (s.has(Field::Cores)) {
    in.node_cores = s.get(Field::Cores);
    const double available = *in.node_cores - in.reserved_cores;
    if (available > 0) {
      in.cores_per_accelerator = available / w.accelerators;
    } else if (in.cpu_work && w.workers >= 1) {
      throw FieldError(
          s.has(Field::ReservedCores) ? Field::ReservedCores : Field::Cores,
          fmt::format("cpu.cores = {} leaves no CPU for workers after cpu.reserved_cores = {} "
                      "({}): lower the reservation or add CPUs",
                      format_compact(*in.node_cores, Dim::Number), format_compact(in.reserved_cores, Dim::Number),
                      s.has(Field::ReservedCores) ? "as set" : "one per training process"));
    }
  }
  return in;
}

double usl_workers(const TransformInputs& in, double workers) {
  // Below one worker's worth of parallelism (a fraction of a core) there is nothing to contend.
  if ((in.sigma == 0 && in.kappa == 0) || workers <= 1) return workers;
  return workers / (1 + in.sigma * (workers - 1) + in.kappa * workers * (workers - 1));
}

double usl_peak(const TransformInputs& in) { return std::sqrt(std::max(0.0, 1 - in.sigma) / in.kappa); }

double oversubscription_factor(double cost, double tasks, double logical) {
  if (cost == 0 || !(tasks > logical)) return 1;
  return 1 + cost * (tasks - logical) / logical;
}

double oversubscription(const TransformInputs& in, double tasks, double logical) {
  return oversubscription_factor(in.oversubscription, tasks, logical);
}

double core_capacity(const TransformInputs& in, double workers, double logical) {
  const double physical = logical / in.threads_per_core;
  const double extra = std::clamp(workers - physical, 0.0, logical - physical);
  return std::min(workers, physical) + in.smt_yield * extra;
}

SharedRates shared_rates(const TransformInputs& in, double tasks, double work, std::optional<double> logical) {
  if (tasks <= 0) return {};
  const double capacity = logical ? core_capacity(in, tasks, *logical) : tasks;
  const double share = std::min(1.0, capacity / tasks);
  const double working = work * share;
  const double slicing = logical ? oversubscription(in, tasks, *logical) : 1;
  const double rate = (working > 0 ? share * usl_workers(in, working) / working : share) / slicing;
  return {std::min(1.0, rate), share};
}

double effective_workers(const TransformInputs& in, const Workload& w) {
  // With W = 0 the main process transforms, on its own (reserved) core.
  if (w.workers < 1) return 1;
  // The cores set how much of the W workers runs at once, in whole-core workers (core_capacity);
  // the scaling law then takes its loss over that parallelism. Workers past the logical CPUs
  // wait their turn and add nothing, and time slicing makes all of them spend more CPU on the
  // same work (oversubscription; all W are busy when the workers set the pace).
  if (!in.cores_per_accelerator) return usl_workers(in, w.workers);
  const double logical = *in.cores_per_accelerator;
  return usl_workers(in, core_capacity(in, w.workers, logical)) / oversubscription(in, w.workers, logical);
}

double worker_bytes_per_s(const TransformInputs& in, const Workload& w) {
  return in.cpu_work ? w.sample_bytes / in.worker_seconds_per_sample : 0;
}

double collate_time(const TransformInputs& in, const Workload& w, double batch) {
  const double bytes = batch * in.collate_bytes_per_sample;
  if (w.workers >= 1) return in.worker_batch_overhead + (in.collate_bandwidth ? bytes / *in.collate_bandwidth : 0);
  // Without workers the main process collates into its own heap, which reuses the previous
  // batch's memory (a warm copy, not counted) unless the batch is above glibc's largest mmap
  // threshold: then every batch is a new mapping, faulted in page by page.
  if (!in.memcpy_bandwidth || bytes <= kFreshHeapAbove) return 0;
  return bytes / *in.memcpy_bandwidth;
}

double worker_batch_time(const TransformInputs& in, const Workload& w, double batch) {
  return in.cpu_work ? batch * in.worker_seconds_per_sample + collate_time(in, w, batch) : 0;
}

double transform_time(const TransformInputs& in, const Workload& w, double batch, Limit* limit) {
  const double cpu = in.cpu_work ? worker_batch_time(in, w, batch) / effective_workers(in, w) : 0;
  const double decoder = batch * in.decoder_seconds_per_sample;
  if (limit) {
    if (decoder > cpu)
      *limit = Limit::Decoder;
    else if (w.workers < 1)
      *limit = Limit::MainProcess;
    else if (in.cores_per_accelerator && core_capacity(in, w.workers, *in.cores_per_accelerator) < w.workers)
      *limit = Limit::Cores;
    else
      *limit = Limit::Workers;
  }
  return std::max(cpu, decoder);
}

double ceil_count(double x) { return std::ceil(x * (1 - 1e-12)); }

// W >= need(1 + sigma(W-1) + kappa W(W-1)) is a quadratic in W:
// a W^2 + b W + c <= 0 with a = need kappa, b = need (sigma - kappa) - 1, c = need (1 - sigma).
std::optional<double> workers_for(const TransformInputs& in, double need) {
  if (need <= 0) return 0.0;
  const double a = need * in.kappa, b = need * (in.sigma - in.kappa) - 1, c = need * (1 - in.sigma);
  double root = 0;
  if (a == 0) {
    if (!(b < 0)) return std::nullopt;  // sigma * need >= 1: the asymptote 1/sigma is below the need
    root = -c / b;
  } else {
    const double disc = b * b - 4 * a * c;
    if (disc < 0) return std::nullopt;
    root = (-b - std::sqrt(disc)) / (2 * a);
  }
  const double w = std::max(1.0, ceil_count(root));
  if (usl_workers(in, w) < need * (1 - 1e-12)) return std::nullopt;  // the peak falls between integers
  return w;
}

namespace {

// The whole W where the scaling law peaks (kappa > 0): about sqrt((1 - sigma) / kappa).
double peak_workers(const TransformInputs& in) {
  const double x = usl_peak(in);
  const double lo = std::max(1.0, std::floor(x)), hi = std::max(1.0, std::ceil(x));
  return usl_workers(in, hi) > usl_workers(in, lo) ? hi : lo;
}

}  // namespace

CoreNeeds core_needs(const TransformInputs& in, const Workload& w, double compute_s, double pin_s) {
  CoreNeeds c;
  const double need = worker_batch_time(in, w, w.batch) / compute_s;  // in single-worker rates
  const auto full = workers_for(in, need);
  const auto target = workers_for(in, w.target_utilization * need);
  c.reachable = full.has_value();
  const double best = in.kappa > 0 ? peak_workers(in) : ceil_count(need);
  if (!c.reachable) c.most_rates = in.kappa > 0 ? usl_workers(in, best) : 1 / in.sigma;
  c.workers_full = full.value_or(best);
  c.workers_target = target.value_or(best);
  c.reserved_per_accelerator = in.reserved_cores / w.accelerators;
  // Shared by time, the training process uses a core for its share of the compute and its own time,
  // and its pin thread, a thread of its own, for its work on each batch (at most a core).
  if (w.loop_cpu_share) {
    c.training_cpus = std::min(1.0, *w.loop_cpu_share + w.loop_time() / compute_s) + std::min(1.0, pin_s / compute_s);
    c.reserved_per_accelerator += c.training_cpus;
    if (in.cores_per_accelerator) {
      const double cpus = *in.cores_per_accelerator;
      const auto workers_in = [&](double free) { return std::max(0.0, std::floor(free / in.threads_per_core + 1e-9)); };
      c.workers_beside_training = workers_in(cpus - c.training_cpus);
      c.spare_cpus = cpus - w.workers * in.threads_per_core - c.training_cpus;
      c.workers_with_spare = workers_in(cpus - 1 - c.training_cpus);
    }
  }
  // Each worker at its full rate needs a whole core: threads_per_core logical CPUs.
  c.cores_per_accelerator = c.workers_full * in.threads_per_core + c.reserved_per_accelerator;
  // The knee: 95% of the most the workers deliver (the law's peak, its limit 1 / sigma, or
  // unbounded), never more than compute needs; reachable, since it is below that most.
  const double most = in.kappa > 0   ? usl_workers(in, peak_workers(in))
                      : in.sigma > 0 ? 1 / in.sigma
                                     : std::numeric_limits<double>::infinity();
  const double goal = 0.95 * std::min(need, most);
  c.knee_workers = workers_for(in, goal).value_or(in.kappa > 0 ? peak_workers(in) : ceil_count(goal));
  if (in.kappa > 0) c.peak_workers = peak_workers(in);
  c.knee_fits_cores =
      !in.cores_per_accelerator || c.knee_workers * in.threads_per_core <= *in.cores_per_accelerator * (1 + 1e-12);
  c.node_full = (c.workers_full * in.threads_per_core + c.reserved_per_accelerator) * w.accelerators;
  c.node_target = (c.workers_target * in.threads_per_core + c.reserved_per_accelerator) * w.accelerators;
  return c;
}

}  // namespace pipesim
