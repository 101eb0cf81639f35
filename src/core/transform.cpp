#include "core/transform.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace pipesim {

TransformInputs resolve_transform(const Scenario& s, const Workload& w) {
  TransformInputs in;
  // Scenario::set keeps at most one of the three rates.
  double cpu_seconds = 0;
  bool cpu_rate = true;
  if (s.has(Field::WorkerThroughput))
    cpu_seconds = w.sample_bytes / s.get(Field::WorkerThroughput);
  else if (s.has(Field::WorkerSampleRate))
    cpu_seconds = 1.0 / s.get(Field::WorkerSampleRate);
  else if (s.has(Field::TransformCost))
    cpu_seconds = s.get(Field::TransformCost);
  else
    cpu_rate = false;

  in.at = static_cast<TransformAt>(s.opt(Field::TransformDevice).value_or(0));
  switch (in.at) {
    case TransformAt::Cpu:
      in.cpu_work = cpu_rate;
      in.worker_seconds_per_sample = cpu_seconds;
      break;
    case TransformAt::Gpu:
      if (!s.has(Field::GpuTime))
        throw FieldError(Field::TransformDevice,
                         "transform.device = \"gpu\" needs transform.gpu_time, the accelerator time to decode "
                         "one sample (DALI/nvJPEG)");
      in.gpu_seconds_per_sample = s.get(Field::GpuTime);
      break;
    case TransformAt::Decoder:
      if (!s.has(Field::DecoderRate))
        throw FieldError(Field::TransformDevice,
                         "transform.device = \"decoder\" needs accelerator.decoder_rate, the samples/s of the "
                         "accelerator's hardware decoder");
      in.decoder_seconds_per_sample = 1.0 / s.get(Field::DecoderRate);
      break;
  }
  if (in.at != TransformAt::Cpu && s.has(Field::HostCost)) {
    in.cpu_work = true;
    in.worker_seconds_per_sample = s.get(Field::HostCost);
  }
  in.modelled = in.cpu_work || in.decoder_seconds_per_sample > 0;

  in.reserved_cores = s.opt(Field::ReservedCores).value_or(w.accelerators);
  if (s.has(Field::Cores)) {
    in.node_cores = s.get(Field::Cores);
    const double available = *in.node_cores - in.reserved_cores;
    if (available > 0) {
      in.cores_per_accelerator = available / w.accelerators;
    } else if (in.cpu_work && w.workers >= 1) {
      throw FieldError(
          s.has(Field::ReservedCores) ? Field::ReservedCores : Field::Cores,
          fmt::format("cpu.cores = {} leaves no core for workers after cpu.reserved_cores = {} "
                      "({}): lower the reservation or add cores",
                      format_compact(*in.node_cores, Dim::Number), format_compact(in.reserved_cores, Dim::Number),
                      s.has(Field::ReservedCores) ? "as set" : "one per training process"));
    }
  }
  return in;
}

double effective_workers(const TransformInputs& in, const Workload& w) {
  // With W = 0 the main process transforms, on its own (reserved) core.
  if (w.workers < 1) return 1;
  return in.cores_per_accelerator ? std::min(w.workers, *in.cores_per_accelerator) : w.workers;
}

double worker_bytes_per_s(const TransformInputs& in, const Workload& w) {
  return in.cpu_work ? w.sample_bytes / in.worker_seconds_per_sample : 0;
}

double transform_time(const TransformInputs& in, const Workload& w, double batch, Limit* limit) {
  const double cpu = in.cpu_work ? batch * in.worker_seconds_per_sample / effective_workers(in, w) : 0;
  const double decoder = batch * in.decoder_seconds_per_sample;
  if (limit) {
    if (decoder > cpu)
      *limit = Limit::Decoder;
    else if (w.workers < 1)
      *limit = Limit::MainProcess;
    else if (in.cores_per_accelerator && *in.cores_per_accelerator < w.workers)
      *limit = Limit::Cores;
    else
      *limit = Limit::Workers;
  }
  return std::max(cpu, decoder);
}

double ceil_count(double x) { return std::ceil(x * (1 - 1e-12)); }

CoreNeeds core_needs(const TransformInputs& in, const Workload& w, double compute_s) {
  CoreNeeds c;
  c.workers_full = ceil_count(w.batch * in.worker_seconds_per_sample / compute_s);
  c.workers_target = ceil_count(w.target_utilization * w.batch * in.worker_seconds_per_sample / compute_s);
  c.reserved_per_accelerator = in.reserved_cores / w.accelerators;
  c.cores_per_accelerator = c.workers_full + c.reserved_per_accelerator;
  c.node_full = c.workers_full * w.accelerators + in.reserved_cores;
  c.node_target = c.workers_target * w.accelerators + in.reserved_cores;
  return c;
}

}  // namespace pipesim
