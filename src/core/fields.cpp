#include "core/fields.hpp"

#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "core/error.hpp"
#include "core/text.hpp"

namespace pipesim {

namespace {

constexpr DimSet kNum = dims(Dim::Number);
constexpr DimSet kSize = dims(Dim::Size);
constexpr DimSet kRate = dims(Dim::Rate);
constexpr DimSet kTime = dims(Dim::Duration);
constexpr DimSet kBool = dims(Dim::Bool);

using C = Constraint;

// Order here is the order of the README reference and of JSON "inputs".
constexpr std::array<FieldSpec, kFieldCount> kFields = {{
    {Field::BatchSize, "pipeline.batch_size", kNum, C::Positive, true, "",
     "samples per batch on one accelerator (B)"},
    {Field::Workers, "pipeline.workers", kNum, C::NonNegative, true, "",
     "data-loading worker processes per accelerator (W); 0 = main process does everything in turn"},
    {Field::AcceleratorCount, "accelerator.count", kNum, C::Positive, true, "1",
     "accelerators (data-parallel replicas) on the node"},
    {Field::PeakFlops, "accelerator.peak_flops", dims(Dim::FlopRate), C::Positive, false, "",
     "peak dense FLOP rate at the training precision"},
    {Field::MemoryBandwidth, "accelerator.memory_bandwidth", kRate, C::Positive, false, "",
     "accelerator memory bandwidth (weight-streaming term; omit to ignore it)"},
    {Field::Efficiency, "accelerator.efficiency", kNum, C::UnitInterval, false, "",
     "fraction of peak FLOPS reached (0 < x <= 1; \"50%\" accepted)"},
    {Field::DispatchOverhead, "accelerator.dispatch_overhead", kTime, C::NonNegative, false, "0 s",
     "fixed launch/dispatch time per step"},
    {Field::LayerOverhead, "accelerator.layer_overhead", kTime, C::NonNegative, false, "0 s",
     "time per layer per pass-kind (x3 when training)"},
    {Field::FlopsPerSample, "model.flops_per_sample", dims(Dim::Flop), C::Positive, false, "",
     "forward FLOPs per sample"},
    {Field::Parameters, "model.parameters", kNum, C::Positive, false, "",
     "parameter count (weight-streaming term)"},
    {Field::BytesPerParameter, "model.bytes_per_parameter", kNum, C::Positive, false, "2",
     "bytes per parameter (2 for fp16/bf16, 4 for fp32)"},
    {Field::Layers, "model.layers", kNum, C::NonNegative, true, "0", "layer count"},
    {Field::Passes, "model.passes", kNum, C::Positive, true, "1",
     "passes per sample: 1 forward only, 3 training, 4 training with recomputation"},
    {Field::MeasuredOverhead, "model.measured_overhead", kTime, C::NonNegative, false, "0 s",
     "measured fixed time per step (measured form: overhead + B x per_sample)"},
    {Field::MeasuredPerSample, "model.measured_per_sample", kTime, C::Positive, false, "",
     "measured accelerator time per sample; when set, replaces the roofline form"},
    {Field::SampleSize, "workload.sample_size", kSize, C::Positive, false, "",
     "bytes read from storage and transformed per sample"},
    {Field::DeviceSampleSize, "workload.device_sample_size", kSize, C::Positive, false, "",
     "bytes per sample copied to the accelerator (needed when link.bandwidth is set)"},
    {Field::TransformCost, "workload.transform_cost", kTime, C::Positive, false, "",
     "CPU time one worker spends per sample (alternative to cpu.worker_throughput)"},
    {Field::DatasetSamples, "workload.dataset_samples", kNum, C::Positive, true, "",
     "samples per epoch (enables epoch time)"},
    {Field::WorkerThroughput, "cpu.worker_throughput", kRate, C::Positive, false, "",
     "bytes/s of workload.sample_size one worker transforms"},
    {Field::WorkerSampleRate, "cpu.worker_sample_rate", dims(Dim::SampleRate), C::Positive, false, "",
     "samples/s one worker transforms (alternative to cpu.worker_throughput)"},
    {Field::Cores, "cpu.cores", kNum, C::Positive, false, "",
     "CPU cores on the node, shared by its accelerators (omit for no limit)"},
    {Field::ReadBandwidth, "storage.read_bandwidth", kRate, C::Positive, false, "",
     "storage read bandwidth (omit: storage not modelled)"},
    {Field::Iops, "storage.iops", kNum, C::Positive, false, "",
     "storage read requests per second (omit for no IOPS limit)"},
    {Field::RequestSize, "storage.request_size", kSize, C::Positive, false, "workload.sample_size",
     "bytes per read request"},
    {Field::Latency, "storage.latency", kTime, C::Positive, false, "",
     "latency of one request (with storage.queue_depth: Little's law limit)"},
    {Field::QueueDepth, "storage.queue_depth", kNum, C::Positive, false, "",
     "outstanding requests per accelerator (with storage.latency)"},
    {Field::CacheHit, "storage.cache_hit", kNum, C::HitRatio, false, "0",
     "fraction of reads served from page cache (0 <= x < 1)"},
    {Field::StorageSharedBy, "storage.shared_by", kNum, C::Positive, true, "accelerator.count",
     "accelerators sharing the storage bandwidth"},
    {Field::LinkBandwidth, "link.bandwidth", kRate, C::Positive, false, "",
     "host-to-device bandwidth (omit: transfer not modelled)"},
    {Field::LinkPinned, "link.pinned", kBool, C::None, false, "true",
     "pinned memory, non-blocking copy; false serialises the transfer with compute"},
    {Field::LinkSharedBy, "link.shared_by", kNum, C::Positive, true, "1",
     "accelerators sharing one host link"},
    {Field::PricePerHour, "cost.price_per_hour", Dim::MoneyRate | Dim::Number, C::Positive, false, "",
     "price of the node per hour (\"$32.77/h\", or a number of USD per hour)"},
    {Field::PurchasePrice, "cost.purchase_price", Dim::Money | Dim::Number, C::Positive, false, "",
     "purchase price of the node (\"$250000\" or USD), spread over cost.amortization"},
    {Field::Amortization, "cost.amortization", kTime, C::Positive, false, "",
     "period the purchase price is spread over (\"3 years\")"},
}};

}  // namespace

std::span<const FieldSpec> all_fields() { return kFields; }

std::span<const Field> alternatives(Field f) {
  static constexpr std::array kTransformRate = {Field::WorkerThroughput, Field::WorkerSampleRate,
                                                Field::TransformCost};
  static constexpr std::array kPrice = {Field::PricePerHour, Field::PurchasePrice};
  for (Field g : kTransformRate)
    if (g == f) return kTransformRate;
  for (Field g : kPrice)
    if (g == f) return kPrice;
  return {};
}

const FieldSpec& spec(Field f) { return kFields[static_cast<std::size_t>(f)]; }

const FieldSpec* find_field(std::string_view key) {
  for (const auto& s : kFields)
    if (s.key == key) return &s;
  return nullptr;
}

std::string suggest_field(std::string_view key) {
  std::vector<std::string_view> keys;
  for (const auto& s : kFields) {
    keys.push_back(s.key);
    // "batch_size" alone suggests "pipeline.batch_size".
    const auto dot = s.key.find('.');
    if (s.key.substr(dot + 1) == key) return std::string(s.key);
  }
  std::string near = closest(key, keys);
  if (!near.empty()) return near;
  // "storage.bandwith": a misspelt name in a known section.
  const auto dot = key.find('.');
  if (dot == std::string_view::npos) return {};
  // Compare with each name and with its last word ("bandwidth" of "read_bandwidth").
  std::vector<std::string_view> names;
  std::vector<std::string_view> owners;
  for (const auto& s : kFields) {
    if (s.key.substr(0, s.key.find('.')) != key.substr(0, dot)) continue;
    const std::string_view name = s.key.substr(s.key.find('.') + 1);
    names.push_back(name);
    owners.push_back(s.key);
    if (const auto us = name.rfind('_'); us != std::string_view::npos) {
      names.push_back(name.substr(us + 1));
      owners.push_back(s.key);
    }
  }
  near = closest(key.substr(dot + 1), names);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == near) return std::string(owners[i]);
  return {};
}

