#include "core/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <fmt/format.h>

namespace pipesim {

namespace {

void require(const Scenario& s, Field f, std::string_view why) {
  if (!s.has(f))
    throw FieldError(f, fmt::format("missing required field {} ({})", spec(f).key, why));
}

void forbid_without(const Scenario& s, std::initializer_list<Field> fields, std::string_view needed,
                    std::string_view what) {
  for (Field f : fields)
    if (s.has(f))
      throw FieldError(f, fmt::format("{} is set but {} is not: set {} to model {}", spec(f).key, needed,
                                      needed, what));
}

// Bytes per sample on the device after a CPU transform, when the scenario says.
std::optional<double> device_sample_bytes(const Scenario& s) {
  if (s.has(Field::DeviceShape) && !s.has(Field::DeviceDtype))
    throw FieldError(Field::DeviceShape, "workload.device_shape needs workload.device_dtype (uint8, fp16, "
                                         "fp32, ...): the element type sets the bytes per sample");
  if (s.has(Field::DeviceSampleSize)) return s.get(Field::DeviceSampleSize);
  if (s.has(Field::DeviceShape))
    return s.get(Field::DeviceShape) * dtype_bytes(static_cast<Dtype>(s.get(Field::DeviceDtype)));
  return std::nullopt;
}

void resolve_transform(const Scenario& s, Inputs& in) {
  double cpu_seconds = 0;
  bool cpu_rate = true;
  if (s.has(Field::WorkerThroughput)) cpu_seconds = in.sample_bytes / s.get(Field::WorkerThroughput);
  else if (s.has(Field::WorkerSampleRate)) cpu_seconds = 1.0 / s.get(Field::WorkerSampleRate);
  else if (s.has(Field::TransformCost)) cpu_seconds = s.get(Field::TransformCost);
  else cpu_rate = false;

  in.transform_at = static_cast<TransformAt>(s.opt(Field::TransformDevice).value_or(0));
  switch (in.transform_at) {
    case TransformAt::Cpu:
      in.cpu_work = cpu_rate;
      in.worker_seconds_per_sample = cpu_seconds;
      break;
    case TransformAt::Gpu:
      if (!s.has(Field::GpuTime))
        throw FieldError(Field::TransformDevice,
                         "transform.device = \"gpu\" needs transform.gpu_time, the accelerator time to decode "
                         "one sample (DALI/nvJPEG)");
      in.gpu_decode_per_sample = s.get(Field::GpuTime);
      break;
    case TransformAt::Decoder:
      if (!s.has(Field::DecoderRate))
        throw FieldError(Field::TransformDevice,
                         "transform.device = \"decoder\" needs accelerator.decoder_rate, the samples/s of the "
                         "accelerator's hardware decoder");
      in.decoder_seconds_per_sample = 1.0 / s.get(Field::DecoderRate);
      break;
  }
  if (in.transform_at != TransformAt::Cpu && s.has(Field::HostCost)) {
    in.cpu_work = true;
    in.worker_seconds_per_sample = s.get(Field::HostCost);
  }
  in.transform = in.cpu_work || in.decoder_seconds_per_sample > 0;

  in.reserved_cores = s.opt(Field::ReservedCores).value_or(in.accelerators);
  if (s.has(Field::Cores)) {
    in.node_cores = s.get(Field::Cores);
    const double available = *in.node_cores - in.reserved_cores;
    if (available > 0) {
      in.cores_per_accelerator = available / in.accelerators;
    } else if (in.cpu_work && in.workers >= 1) {
      throw FieldError(s.has(Field::ReservedCores) ? Field::ReservedCores : Field::Cores,
                       fmt::format("cpu.cores = {} leaves no core for workers after cpu.reserved_cores = {} "
                                   "({}): lower the reservation or add cores",
                                   format_compact(*in.node_cores, Dim::Number),
                                   format_compact(in.reserved_cores, Dim::Number),
                                   s.has(Field::ReservedCores) ? "as set" : "one per training process"));
    }
  }
}

void resolve_storage(const Scenario& s, Inputs& in) {
  if (s.has(Field::ThroughputPerTib) != s.has(Field::StorageCapacity))
    throw FieldError(s.has(Field::ThroughputPerTib) ? Field::ThroughputPerTib : Field::StorageCapacity,
                     "storage.throughput_per_tib and storage.capacity go together: the read bandwidth is "
                     "their product (e.g. 1000 MB/s per TiB x 12 TiB = 12.58 GB/s)");
  if (s.has(Field::ThroughputPerTib) && s.has(Field::ReadBandwidth))
    throw FieldError(Field::ThroughputPerTib,
                     "set storage.read_bandwidth or storage.throughput_per_tib with storage.capacity, not both");
  if (!s.has(Field::ReadBandwidth) && !s.has(Field::NodeStorageBandwidth) && !s.has(Field::ThroughputPerTib)) {
    forbid_without(s,
                   {Field::Iops, Field::RequestSize, Field::Latency, Field::QueueDepth, Field::CacheHit,
                    Field::StorageSharedBy, Field::StorageScope, Field::StreamBandwidth},
                   "storage.read_bandwidth", "storage");
    return;
  }
  in.storage = true;
  in.scope = static_cast<StorageScope>(s.opt(Field::StorageScope).value_or(0));
  const double sharing = in.scope == StorageScope::Cluster ? in.accelerators * in.nodes : in.accelerators;
  in.storage_shared_by = s.opt(Field::StorageSharedBy).value_or(sharing);
  if (s.has(Field::ReadBandwidth)) in.read_bandwidth = s.get(Field::ReadBandwidth);
  if (s.has(Field::ThroughputPerTib))
    in.read_bandwidth = s.get(Field::ThroughputPerTib) * s.get(Field::StorageCapacity) / kTiB;
  in.storage_bandwidth = in.read_bandwidth ? *in.read_bandwidth / in.storage_shared_by
                                           : std::numeric_limits<double>::infinity();
  if (s.has(Field::NodeStorageBandwidth)) {
    in.node_cap = s.get(Field::NodeStorageBandwidth);
    in.node_cap_kind = BandwidthCap::NodeClient;
  }
  if (in.scope == StorageScope::Cluster && s.has(Field::NetworkBandwidth) &&
      (!in.node_cap || s.get(Field::NetworkBandwidth) < *in.node_cap)) {
    in.node_cap = s.get(Field::NetworkBandwidth);
    in.node_cap_kind = BandwidthCap::NodeNetwork;
  }
  if (in.node_cap && *in.node_cap / in.accelerators < in.storage_bandwidth) {
    in.storage_bandwidth = *in.node_cap / in.accelerators;
    in.bandwidth_cap = in.node_cap_kind;
  }
  if (s.has(Field::Iops)) {
    in.iops_total = s.get(Field::Iops);
    in.storage_iops = *in.iops_total / in.storage_shared_by;
  }
  in.request_bytes = s.opt(Field::RequestSize).value_or(in.sample_bytes);
  // Little's law: each accelerator keeps queue_depth requests in flight; one takes the latency
  // to its first byte, then streams at stream_bandwidth. A DataLoader worker reads one
  // sample at a time, so by default there are as many requests in flight as workers.
  if (s.has(Field::QueueDepth) && !s.has(Field::Latency) && !s.has(Field::StreamBandwidth))
    throw FieldError(Field::QueueDepth,
                     "storage.queue_depth is set but storage.latency is not: the outstanding requests limit "
                     "throughput only through the latency of each");
  if (s.has(Field::Latency) || s.has(Field::StreamBandwidth)) {
    in.storage_latency = s.opt(Field::Latency).value_or(0);
    in.queue_depth = s.opt(Field::QueueDepth).value_or(std::max(1.0, in.workers));
    in.stream_bandwidth = s.opt(Field::StreamBandwidth);
  }
  // Page cache: a given hit ratio holds for every epoch; otherwise, with the RAM for caching
  // and the dataset's size, the first epoch reads everything (cold) and later epochs find
  // page_cache / dataset of it cached (random order, uniform access).
  const std::optional<double> cache = s.has(Field::PageCache) ? s.opt(Field::PageCache) : s.opt(Field::NodeMemory);
  if (s.has(Field::CacheHit)) {
    in.cache_hit = s.get(Field::CacheHit);
  } else if (cache && in.dataset_bytes > 0) {
    in.cache_from_page_cache = true;
    in.page_cache_bytes = *cache;
    in.cache_hit = std::min(1.0, *cache / in.dataset_bytes);
    if (in.cache_hit > 0) in.cold_cache_hit = 0;
  }
}

void resolve_transfer(const Scenario& s, Inputs& in, std::optional<double> device_bytes) {
  if (!s.has(Field::LinkBandwidth)) {
    forbid_without(s, {Field::LinkPinned, Field::LinkSharedBy, Field::PageableBandwidth}, "link.bandwidth",
                   "the transfer");
    return;
  }
  if (in.transform_at != TransformAt::Cpu) {
    in.device_bytes = in.sample_bytes;  // encoded samples cross the link; the accelerator decodes
  } else if (device_bytes) {
    in.device_bytes = *device_bytes;
  } else if (!in.cpu_work) {
    in.device_bytes = in.sample_bytes;  // nothing transforms the samples: what is read is copied
  } else {
    throw FieldError(Field::LinkBandwidth,
                     "link.bandwidth is set but the bytes per sample on the device are not: set "
                     "workload.device_sample_size, or workload.device_shape and workload.device_dtype "
                     "(e.g. \"3x224x224\" and \"uint8\")");
  }
  in.transfer = true;
  in.link_shared_by = s.opt(Field::LinkSharedBy).value_or(1);
  in.pinned_link_bandwidth = s.get(Field::LinkBandwidth);
  in.pinned = s.opt(Field::LinkPinned).value_or(1) != 0;
  // Pageable copies stage through a bounce buffer: about 0.4x pinned (DGX A100: 10.0 vs 25.7 GB/s).
  const double pageable = s.opt(Field::PageableBandwidth).value_or(0.4 * in.pinned_link_bandwidth);
  in.link_bandwidth = (in.pinned ? in.pinned_link_bandwidth : pageable) / in.link_shared_by;
}

void resolve_compute(const Scenario& s, Inputs& in) {
  const std::optional<Precision> precision =
      s.has(Field::Precision) ? std::optional(static_cast<Precision>(s.get(Field::Precision))) : std::nullopt;
  const bool training = s.has(Field::Training) ? s.get(Field::Training) != 0 : s.opt(Field::Passes).value_or(1) > 1;
  in.passes = s.opt(Field::Passes).value_or(training ? 3 : 1);
  in.training = training;
  const double bytes_per_parameter =
      s.opt(Field::BytesPerParameter).value_or(precision ? precision_bytes(*precision) : 2);

  if (s.has(Field::MeasuredPerSample)) {
    in.measured = true;
    in.compute_overhead = s.opt(Field::MeasuredOverhead).value_or(0);
    in.compute_per_sample = s.get(Field::MeasuredPerSample);
    if (in.compute_overhead + in.compute_per_sample <= 0)
      throw FieldError(Field::MeasuredPerSample,
                       "model.measured_per_sample and model.measured_overhead are both zero: a step takes time");
  } else {
    if (s.has(Field::MeasuredOverhead))
      throw FieldError(Field::MeasuredOverhead,
                       "model.measured_overhead is set but model.measured_per_sample is not");
    std::optional<double> peak = s.opt(Field::PeakFlops);
    if (!peak && precision) {
      const Field f = peak_field(*precision);
      if (!s.has(f))
        throw FieldError(Field::Precision,
                         fmt::format("model.precision is {} but the accelerator gives no {}: set it, or "
                                     "accelerator.peak_flops",
                                     choice_name(spec(Field::Precision), static_cast<double>(*precision)),
                                     spec(f).key));
      peak = s.get(f);
    }
    std::string missing;
    Field first = Field::PeakFlops;
    const auto need = [&](bool ok, Field f, std::string_view name) {
      if (ok) return;
      if (missing.empty()) first = f;
      missing += fmt::format("{}{}", missing.empty() ? "" : ", ", name);
    };
    need(peak.has_value(), precision ? Field::Precision : Field::PeakFlops,
         "accelerator.peak_flops (or model.precision with the accelerator's per-precision peaks)");
    need(s.has(Field::FlopsPerSample), Field::FlopsPerSample, "model.flops_per_sample");
    need(s.has(Field::Efficiency), Field::Efficiency, "accelerator.efficiency");
    if (!missing.empty())
      throw FieldError(first, fmt::format("the accelerator compute stage needs "
                                          "accelerator.peak_flops, model.flops_per_sample and "
                                          "accelerator.efficiency, or model.measured_per_sample; "
                                          "missing: {}",
                                          missing));
    const double layers = s.opt(Field::Layers).value_or(0);
    const double per_layer = s.opt(Field::LayerOverhead).value_or(0);
    in.compute_overhead = s.opt(Field::DispatchOverhead).value_or(0) +
                          layers * per_layer * (in.passes > 1 ? 3.0 : 1.0);
    in.compute_per_sample = s.get(Field::FlopsPerSample) * in.passes / (*peak * s.get(Field::Efficiency));
    if (s.has(Field::MemoryBandwidth) && s.has(Field::Parameters))
      in.weight_seconds = s.get(Field::Parameters) * bytes_per_parameter / s.get(Field::MemoryBandwidth);
  }

  if (s.has(Field::AcceleratorMemory) && s.has(Field::Parameters)) {
    in.memory_capacity = s.get(Field::AcceleratorMemory);
    // Mixed-precision Adam holds 16 bytes per parameter: fp16 weights and gradients (2 + 2),
    // fp32 master weights, momentum and variance (4 + 4 + 4) (Rajbhandari et al., ZeRO, 2020).
    const double per_parameter =
        training ? s.opt(Field::StateBytesPerParameter).value_or(16) : bytes_per_parameter;
    in.memory_static = s.get(Field::Parameters) * per_parameter;
    in.activation_bytes = s.opt(Field::ActivationBytes);
  }
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
  in.nodes = s.opt(Field::Nodes).value_or(1);
  in.sample_bytes = s.get(Field::SampleSize);
  in.dataset_samples = s.opt(Field::DatasetSamples);
  in.target_utilization = s.opt(Field::TargetUtilization).value_or(0.9);
  if (s.has(Field::DatasetSize)) in.dataset_bytes = s.get(Field::DatasetSize);
  else if (in.dataset_samples) in.dataset_bytes = *in.dataset_samples * in.sample_bytes;

  const std::optional<double> device_bytes = device_sample_bytes(s);
  resolve_transform(s, in);
  resolve_storage(s, in);
  resolve_transfer(s, in, device_bytes);
  resolve_compute(s, in);

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

std::string_view stage_name(Stage s, TransformAt at) {
  if (s != Stage::Transform) return stage_name(s);
  switch (at) {
    case TransformAt::Cpu: return "CPU transform";
    case TransformAt::Gpu: return "CPU work (GPU decode)";
    case TransformAt::Decoder: return "hardware decode";
  }
  return stage_name(s);
}

bool Result::compute_bound() const {
  return stage(Stage::Compute).time_s >= step_s * (1 - kCoBinding);
}

double model_compute_time(const Inputs& in, double batch) {
  const double flop_term = batch * in.compute_per_sample;
  const double memory_term = in.weight_seconds * (1 + 0.1 * batch);
  return in.compute_overhead + std::max(flop_term, memory_term);
}

double compute_time(const Inputs& in, double batch) {
  return model_compute_time(in, batch) + batch * in.gpu_decode_per_sample;
}

namespace {
double effective_workers(const Inputs& in) {
  // With W = 0 the main process transforms, on its own (reserved) core.
  if (in.workers < 1) return 1;
  return in.cores_per_accelerator ? std::min(in.workers, *in.cores_per_accelerator) : in.workers;
}
}  // namespace

double transform_time(const Inputs& in, double batch, TransformLimit* limit) {
  // CPU workers and a hardware decoder work in a pipeline: the slower sets the pace.
  const double cpu = in.cpu_work ? batch * in.worker_seconds_per_sample / effective_workers(in) : 0;
  const double decoder = batch * in.decoder_seconds_per_sample;
  if (limit) *limit = decoder > cpu ? TransformLimit::Decoder : TransformLimit::Workers;
  return std::max(cpu, decoder);
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
    const double t_lat = bytes * request_service_time(in) / (in.queue_depth * in.request_bytes);
    if (t_lat > t) {
      t = t_lat;
      which = StorageLimit::Latency;
    }
  }
  if (limit) *limit = which;
  return t;
}

double request_service_time(const Inputs& in) {
  return in.storage_latency.value_or(0) + (in.stream_bandwidth ? in.request_bytes / *in.stream_bandwidth : 0);
}

double transfer_time(const Inputs& in, double batch) {
  return batch * in.device_bytes / in.link_bandwidth;
}

double memory_needed(const Inputs& in, double batch) {
  return in.memory_static + batch * in.activation_bytes.value_or(0);
}

std::optional<double> max_batch_that_fits(const Inputs& in) {
  if (!in.memory_capacity) return std::nullopt;
  if (in.memory_static > *in.memory_capacity) return 0.0;
  if (!in.activation_bytes) return std::nullopt;
  return std::floor((*in.memory_capacity - in.memory_static) / *in.activation_bytes);
}

Result evaluate(const Inputs& in) {
  Result r;
  const double B = in.batch;
  auto& storage = r.stages[static_cast<std::size_t>(Stage::Storage)];
  auto& transform = r.stages[static_cast<std::size_t>(Stage::Transform)];
  auto& transfer = r.stages[static_cast<std::size_t>(Stage::Transfer)];
  auto& compute = r.stages[static_cast<std::size_t>(Stage::Compute)];
  if (in.storage) storage = {true, storage_time(in, B, &r.storage_limit)};
  if (in.transform) transform = {true, transform_time(in, B, &r.transform_limit)};
  if (in.transfer) transfer = {true, transfer_time(in, B)};
  compute = {true, compute_time(in, B)};
  r.model_compute_s = model_compute_time(in, B);
  r.memory_bound = in.weight_seconds * (1 + 0.1 * B) > B * in.compute_per_sample;
  r.effective_workers = in.cpu_work ? effective_workers(in) : 0;
  r.serial = in.workers == 0;
  r.transfer_serialised = in.transfer && !in.pinned && !r.serial;
  r.cache_hit = in.cache_hit;
  r.transform_at = in.transform_at;

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
  r.utilization = r.model_compute_s / r.step_s;
  r.slowdown = r.step_s / r.model_compute_s;
  r.throughput_per_accelerator = B / r.step_s;
  r.throughput_per_node = in.accelerators * r.throughput_per_accelerator;
  r.throughput = in.nodes * r.throughput_per_node;
  r.data_demand = B * in.sample_bytes / compute.time_s;
  if (in.memory_capacity) {
    r.memory_needed = memory_needed(in, B);
    r.fits = *r.memory_needed <= *in.memory_capacity;
  }
  if (in.dataset_samples) r.epoch_s = *in.dataset_samples / r.throughput;
  if (in.price_per_second) {
    const double cluster_per_second = *in.price_per_second * in.nodes;
    r.price_per_hour = cluster_per_second * 3600;
    r.samples_per_usd = r.throughput / cluster_per_second;
    if (r.epoch_s) {
      r.cost_per_epoch = *r.epoch_s * cluster_per_second;
      r.idle_cost_per_epoch = *r.cost_per_epoch * (1 - r.utilization);
    }
  }
  if (in.cold_cache_hit) {
    Inputs first = in;
    first.cache_hit = *in.cold_cache_hit;
    first.cold_cache_hit.reset();
    const Result c = evaluate(first);
    r.cold = ColdEpoch{first.cache_hit, c.stage(Stage::Storage).time_s, c.step_s, c.utilization,
                       c.throughput, c.binding, c.epoch_s};
  }
  return r;
}

}  // namespace pipesim
