#include "core/model.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

namespace {

std::string missing_list(const Scenario& s, std::initializer_list<Field> fields) {
  std::string out;
  for (Field f : fields) {
    if (s.has(f)) continue;
    if (!out.empty()) out += ", ";
    out += spec(f).key;
  }
  return out;
}

void require(const Scenario& s, Field f, std::string_view why) {
  if (!s.has(f))
    throw FieldError(f, fmt::format("missing required field {} ({})", spec(f).key, why));
}

}  // namespace

Inputs resolve(const Scenario& s) {
  Inputs in;
  require(s, Field::BatchSize, "samples per batch");
  require(s, Field::Workers, "data-loading workers per accelerator; 0 for none");
  require(s, Field::SampleSize, "bytes read and transformed per sample");
  in.batch = s.get(Field::BatchSize);
  in.workers = s.get(Field::Workers);
  in.accelerators = s.opt(Field::AcceleratorCount).value_or(1);
  in.sample_bytes = s.get(Field::SampleSize);
  in.dataset_samples = s.opt(Field::DatasetSamples);

  // CPU transform
  {
    int given = 0;
    Field last = Field::WorkerThroughput;
    for (Field f : {Field::WorkerThroughput, Field::WorkerSampleRate, Field::TransformCost})
      if (s.has(f)) {
        ++given;
        last = f;
      }
    if (given > 1)
      throw FieldError(last, "set one of cpu.worker_throughput, cpu.worker_sample_rate and "
                             "workload.transform_cost, not several: each says how fast a worker transforms");
  }
  if (s.has(Field::WorkerThroughput)) {
    in.transform = true;
    in.worker_seconds_per_sample = in.sample_bytes / s.get(Field::WorkerThroughput);
  } else if (s.has(Field::WorkerSampleRate)) {
    in.transform = true;
    in.worker_seconds_per_sample = 1.0 / s.get(Field::WorkerSampleRate);
  } else if (s.has(Field::TransformCost)) {
    in.transform = true;
    in.worker_seconds_per_sample = s.get(Field::TransformCost);
  }
  if (s.has(Field::Cores)) in.cores_per_accelerator = s.get(Field::Cores) / in.accelerators;

  // storage
  if (s.has(Field::ReadBandwidth)) {
    in.storage = true;
    in.storage_shared_by = s.opt(Field::StorageSharedBy).value_or(in.accelerators);
    in.storage_bandwidth = s.get(Field::ReadBandwidth) / in.storage_shared_by;
    if (s.has(Field::Iops)) in.storage_iops = s.get(Field::Iops) / in.storage_shared_by;
    in.request_bytes = s.opt(Field::RequestSize).value_or(in.sample_bytes);
    in.cache_hit = s.opt(Field::CacheHit).value_or(0);
    if (s.has(Field::Latency) != s.has(Field::QueueDepth))
      throw FieldError(s.has(Field::Latency) ? Field::Latency : Field::QueueDepth,
                       "storage.latency and storage.queue_depth go together: set both or neither");
    if (s.has(Field::Latency)) {
      in.storage_latency = s.get(Field::Latency);
      in.queue_depth = s.get(Field::QueueDepth);
    }
  } else {
    for (Field f : {Field::Iops, Field::RequestSize, Field::Latency, Field::QueueDepth,
                    Field::CacheHit, Field::StorageSharedBy})
      if (s.has(f))
        throw FieldError(f, fmt::format("{} is set but storage.read_bandwidth is not: set the "
                                        "bandwidth to model storage",
                                        spec(f).key));
  }

  // host -> device transfer
  if (s.has(Field::LinkBandwidth)) {
    if (!s.has(Field::DeviceSampleSize))
      throw FieldError(Field::LinkBandwidth,
                       "link.bandwidth is set but workload.device_sample_size is not: say how many "
                       "bytes per sample reach the accelerator (e.g. \"602 KB\" for 224x224x3 fp32)");
    in.transfer = true;
    in.link_shared_by = s.opt(Field::LinkSharedBy).value_or(1);
    in.link_bandwidth = s.get(Field::LinkBandwidth) / in.link_shared_by;
    in.device_bytes = s.get(Field::DeviceSampleSize);
    in.pinned = s.opt(Field::LinkPinned).value_or(1) != 0;
  } else {
    for (Field f : {Field::LinkPinned, Field::LinkSharedBy})
      if (s.has(f))
        throw FieldError(f, fmt::format("{} is set but link.bandwidth is not: set the bandwidth "
                                        "to model the transfer",
                                        spec(f).key));
  }

  // accelerator compute
  if (s.has(Field::MeasuredPerSample)) {
    in.measured = true;
    in.compute_overhead = s.opt(Field::MeasuredOverhead).value_or(0);
    in.compute_per_sample = s.get(Field::MeasuredPerSample);
  } else {
    if (s.has(Field::MeasuredOverhead))
      throw FieldError(Field::MeasuredOverhead,
                       "model.measured_overhead is set but model.measured_per_sample is not");
    const std::string missing =
        missing_list(s, {Field::PeakFlops, Field::FlopsPerSample, Field::Efficiency});
    if (!missing.empty()) {
      const Field first = !s.has(Field::PeakFlops)        ? Field::PeakFlops
                          : !s.has(Field::FlopsPerSample) ? Field::FlopsPerSample
                                                          : Field::Efficiency;
      throw FieldError(first, fmt::format("the accelerator compute stage needs "
                                          "accelerator.peak_flops, model.flops_per_sample and "
                                          "accelerator.efficiency, or model.measured_per_sample; "
                                          "missing: {}",
                                          missing));
    }
    const double passes = s.opt(Field::Passes).value_or(1);
    const double layers = s.opt(Field::Layers).value_or(0);
    const double per_layer = s.opt(Field::LayerOverhead).value_or(0);
    in.compute_overhead = s.opt(Field::DispatchOverhead).value_or(0) +
                          layers * per_layer * (passes > 1 ? 3.0 : 1.0);
    in.compute_per_sample = s.get(Field::FlopsPerSample) * passes /
                            (s.get(Field::PeakFlops) * s.get(Field::Efficiency));
    if (s.has(Field::MemoryBandwidth) && s.has(Field::Parameters)) {
      in.weight_seconds = s.get(Field::Parameters) * s.opt(Field::BytesPerParameter).value_or(2) /
                          s.get(Field::MemoryBandwidth);
    }
  }
  // cost
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

std::string_view stage_key(Stage s) {
  switch (s) {
    case Stage::Storage: return "storage";
    case Stage::Transform: return "transform";
    case Stage::Transfer: return "transfer";
    case Stage::Compute: return "compute";
  }
  return "";
}

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::Storage: return "storage fetch";
    case Stage::Transform: return "CPU transform";
    case Stage::Transfer: return "host-to-device transfer";
    case Stage::Compute: return "accelerator compute";
  }
  return "";
}

