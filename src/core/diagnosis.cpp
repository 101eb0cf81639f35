#include "core/diagnosis.hpp"

#include <algorithm>
#include <cmath>

namespace pipesim {

namespace {

// Per-sample time of each overlapped input stage (all are linear in B through 0).
double per_sample(const Inputs& in, Stage s) {
  switch (s) {
    case Stage::Storage: return in.storage ? storage_time(in, 1) : 0;
    case Stage::Transform: return in.transform ? transform_time(in, 1) : 0;
    case Stage::Transfer: return in.transfer && in.pinned ? transfer_time(in, 1) : 0;
    case Stage::Compute: break;
  }
  return 0;
}

Result apply(const Scenario& base, const std::vector<Change>& changes) {
  Scenario s = base;
  for (const auto& c : changes) s.set(c.field, c.value);
  return evaluate(resolve(s));
}

StorageCapacity storage_capacity(const Inputs& in, const Result& r) {
  StorageCapacity c;
  c.target = in.target_utilization;
  const double compute = r.stage(Stage::Compute).time_s;
  // At utilization U the step is compute / U: each accelerator reads its batch in that time.
  c.demand = c.target * in.batch * in.sample_bytes * (1 - in.cache_hit) / compute;
  if (c.demand <= 0) return c;
  if (in.read_bandwidth) c.by_bandwidth = std::floor(*in.read_bandwidth / c.demand * (1 + 1e-12));
  if (in.iops_total) c.by_iops = std::floor(*in.iops_total / (c.demand / in.request_bytes) * (1 + 1e-12));
  if (in.node_cap) c.per_node = std::floor(*in.node_cap / c.demand * (1 + 1e-12));
  if (in.storage_latency)
    c.latency_ok = in.queue_depth * in.request_bytes / request_service_time(in) >= c.demand * (1 - 1e-12);
  if (c.by_bandwidth) c.accelerators = c.by_bandwidth;
  if (c.by_iops) c.accelerators = std::min(c.accelerators.value_or(*c.by_iops), *c.by_iops);
  if (!c.latency_ok) c.accelerators = 0;
  return c;
}

// Smallest whole number >= x, tolerant of rounding just above an integer.
double ceil_count(double x) { return std::ceil(x * (1 - 1e-12)); }

}  // namespace

std::vector<Crossover> find_crossovers(const Inputs& in) {
  std::vector<Crossover> out;
  if (in.workers == 0) return out;  // stages do not overlap: nothing crosses
  Stage wall = Stage::Storage;
  double s = 0;
  for (Stage st : {Stage::Storage, Stage::Transform, Stage::Transfer}) {
    const double v = per_sample(in, st);
    if (v > s) {
      s = v;
      wall = st;
    }
  }
  if (s == 0) return out;
  // Device side: c0 + max(p B, w + w' B), plus x B for a serialised transfer and g B for
  // decoding on the GPU.
  const double x = (in.transfer && !in.pinned ? transfer_time(in, 1) : 0) + in.gpu_decode_per_sample;
  const double c0 = in.compute_overhead;
  const double p = in.compute_per_sample + x;
  const double w = in.weight_seconds;
  const double w1 = 0.1 * in.weight_seconds + x;
  // g(B) = s B - device(B) is concave: at most two roots, one per linear piece.
  std::vector<double> roots;
  if (s > p) {
    const double b = c0 / (s - p);
    if (p * b >= w + w1 * b) roots.push_back(b);
  }
  if (s > w1 && w > 0) {
    const double b = (c0 + w) / (s - w1);
    if (w + w1 * b >= p * b) roots.push_back(b);
  }
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end(),
                          [](double a, double b) { return std::fabs(a - b) <= 1e-9 * b; }),
              roots.end());
  for (double b : roots) {
    if (!(b > 0) || !std::isfinite(b)) continue;
    // Which side is input-bound: look just above the root.
    const double above = b * (1 + 1e-6) + 1e-9;
    const double device = model_compute_time(in, above) + x * above;
    out.push_back({b, wall, s * above > device});
  }
  return out;
}