void check_value(const FieldSpec& s, const Quantity& q) {
  if (!has(s.accepts, q.dim)) {
    throw Error(fmt::format("{}: expected {}, got {}", s.key, describe_dims(s.accepts),
                            dim_name(q.dim)));
  }
  if (s.constraint == Constraint::None) return;
  const double v = q.value;
  const auto shown = format_compact(v, q.dim);
  switch (s.constraint) {
    case Constraint::Positive:
      if (!(v > 0)) throw Error(fmt::format("{} must be greater than zero, got {}", s.key, shown));
      break;
    case Constraint::NonNegative:
      if (!(v >= 0)) throw Error(fmt::format("{} must not be negative, got {}", s.key, shown));
      break;
    case Constraint::UnitInterval:
      if (!(v > 0 && v <= 1))
        throw Error(fmt::format("{} must be in (0, 1], got {}", s.key, shown));
      break;
    case Constraint::HitRatio:
      if (!(v >= 0 && v < 1))
        throw Error(fmt::format("{} must be in [0, 1), got {}", s.key, shown));
      break;
    case Constraint::None: break;
  }
  if (s.integer) {
    if (v != std::floor(v)) throw Error(fmt::format("{} must be a whole number, got {}", s.key, shown));
    if (v > 1e15) throw Error(fmt::format("{} is too large (at most 1e15), got {}", s.key, shown));
  }
}

Quantity parse_field_value(const FieldSpec& s, std::string_view text) {
  Quantity q;
  if (s.accepts == dims(Dim::Bool)) {
    if (text == "true") q = {1, Dim::Bool};
    else if (text == "false") q = {0, Dim::Bool};
    else throw Error(fmt::format("{}: expected true or false, got \"{}\"", s.key, text));
  } else {
    try {
      q = parse_quantity_as(text, s.accepts);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", s.key, e.what()));
    }
  }
  check_value(s, q);
  return q;
}

}  // namespace pipesim