double compute_time(const Inputs& in, double batch) {
  const double flop_term = batch * in.compute_per_sample;
  const double memory_term = in.weight_seconds * (1 + 0.1 * batch);
  return in.compute_overhead + std::max(flop_term, memory_term);
}

namespace {
double effective_workers(const Inputs& in) {
  // With W = 0 the main process transforms, on one core.
  const double w = std::max(in.workers, 1.0);
  return in.cores_per_accelerator ? std::min(w, *in.cores_per_accelerator) : w;
}
}  // namespace

double transform_time(const Inputs& in, double batch) {
  return batch * in.worker_seconds_per_sample / effective_workers(in);
}

double storage_time(const Inputs& in, double batch, StorageLimit* limit) {
  const double bytes = batch * in.sample_bytes * (1 - in.cache_hit);
  double t = bytes / in.storage_bandwidth;
  StorageLimit which = StorageLimit::Bandwidth;
  if (in.storage_iops) {
    const double t_iops = bytes / in.request_bytes / *in.storage_iops;
    if (t_iops > t) {
      t = t_iops;
      which = StorageLimit::Iops;
    }
  }
  if (in.storage_latency) {
    // Little's law: queue_depth requests of request_bytes in flight per latency.
    const double t_lat = bytes * *in.storage_latency / (in.queue_depth * in.request_bytes);
    if (t_lat > t) {
      t = t_lat;
      which = StorageLimit::Latency;
    }
  }
  if (limit) *limit = which;
  return t;
}

double transfer_time(const Inputs& in, double batch) {
  return batch * in.device_bytes / in.link_bandwidth;
}

Result evaluate(const Inputs& in) {
  Result r;
  const double B = in.batch;
  auto& storage = r.stages[static_cast<std::size_t>(Stage::Storage)];
  auto& transform = r.stages[static_cast<std::size_t>(Stage::Transform)];
  auto& transfer = r.stages[static_cast<std::size_t>(Stage::Transfer)];
  auto& compute = r.stages[static_cast<std::size_t>(Stage::Compute)];
  if (in.storage) storage = {true, storage_time(in, B, &r.storage_limit)};
  if (in.transform) transform = {true, transform_time(in, B)};
  if (in.transfer) transfer = {true, transfer_time(in, B)};
  compute = {true, compute_time(in, B)};
  r.memory_bound = in.weight_seconds * (1 + 0.1 * B) > B * in.compute_per_sample;
  r.effective_workers = in.transform ? effective_workers(in) : 0;
  r.serial = in.workers == 0;
  r.transfer_serialised = in.transfer && !in.pinned && !r.serial;

  double largest = 0;
  if (r.serial) {
    for (const auto& st : r.stages) {
      if (!st.modelled) continue;
      r.step_s += st.time_s;
      largest = std::max(largest, st.time_s);
    }
    for (Stage s : kStages)
      if (r.stage(s).modelled && r.stage(s).time_s >= largest * (1 - kCoBinding))
        r.binding |= 1u << static_cast<unsigned>(s);
  } else {
    const double device_side = compute.time_s + (r.transfer_serialised ? transfer.time_s : 0);
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
      // A serialised transfer binds when the copy-then-compute chain sets the step.
      if (s == Stage::Transfer && r.transfer_serialised) binds = device_side >= cut;
      if (binds) r.binding |= 1u << static_cast<unsigned>(s);
    }
  }
  r.utilization = compute.time_s / r.step_s;
  r.slowdown = r.step_s / compute.time_s;
  r.throughput = in.accelerators * B / r.step_s;
  r.data_demand = B * in.sample_bytes / compute.time_s;
  if (in.dataset_samples) r.epoch_s = *in.dataset_samples / r.throughput;
  if (in.price_per_second) {
    r.price_per_hour = *in.price_per_second * 3600;
    r.samples_per_usd = r.throughput / *in.price_per_second;
    if (r.epoch_s) {
      r.cost_per_epoch = *r.epoch_s * *in.price_per_second;
      r.idle_cost_per_epoch = *r.cost_per_epoch * (1 - r.utilization);
    }
  }
  return r;
}

}  // namespace pipesim