Diagnosis diagnose(const Scenario& s) {
  Diagnosis d;
  d.inputs = resolve(s);
  d.result = evaluate(d.inputs);
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  const double B = in.batch;
  const double compute = r.stage(Stage::Compute).time_s;

  if (in.cpu_work) {
    d.workers_needed = ceil_count(B * in.worker_seconds_per_sample / compute);
    CoreNeeds c;
    c.workers_full = *d.workers_needed;
    c.workers_target = ceil_count(in.target_utilization * B * in.worker_seconds_per_sample / compute);
    c.reserved_per_accelerator = in.reserved_cores / in.accelerators;
    c.node_full = c.workers_full * in.accelerators + in.reserved_cores;
    c.node_target = c.workers_target * in.accelerators + in.reserved_cores;
    d.cores = c;
  }
  d.storage_bandwidth_needed = B * in.sample_bytes * (1 - in.cache_hit) * in.storage_shared_by / compute;
  if (in.storage) d.storage_capacity = storage_capacity(in, r);
  if (in.transfer) d.link_bandwidth_needed = B * in.device_bytes * in.link_shared_by / compute;
  d.crossovers = find_crossovers(in);
  d.max_batch = max_batch_that_fits(in);
  d.scenario_decoder_rate = s.opt(Field::DecoderRate).value_or(0);
  d.scenario_gpu_time = s.opt(Field::GpuTime).value_or(0);

  auto add = [&](FixKind kind, std::vector<Change> changes) {
    d.fixes.push_back({kind, changes, apply(s, changes)});
  };

  // A batch that does not fit is the first thing to fix: nothing else runs.
  if (!r.fits) {
    if (d.max_batch && *d.max_batch >= 1) add(FixKind::FitMemory, {{Field::BatchSize, {*d.max_batch, Dim::Number}}});
    return d;
  }
  if (r.compute_bound()) return d;  // compute-bound: nothing to fix

  if (r.serial) add(FixKind::Overlap, {{Field::Workers, {std::max(1.0, d.workers_needed.value_or(1)), Dim::Number}}});

  const bool transform_slow = in.transform && r.stage(Stage::Transform).time_s > compute;
  if (transform_slow && !r.serial && in.cpu_work && r.transform_limit == TransformLimit::Workers) {
    const double need = *d.workers_needed;
    if (!in.cores_per_accelerator || *in.cores_per_accelerator >= need)
      add(FixKind::Workers, {{Field::Workers, {need, Dim::Number}}});
    else  // more workers alone add nothing: the cores cap them
      add(FixKind::WorkersAndCores, {{Field::Workers, {need, Dim::Number}},
                                     {Field::Cores, {need * in.accelerators + in.reserved_cores, Dim::Number}}});
  }
  // Where the decoding runs: alternatives to CPU workers, when the scenario gives their figures
  // (each kept only when it raises throughput).
  const auto add_if_faster = [&](FixKind kind, std::vector<Change> changes) {
    Fix f{kind, changes, apply(s, changes)};
    if (f.result.throughput > r.throughput * (1 + 1e-9)) d.fixes.push_back(std::move(f));
  };
  if (transform_slow && in.transform_at == TransformAt::Cpu) {
    if (s.has(Field::DecoderRate))
      add_if_faster(FixKind::DecodeOnDecoder, {{Field::TransformDevice, {static_cast<double>(TransformAt::Decoder), Dim::Choice}}});
    if (s.has(Field::GpuTime))
      add_if_faster(FixKind::DecodeOnGpu, {{Field::TransformDevice, {static_cast<double>(TransformAt::Gpu), Dim::Choice}}});
    if (s.has(Field::PredecodedSampleRate)) {
      const double size = s.opt(Field::PredecodedSampleSize).value_or(in.device_bytes);
      if (size > 0)
        add_if_faster(FixKind::Predecoded, {{Field::SampleSize, {size, Dim::Size}},
                                  {Field::WorkerSampleRate, {s.get(Field::PredecodedSampleRate), Dim::SampleRate}}});
    }
  }

  if (in.storage && r.stage(Stage::Storage).time_s > compute) {
    const double bytes = B * in.sample_bytes * (1 - in.cache_hit);
    if (bytes / in.storage_bandwidth > compute) {
      // The aggregate as a change: read_bandwidth, or the capacity of a per-TiB file system.
      const auto aggregate = [&](double needed) {
        if (s.has(Field::ThroughputPerTib))
          return Change{Field::StorageCapacity,
                        {std::ceil(needed / s.get(Field::ThroughputPerTib) * (1 - 1e-12)) * kTiB, Dim::Size}};
        return Change{Field::ReadBandwidth, {needed, Dim::Rate}};
      };
      if (in.bandwidth_cap == BandwidthCap::Storage) {
        add(FixKind::StorageBandwidth, {aggregate(d.storage_bandwidth_needed)});
      } else {
        std::vector<Change> changes{
            {in.bandwidth_cap == BandwidthCap::NodeNetwork ? Field::NetworkBandwidth : Field::NodeStorageBandwidth,
             {bytes * in.accelerators / compute, Dim::Rate}}};
        if (in.read_bandwidth && *in.read_bandwidth < d.storage_bandwidth_needed)
          changes.push_back(aggregate(d.storage_bandwidth_needed));
        add(FixKind::StorageBandwidth, changes);
      }
    }
    if (in.storage_iops && bytes / in.request_bytes / *in.storage_iops > compute) {
      const double iops = ceil_count(bytes / in.request_bytes / compute * in.storage_shared_by);
      add(FixKind::StorageIops, {{Field::Iops, {iops, Dim::Number}}});
    }
    if (in.storage_latency &&
        bytes * request_service_time(in) / (in.queue_depth * in.request_bytes) > compute) {
      const double qd = ceil_count(bytes * request_service_time(in) / (in.request_bytes * compute));
      add(FixKind::StorageQueueDepth, {{Field::QueueDepth, {qd, Dim::Number}}});
    }
  }

  if (in.transfer) {
    if (!in.pinned && !r.serial && r.binds(Stage::Transfer))
      add(FixKind::PinMemory, {{Field::LinkPinned, {1, Dim::Bool}}});
    if (r.stage(Stage::Transfer).time_s > compute && in.pinned)
      add(FixKind::LinkBandwidth, {{Field::LinkBandwidth, {*d.link_bandwidth_needed, Dim::Rate}}});
  }

  // With more than one wall, no single fix suffices: show them together (one way to decode).
  std::size_t walls = 0;
  std::vector<Change> all;
  bool decode_taken = false;
  for (const auto& f : d.fixes) {
    const bool decode = f.kind == FixKind::DecodeOnDecoder || f.kind == FixKind::DecodeOnGpu ||
                        f.kind == FixKind::Predecoded;
    if (decode && decode_taken) continue;
    if (decode && std::any_of(d.fixes.begin(), d.fixes.end(), [](const Fix& g) {
          return g.kind == FixKind::Workers || g.kind == FixKind::WorkersAndCores;
        }))
      continue;  // workers already fix the transform
    decode_taken |= decode;
    ++walls;
    for (const auto& c : f.changes) {
      auto same = std::find_if(all.begin(), all.end(), [&](const Change& a) { return a.field == c.field; });
      if (same != all.end()) *same = c;
      else all.push_back(c);
    }
  }
  if (walls > 1) add(FixKind::AllTogether, all);

  // A smaller batch at the crossover: the accelerator binds, but throughput does not rise.
  for (const auto& c : d.crossovers) {
    if (!c.input_binds_above || c.batch >= B) continue;
    const double b = std::floor(c.batch);
    if (b >= 1) add(FixKind::SmallerBatch, {{Field::BatchSize, {b, Dim::Number}}});
    break;
  }
  return d;
}

}  // namespace pipesim
