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
  // Device side: c0 + max(p B, w + w' B), plus x B for a serialised transfer.
  const double x = in.transfer && !in.pinned ? transfer_time(in, 1) : 0;
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
    const double device = compute_time(in, above) + x * above;
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

  if (in.transform) d.workers_needed = ceil_count(B * in.worker_seconds_per_sample / compute);
  d.storage_bandwidth_needed = B * in.sample_bytes * (1 - in.cache_hit) * in.storage_shared_by / compute;
  if (in.transfer) d.link_bandwidth_needed = B * in.device_bytes * in.link_shared_by / compute;
  d.crossovers = find_crossovers(in);

  if (r.utilization >= 1 - kCoBinding) return d;  // compute-bound: nothing to fix

  auto add = [&](FixKind kind, std::vector<Change> changes) {
    d.fixes.push_back({kind, changes, apply(s, changes)});
  };

  if (r.serial) add(FixKind::Overlap, {{Field::Workers, {std::max(1.0, d.workers_needed.value_or(1)), Dim::Number}}});

  const bool transform_slow = in.transform && r.stage(Stage::Transform).time_s > compute;
  if (transform_slow && !r.serial) {
    const double need = *d.workers_needed;
    if (!in.cores_per_accelerator || *in.cores_per_accelerator >= need)
      add(FixKind::Workers, {{Field::Workers, {need, Dim::Number}}});
    else  // more workers alone add nothing: the cores cap them
      add(FixKind::WorkersAndCores, {{Field::Workers, {need, Dim::Number}},
                                     {Field::Cores, {need * in.accelerators, Dim::Number}}});
  }

  if (in.storage && r.stage(Stage::Storage).time_s > compute) {
    const double bytes = B * in.sample_bytes * (1 - in.cache_hit);
    if (bytes / in.storage_bandwidth > compute)
      add(FixKind::StorageBandwidth, {{Field::ReadBandwidth, {d.storage_bandwidth_needed, Dim::Rate}}});
    if (in.storage_iops && bytes / in.request_bytes / *in.storage_iops > compute) {
      const double iops = ceil_count(bytes / in.request_bytes / compute * in.storage_shared_by);
      add(FixKind::StorageIops, {{Field::Iops, {iops, Dim::Number}}});
    }
    if (in.storage_latency &&
        bytes * *in.storage_latency / (in.queue_depth * in.request_bytes) > compute) {
      const double qd = ceil_count(bytes * *in.storage_latency / (in.request_bytes * compute));
      add(FixKind::StorageQueueDepth, {{Field::QueueDepth, {qd, Dim::Number}}});
    }
  }

  if (in.transfer) {
    if (!in.pinned && !r.serial && r.binds(Stage::Transfer))
      add(FixKind::PinMemory, {{Field::LinkPinned, {1, Dim::Bool}}});
    if (r.stage(Stage::Transfer).time_s > compute && in.pinned)
      add(FixKind::LinkBandwidth, {{Field::LinkBandwidth, {*d.link_bandwidth_needed, Dim::Rate}}});
  }

  // With more than one wall, no single fix suffices: show them together.
  if (d.fixes.size() > 1) {
    std::vector<Change> all;
    for (const auto& f : d.fixes)
      for (const auto& c : f.changes) all.push_back(c);
    add(FixKind::AllTogether, all);
  }

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
