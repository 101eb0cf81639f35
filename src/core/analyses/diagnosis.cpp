#include "core/analyses/diagnosis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "core/analyses/search.hpp"

namespace pipesim {

namespace {

// Per-sample time of each overlapped input stage (all are linear in B through 0).
double per_sample(const Inputs& in, Stage s) {
  switch (s) {
    case Stage::Storage:
      return in.storage.modelled ? storage_time(in.storage, storage_bytes_per_batch(in.storage, in, 1)) : 0;
    case Stage::Transform:
      return in.transform.modelled ? transform_time(in.transform, in, 1) : 0;
    case Stage::Transfer:
      return in.transfer.modelled && in.transfer.pinned ? transfer_time(in.transfer, 1) : 0;
    case Stage::Compute:
      break;
  }
  return 0;
}

}  // namespace

struct FixMemo::Slot {
  Key key;  // size 0: empty
  Result result;
  double dataset_bytes = 0;
};

namespace {

constexpr unsigned kMemoSlotBits = 8;
constexpr std::size_t kMemoSlots = std::size_t{1} << kMemoSlotBits;

bool same(const Value& a, const Value& b) {
  return a.set == b.set && a.dim == b.dim && std::memcmp(&a.value, &b.value, sizeof a.value) == 0;
}

bool contains(std::span<const Field> fields, Field f) {
  return std::find(fields.begin(), fields.end(), f) != fields.end();
}

}  // namespace

// What the memo's methods need of it, kept out of its public face.
struct FixMemoAccess {
  // The key of `base` with `changes` applied as Scenario::set applies them, in turn: the varying
  // fields' values, then those of the fields a change sets or unsets (its alternatives). False
  // when that takes more than kMaxKey fields, and when no change sets a varying field (or one of
  // its alternatives, which are varying too): then each scenario diagnosed lands on a scenario of
  // its own (the points of a sweep are distinct), which no other can meet.
  static bool key(const FixMemo& m, const Scenario& base, std::span<const Change> changes, FixMemo::Key& k) {
    if (m.varying_.size() > FixMemo::kMaxKey ||
        std::none_of(changes.begin(), changes.end(), [&](const Change& c) { return contains(m.varying_, c.field); }))
      return false;
    // The key's place for f, added with f's value in base when it is not there yet; kMaxKey when full.
    const auto at = [&](Field f) {
      for (std::size_t i = 0; i < k.size; ++i)
        if (k.fields[i] == f) return i;
      if (k.size == FixMemo::kMaxKey) return FixMemo::kMaxKey;
      k.fields[k.size] = f;
      k.values[k.size] = base.has(f) ? Value{base.get(f), base.dim(f), true} : Value{};
      return k.size++;
    };
    k.size = 0;
    for (Field f : m.varying_) at(f);  // all fit: checked above
    for (const Change& c : changes) {
      for (Field a : alternatives(c.field)) {
        if (a == c.field) continue;
        const std::size_t i = at(a);
        if (i == FixMemo::kMaxKey) return false;
        k.values[i] = Value{};
      }
      const std::size_t i = at(c.field);
      if (i == FixMemo::kMaxKey) return false;
      k.values[i] = Value{c.value.value, c.value.dim, true};
    }
    return true;
  }
  // The slot for a key: the one that holds it, or the one it would take.
  static FixMemo::Slot& slot(FixMemo& m, const FixMemo::Key& k) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < k.size; ++i) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &k.values[i].value, sizeof bits);
      h = (h ^ bits ^ (static_cast<std::uint64_t>(k.fields[i]) << 56) ^ (k.values[i].set ? 1ull << 48 : 0)) *
          0xD6E8FEB86659FD93ull;
    }
    return m.slots_[h >> (64 - kMemoSlotBits)];  // the top bits: every bit of the input reaches them
  }
  static bool holds(const FixMemo::Slot& slot, const FixMemo::Key& k) {
    if (slot.key.size != k.size) return false;
    for (std::size_t i = 0; i < k.size; ++i)
      if (slot.key.fields[i] != k.fields[i] || !same(slot.key.values[i], k.values[i])) return false;
    return true;
  }
  static void count(FixMemo& m, bool hit) { ++(hit ? m.hits_ : m.misses_); }
};

FixMemo::FixMemo(std::span<const Field> varying) : slots_(std::make_unique<Slot[]>(kMemoSlots)) {
  for (Field f : varying) {
    if (!contains(varying_, f)) varying_.push_back(f);
    for (Field a : alternatives(f))
      if (!contains(varying_, a)) varying_.push_back(a);
  }
}

FixMemo::~FixMemo() = default;

namespace {

// The inputs of `base` with `changes` applied.
Inputs resolve_changed(const Scenario& base, std::span<const Change> changes) {
  Scenario s = base;
  for (const auto& c : changes) s.set(c.field, c.value);
  return resolve(s);
}

// The model's result on `base` with `changes` applied (and the dataset's size after them) given
// to make(result, dataset_bytes): looked up in `memo` (when given) where that scenario was run
// before, else run and kept there. A scenario the model refuses throws, and nothing is kept.
template <class Make>
auto run_changed(const Scenario& base, std::span<const Change> changes, FixMemo* memo, Make&& make) {
  FixMemo::Key key;
  if (memo == nullptr || !FixMemoAccess::key(*memo, base, changes, key)) {
    const Inputs in = resolve_changed(base, changes);
    return make(evaluate(in), in.dataset_bytes);
  }
  FixMemo::Slot& slot = FixMemoAccess::slot(*memo, key);
  const bool hit = FixMemoAccess::holds(slot, key);
  FixMemoAccess::count(*memo, hit);
  if (hit) return make(slot.result, slot.dataset_bytes);
  const Inputs in = resolve_changed(base, changes);
  slot.key.size = 0;  // empty until it holds the result
  slot.result = evaluate(in);
  slot.dataset_bytes = in.dataset_bytes;
  slot.key = key;
  return make(slot.result, slot.dataset_bytes);
}

// The fix with its changes applied to the scenario and the model re-run.
Fix apply(FixKind kind, const Scenario& base, std::vector<Change> changes, FixMemo* memo) {
  const std::span<const Change> applied = changes;
  return run_changed(base, applied, memo, [&](const Result& r, double dataset_bytes) {
    return Fix{kind, std::move(changes), r, dataset_bytes};
  });
}

// The smallest value of `field` in [from, to] at which the accelerator binds, or the one of
// highest throughput when none does (nullopt when none raises it): the prefetch window that
// beats variance, where no closed form gives it. A few values are tried one by one; a wider
// range by bisection, the model being evaluated a few dozen times: more of the field never
// lowers throughput, so once it binds it binds above too.
std::optional<double> smallest_that_binds(const Scenario& base, Field field, double from, double to,
                                          double throughput) {
  const auto at = [&](double v) {
    const Change change{field, {v, Dim::Number}};
    return evaluate(resolve_changed(base, std::span(&change, 1)));
  };
  if (to - from <= 256) {
    std::optional<double> best;
    for (double v = from; v <= to; ++v) {
      const Result r = at(v);
      if (r.compute_bound()) return v;
      if (r.throughput > throughput * (1 + 1e-9)) {
        best = v;
        throughput = r.throughput;
      }
    }
    return best;
  }
  // The smallest value that binds, or (none does) that reaches the throughput of `to`.
  const Result top = at(to);
  if (!top.compute_bound() && !(top.throughput > throughput * (1 + 1e-9))) return std::nullopt;
  const auto good = [&](double v) {
    const Result r = at(v);
    return top.compute_bound() ? r.compute_bound() : r.throughput * (1 + 1e-9) >= top.throughput;
  };
  if (good(from)) return from;
  double below = from, above = to;  // not good at `below`, good at `above`
  for (int i = 0; i < 200; ++i) {
    const double mid = std::floor(0.5 * (below + above));
    if (mid <= below || mid >= above) break;
    (good(mid) ? above : below) = mid;
  }
  return above;
}

// Runs of the model at other worker counts, and CPUs for the node, for the counts a diagnosis
// gives: each count is the fewest at which the model, run there, gives what its sentence says.
struct WorkerProbe {
  const Scenario& s;
  FixMemo* memo;
  // Compute over the transform's time at `workers` per accelerator, on `cores` for the node when
  // given (> 0; else the scenario's): the transform's own bound on utilization, 1 or more when it
  // keeps up. 0 where the model refuses the point.
  [[nodiscard]] double ratio(double workers, double cores = 0) const {
    const std::array<Change, 2> changes{Change{Field::Workers, {workers, Dim::Number}},
                                        Change{Field::Cores, {cores, Dim::Number}}};
    try {
      return run_changed(s, std::span(changes.data(), cores > 0 ? 2 : 1), memo, [](const Result& r, double) {
        const double transform = r.stage(Stage::Transform).time_s;
        return transform > 0 ? r.stage(Stage::Compute).time_s / transform : std::numeric_limits<double>::infinity();
      });
    } catch (const FieldError&) {
      return 0.0;
    }
  }
  [[nodiscard]] bool reaches(double goal, double workers, double cores = 0) const {
    return ratio(workers, cores) >= goal * (1 - 1e-9);
  }
};

// As many workers as no count searched goes past: the scaling law's peak, or none.
constexpr double kUnboundedWorkers = 1e18;

// The closed form's count in whole-core workers as workers on the node's CPUs: past its cores,
// the rest run on second hardware threads, each adding cpu.smt_yield of a worker. A first guess.
double on_hardware_threads(const TransformInputs& t, double whole_core_workers) {
  if (!t.cores_per_accelerator || t.threads_per_core <= 1 || t.smt_yield <= 0) return whole_core_workers;
  const double physical = *t.cores_per_accelerator / t.threads_per_core;
  if (whole_core_workers <= physical) return whole_core_workers;
  return std::min(*t.cores_per_accelerator, physical + (whole_core_workers - physical) / t.smt_yield);
}

// The count of workers per accelerator that delivers the most on `logical` CPUs per accelerator
// (the node's CPUs at `cpus`, or the scenario's where 0): as many as the CPUs, a few fewer where
// a part of a CPU or the training process's threads beside them would slice the time of all, or,
// under the scaling law's coherency, where what the CPUs run reaches the law's peak (past it more
// deliver less).
double best_workers(const WorkerProbe& p, const TransformInputs& t, double logical, double cpus) {
  const double top = std::max(1.0, std::ceil(logical - 1e-9));
  std::array<double, 8> tries{top, top - 1, top - 2, top - 3, 0, 0, 0, 0};
  if (t.kappa > 0) {
    const double peak = usl_peak(t), physical = logical / t.threads_per_core;
    const double w = peak <= physical || t.smt_yield <= 0 ? peak : physical + (peak - physical) / t.smt_yield;
    tries[4] = std::floor(w) - 1;
    tries[5] = std::floor(w);
    tries[6] = std::ceil(w);
    tries[7] = std::ceil(w) + 1;
  }
  double best = top, most = -1;
  for (double w : tries)
    if (w >= 1 && w <= top)
      if (const double r = p.ratio(w, cpus); r > most) {
        best = w;
        most = r;
      }
  return best;
}

// The fewest CPUs for the node at which some count of workers reaches `goal` (in the transform's
// bound on utilization), at most `upper`, and the fewest workers per accelerator that do it there.
struct CpusAnswer {
  double cpus = 0;
  double workers = 0;
};
std::optional<CpusAnswer> fewest_cpus(const WorkerProbe& p, const Inputs& in, double goal, double upper) {
  const TransformInputs& t = in.transform;
  const auto logical = [&](double cpus) { return (cpus - t.reserved_cores) / in.accelerators; };
  const auto best = [&](double cpus) { return best_workers(p, t, logical(cpus), cpus); };
  const auto some = [&](double cpus) { return logical(cpus) > 0 && p.reaches(goal, best(cpus), cpus); };
  const auto cpus = fewest(std::floor(t.reserved_cores) + 1, upper, upper, some);
  if (!cpus) return std::nullopt;
  const double most = best(*cpus);
  const auto workers = fewest(1, most, most, [&](double w) { return p.reaches(goal, w, *cpus); });
  if (!workers) return std::nullopt;
  return CpusAnswer{*cpus, *workers};
}

// The closed form's counts (core_needs: whole-core workers, the scaling law alone) replaced by
// the model's own: the fewest workers that keep the transform at or under compute, and at the
// target, on the node's CPUs (hardware threads, time slicing, reserved CPUs, the training process
// and variance all counted); where they cannot, the fewest with more CPUs; the knee on the node's
// CPUs; and the fewest CPUs for the node. With `whole` false (a sweep's row, which shows only its
// fixes) only what the fixes use, and only where the workers are short of keeping up.
void search_core_needs(const Scenario& s, FixMemo* memo, Diagnosis& d, bool whole) {
  const Inputs& in = d.inputs;
  const TransformInputs& t = in.transform;
  CoreNeeds& c = *d.cores;
  if (t.decoder_seconds_per_sample > 0) return;  // the decoder sets its own pace: the closed form's counts
  const Result& r = d.result;
  if (!whole && !r.serial && !(r.stage(Stage::Transform).time_s > r.stage(Stage::Compute).time_s)) return;
  const WorkerProbe p{s, memo};
  const bool known = t.cores_per_accelerator.has_value();
  const double law_top = t.kappa > 0 ? c.peak_workers : kUnboundedWorkers;
  const double node_top = known ? best_workers(p, t, *t.cores_per_accelerator, 0) : law_top;
  const auto on_node = [&](double goal, double guess) {
    return fewest(1, node_top, on_hardware_threads(t, guess), [&](double w) { return p.reaches(goal, w); });
  };
  const auto full = on_node(1, c.workers_full);
  // A row shows neither the target's count nor the knee: not searched there.
  const auto target = whole ? on_node(in.target_utilization, c.workers_target) : std::nullopt;
  c.full_within_node = full.has_value();
  c.target_within_node = target.has_value();
  // A core each beside those reserved, for `w` workers per accelerator.
  const auto core_each = [&](double w) {
    return ceil_count((w * t.threads_per_core + c.reserved_per_accelerator) * in.accelerators);
  };
  const auto with_cpus = [&](double goal, double guess) {
    return fewest(1, law_top, guess, [&](double w) { return p.reaches(goal, w, core_each(w)); });
  };
  if (full) {
    c.workers_full = *full;
  } else if (known) {
    const auto more = with_cpus(1, c.workers_full);
    c.reachable = more.has_value();
    if (more) c.workers_full = *more;
  } else {
    c.reachable = false;
  }
  if (target)
    c.workers_target = *target;
  else if (const auto more = whole && known ? with_cpus(in.target_utilization, c.workers_target) : std::nullopt)
    c.workers_target = *more;
  // The knee: the fewest workers on these CPUs that deliver 95% of the most they can (never
  // more than compute needs).
  if (whole) {
    const double most = known || t.kappa > 0 || t.sigma > 0 ? std::min(1.0, p.ratio(node_top)) : 1.0;
    if (const auto knee = on_node(0.95 * most, c.knee_workers)) c.knee_workers = *knee;
  }
  c.knee_fits_cores = !known || c.knee_workers * t.threads_per_core <= *t.cores_per_accelerator * (1 + 1e-12);
  // The workers that deliver what the node's CPUs full deliver, when they cannot keep up.
  if (!c.full_within_node && known)
    c.workers_node_best = fewest(1, node_top, node_top, [&, r = p.ratio(node_top)](double w) {
                            return p.reaches(r, w);
                          }).value_or(node_top);
  // The CPUs for the node: the node's own where they suffice, else a core each; the fewest that
  // suffice when asked, and always where the node's are too few (the fix adds them).
  const auto node_answer = [&](bool within, double workers, double goal, double& node, double& at) {
    node = within && t.node_cores ? *t.node_cores : core_each(workers);
    at = workers;
    if (!c.reachable || !(whole || !within)) return;
    if (const auto fewer = fewest_cpus(p, in, goal, node)) {
      node = fewer->cpus;
      at = fewer->workers;
    }
  };
  node_answer(c.full_within_node, c.workers_full, 1, c.node_full, c.workers_at_node_full);
  if (whole)
    node_answer(c.target_within_node, c.workers_target, in.target_utilization, c.node_target, c.workers_at_node_target);
  c.cores_per_accelerator = c.node_full / in.accelerators;
}

}  // namespace

std::string_view fix_key(FixKind k) {
  switch (k) {
    case FixKind::Workers:
      return "workers";
    case FixKind::WorkersAndCores:
      return "workers_and_cores";
    case FixKind::WorkersWithinCores:
      return "workers_within_cores";
    case FixKind::Overlap:
      return "overlap";
    case FixKind::StorageBandwidth:
      return "storage_bandwidth";
    case FixKind::StorageIops:
      return "storage_iops";
    case FixKind::StorageQueueDepth:
      return "storage_queue_depth";
    case FixKind::StorageRequestSize:
      return "storage_request_size";
    case FixKind::LocalCache:
      return "local_cache";
    case FixKind::LinkBandwidth:
      return "link_bandwidth";
    case FixKind::PinMemory:
      return "pin_memory";
    case FixKind::DecodeOnDecoder:
      return "decoder";
    case FixKind::DecodeOnGpu:
      return "gpu_decode";
    case FixKind::Predecoded:
      return "predecoded";
    case FixKind::SmallerBatch:
      return "batch_size";
    case FixKind::FitMemory:
      return "fit_memory";
    case FixKind::Prefetch:
      return "prefetch";
    case FixKind::OutOfOrder:
      return "out_of_order";
    case FixKind::AllTogether:
      return "all_together";
    case FixKind::FewerWorkers:
      return "fewer_workers";
    case FixKind::Uint8Samples:
      return "uint8_samples";
  }
  return "";
}

std::string_view loss_key(LossKind k) {
  switch (k) {
    case LossKind::LoopTime:
      return "loop_time";
    case LossKind::BatchAssembly:
      return "batch_assembly";
    case LossKind::Contention:
      return "contention";
    case LossKind::TimeSlicing:
      return "time_slicing";
    case LossKind::LoopCpu:
      return "loop_cpu";
    case LossKind::Crowded:
      return "crowded_loop";
    case LossKind::Lock:
      return "interpreter_lock";
    case LossKind::Variance:
      return "variance";
    case LossKind::StepSpread:
      return "step_spread";
    case LossKind::EpochStart:
      return "epoch_start";
  }
  return "";
}

std::vector<FidelityLoss> fidelity_losses(const Scenario& s, const Result& r) {
  constexpr double kShown = 0.001;
  std::vector<FidelityLoss> out;
  const auto without = [&](LossKind k, const Scenario& t) {
    try {
      const double u = evaluate(resolve(t)).utilization;
      if (u - r.utilization >= kShown) out.push_back({k, u, u - r.utilization, std::nullopt});
    } catch (const FieldError&) {
      // Without the key the scenario is incomplete: no figure for that mechanism.
    }
  };
  const auto unset = [&](LossKind k, std::initializer_list<Field> fields) {
    if (std::none_of(fields.begin(), fields.end(), [&](Field f) { return s.has(f); })) return;  // nothing to copy
    Scenario t = s;
    for (Field f : fields) t.unset(f);
    without(k, t);
  };
  unset(LossKind::LoopTime, {Field::LoopOverhead, Field::ReceiveTime, Field::ReceiveTimePerSample});
  unset(LossKind::BatchAssembly, {Field::MemcpyBandwidth, Field::WorkerBatchOverhead});
  unset(LossKind::Contention, {Field::ScalingContention, Field::ScalingCoherency});
  unset(LossKind::TimeSlicing, {Field::OversubscriptionCost});
  if (loop_cpu_share(s).value_or(0) > 0) {
    Scenario t = s;
    t.set(Field::LoopCpuShare, 0);  // unset would reserve a core instead of sharing them
    without(LossKind::LoopCpu, t);
  }
  unset(LossKind::Lock, {Field::LaunchTime, Field::PinLockShare});
  unset(LossKind::Crowded, {Field::CrowdedLoopTime});
  unset(LossKind::Variance, {Field::TransformCv});
  unset(LossKind::StepSpread, {Field::StepCv});
  if (r.epoch_utilization && r.utilization - *r.epoch_utilization >= kShown) {
    FidelityLoss start{LossKind::EpochStart, r.utilization, r.utilization - *r.epoch_utilization, std::nullopt};
    if (r.workers_start_s.value_or(0) > 0 && s.value(Field::PersistentWorkers) == 0) {
      Scenario t = s;
      t.set(Field::PersistentWorkers, {1, Dim::Bool});
      start.persistent = evaluate(resolve(t)).epoch_utilization;
    }
    out.push_back(start);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const FidelityLoss& a, const FidelityLoss& b) { return a.loss > b.loss; });
  return out;
}

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
  const double x = (in.transfer.modelled && !in.transfer.pinned ? transfer_time(in.transfer, 1) : 0) +
                   in.transform.gpu_seconds_per_sample;
  const double c0 = in.compute.overhead;
  const double p = in.compute.per_sample + x;
  const double w = in.compute.weight_seconds;
  const double w1 = 0.1 * in.compute.weight_seconds + x;
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
  roots.erase(std::unique(roots.begin(), roots.end(), [](double a, double b) { return std::fabs(a - b) <= 1e-9 * b; }),
              roots.end());
  for (double b : roots) {
    // Below batch 1 no batch size is on the other side: the same wall binds at every one.
    if (!(b >= 1) || !std::isfinite(b)) continue;
    // Which side is input-bound: look just above the root.
    const double above = b * (1 + 1e-6) + 1e-9;
    const double device = model_compute_time(in.compute, above) + x * above;
    out.push_back({b, std::floor(b), wall, s * above > device});
  }
  return out;
}

namespace {

// The crossovers by the model: each crossing the closed form finds is the first guess of a
// search over whole batch sizes, within the stretch between it and its neighbours, for the last
// batch on its side: where the accelerator binds (alone or with others), or where the input stage
// binds and the accelerator does not, by the model run at each batch. A crossing the model does
// not bear out there is dropped; where the closed form's crossing lies outside the whole batches
// found, the crossing is where the step's compute side, run at them, stops binding.
std::vector<Crossover> confirm_crossovers(const Scenario& s, FixMemo* memo, const std::vector<Crossover>& guesses) {
  std::vector<Crossover> out;
  for (std::size_t i = 0; i < guesses.size(); ++i) {
    Crossover cx = guesses[i];
    const double lo = i == 0 ? 1 : std::ceil(0.5 * (guesses[i - 1].batch + cx.batch));
    const double hi = i + 1 < guesses.size() ? std::floor(0.5 * (cx.batch + guesses[i + 1].batch))
                                             : std::max(4 * cx.batch, cx.batch + 1024);
    struct Side {
      bool input = false;  // the input stage binds, the accelerator does not
      double gap = 0;      // how far the step's compute side falls short of binding
    };
    const auto at = [&](double b) {
      const Change change{Field::BatchSize, {b, Dim::Number}};
      return run_changed(s, std::span(&change, 1), memo, [&](const Result& r, double) {
        return Side{r.binds(cx.input_stage) && !r.binds(Stage::Compute),
                    r.step_s * (1 - kCoBinding) - r.compute_side_s()};
      });
    };
    const auto other_side = [&](double b) { return at(b).input == cx.input_binds_above; };
    try {
      const std::optional<double> first = fewest(lo, hi, std::ceil(cx.batch), other_side);
      if (!first || *first <= lo) continue;  // no crossing in its stretch
      cx.last_batch = *first - 1;
      if (!(cx.batch >= cx.last_batch && cx.batch < *first)) {
        const double before = at(cx.last_batch).gap, after = at(*first).gap;
        cx.batch = cx.last_batch + (before != after ? std::clamp(before / (before - after), 0.0, 1.0) : 0.5);
      }
    } catch (const FieldError&) {
      continue;  // a batch size the model refuses near it: not confirmed
    }
    out.push_back(cx);
  }
  return out;
}

// The defaults on the CPU side that decide an answer: how workers scale and share the cores,
// batch assembly, the training loop's own time, variance.
void worker_assumptions(const Scenario& s, const Inputs& in, std::vector<Assumption>& a) {
  const bool workers = in.workers >= 1 && in.transform.cpu_work;
  if (workers && in.workers >= 2 && !s.has(Field::ScalingContention) && !s.has(Field::ScalingCoherency))
    a.push_back({Field::ScalingContention,
                 "linear worker scaling: every added worker adds a full worker's rate (cpu.scaling_contention, "
                 "cpu.scaling_coherency)"});
  if (workers && in.transform.cores_per_accelerator && !s.has(Field::ThreadsPerCore))
    a.push_back({Field::ThreadsPerCore,
                 "each of cpu.cores' CPUs is a whole core and runs a worker at its full rate (cpu.threads_per_core "
                 "when two are the hardware threads of one core)"});
  // A core kept for the training process where the workers want it: a loop that sleeps or polls
  // leaves its core to them, and one that spins gets only its share of the CPUs.
  if (workers && in.transform.cores_per_accelerator && !in.loop_cpu_share && !s.has(Field::ReservedCores) &&
      in.workers > *in.transform.cores_per_accelerator)
    a.push_back({Field::LoopWait,
                 fmt::format("a CPU is kept for each training process and the {} workers share the {} left "
                             "(cpu.reserved_cores); say how the training loop waits for the accelerator "
                             "(pipeline.loop_wait = \"spin\", \"sleep\" or \"poll\") and the CPUs are shared by "
                             "time instead, as the kernel shares them",
                             format_compact(in.workers, Dim::Number),
                             format_compact(*in.transform.cores_per_accelerator, Dim::Number))});
  // Tasks past the cores: the workers, and the training process and pin thread when shared by time.
  if (workers && in.transform.cores_per_accelerator && !s.has(Field::OversubscriptionCost)) {
    const double tasks = cpu_tasks(in);
    const bool pin = tasks > in.workers + 1;
    const std::string cpus = format_compact(*in.transform.cores_per_accelerator, Dim::Number);
    if (tasks > *in.transform.cores_per_accelerator)
      a.push_back({Field::OversubscriptionCost,
                   fmt::format("time slicing is free: {} {} taking turns on {} CPU{} spend no more CPU per sample "
                               "than {} would (cpu.oversubscription_cost)",
                               format_compact(tasks, Dim::Number),
                               !in.loop_cpu_share ? "workers"
                               : pin              ? "tasks (workers, training process, pin thread)"
                                                  : "tasks (workers and training process)",
                               cpus, *in.transform.cores_per_accelerator == 1 ? "" : "s", cpus)});
  }
  // Batch assembly: the workers' collate, and the pin thread's work where the transfer is pinned.
  // Each has a rate of its own that falls back to the copy rate; only what has none is free.
  if (workers) {
    const bool collate_free = !in.transform.collate_bandwidth;
    const bool pin_free = !in.transform.pin_bandwidth;
    if (collate_free && pin_free)
      a.push_back({Field::MemcpyBandwidth,
                   "batch assembly is free: collating into shared memory and pinning cost nothing "
                   "(cpu.memcpy_bandwidth)"});
    else if (collate_free)
      a.push_back({Field::CollateBandwidth,
                   "collating is free: a worker's copy of its batch into shared memory costs nothing "
                   "(cpu.collate_bandwidth, or cpu.memcpy_bandwidth for both copies)"});
    else if (pin_free && in.transfer.modelled && in.transfer.pinned)
      a.push_back({Field::PinBandwidth,
                   "pinning is free: the pin thread's work on each batch costs nothing (cpu.pin_bandwidth, or "
                   "cpu.memcpy_bandwidth for both copies)"});
  }
  if (in.workers >= 1 && in.loop_time() == 0)
    a.push_back({Field::LoopOverhead,
                 "the training loop takes no time of its own per step (pipeline.loop_overhead, "
                 "pipeline.receive_time; the pytorch-dataloader preset has measured ones)"});
  if (workers && !s.has(Field::TransformCv) && !s.has(Field::StepCv))
    a.push_back({Field::TransformCv,
                 "every sample takes the same time: no loss to variance (transform.cv; pipesim simulate shows "
                 "the waits)"});
}

// A measured compute time belongs to the accelerator it was measured on.
void measured_on_assumption(const Scenario& s, const Inputs& in, std::vector<Assumption>& a) {
  if (!in.compute.measured) return;
  if (const auto& range = in.compute.measured_range; range && range->outside()) {
    const auto batch = [](double b) { return format_compact(b, Dim::Number); };
    a.push_back({Field::MeasuredPerSample,
                 fmt::format("the step was measured at {}; at batch {} it is extrapolated {} "
                             "(model.measured_steps at this batch measures it)",
                             range->first == range->last ? "batch " + batch(range->first)
                                                         : "batches " + batch(range->first) + "-" + batch(range->last),
                             batch(range->batch),
                             range->first == range->last ? "in proportion to the batch"
                                                         : "on the line through the nearest two")});
  }
  const FieldSpec& names = spec(Field::MeasuredOn);
  const auto on = s.opt(Field::MeasuredOn);
  const auto here = s.opt(Field::AcceleratorType);
  if (const auto& e = in.compute.elsewhere)
    a.push_back(
        {Field::MeasuredOn, fmt::format("the compute time was measured on {}, not on this scenario's {}: "
                                        "it is used as measured, not scaled (model.measured_on)",
                                        choice_name(names, e->measured_on), choice_name(names, e->accelerator))});
  else if (on && !here)
    a.push_back({Field::MeasuredOn, fmt::format("the compute time measured on {} is taken as this scenario's "
                                                "accelerator's (accelerator.type names it)",
                                                choice_name(names, *on))});
  else if (!on && here && *here != kOtherAccelerator)
    a.push_back({Field::MeasuredOn, fmt::format("the compute time is taken as measured on this scenario's {} "
                                                "(model.measured_on names where it was)",
                                                choice_name(names, *here))});
}

}  // namespace

std::vector<Assumption> assumptions(const Scenario& s, const Inputs& in) {
  constexpr double kSmallFile = 4096;  // a file system's block: no dataset stores a file per sample below it
  std::vector<Assumption> a;
  worker_assumptions(s, in, a);
  measured_on_assumption(s, in, a);
  if (in.storage.modelled && in.storage.cache_from_page_cache && !s.has(Field::PageCache))
    a.push_back({Field::PageCache,
                 in.storage.node_shuffle_buffer_bytes > 0
                     ? fmt::format("all of node.memory but the shuffle buffers ({}) is page cache for the dataset "
                                   "(node.page_cache)",
                                   format_significant(in.storage.node_shuffle_buffer_bytes, Dim::Size, 4))
                     : std::string("all of node.memory is page cache for the dataset (node.page_cache)")});
  // Storage read every epoch: no page cache is known to hold the dataset.
  if (in.storage.modelled && !in.storage.cache_from_page_cache && !s.has(Field::CacheHit) &&
      !s.has(Field::NodeMemory) && !s.has(Field::PageCache))
    a.push_back({Field::NodeMemory,
                 "no page cache: every epoch reads every sample from storage (node.memory, with "
                 "workload.dataset_samples, lets later epochs find it cached)"});
  // Several nodes: each reads its own storage unless the plan says they share one.
  if (in.storage.modelled && in.nodes > 1 && !s.has(Field::StorageScope))
    a.push_back({Field::StorageScope,
                 fmt::format("each of the {} nodes reads its own storage at storage.read_bandwidth (storage.scope = "
                             "\"cluster\" when they share one, and node.network_bandwidth then limits each node)",
                             format_compact(in.nodes, Dim::Number))});
  // Accelerator memory: what the check of a batch against it counts.
  if (s.has(Field::AcceleratorMemory) && !in.compute.memory_capacity)
    a.push_back({Field::Parameters,
                 "accelerator memory not checked: neither the model's size nor its activations are given "
                 "(model.parameters, and model.activation_bytes per sample)"});
  else if (in.compute.memory_capacity && !in.compute.weights_counted)
    a.push_back({Field::Parameters,
                 "accelerator memory holds activations only: weights, gradients and optimizer state not counted "
                 "(model.parameters)"});
  else if (in.compute.memory_capacity && !in.compute.activation_bytes)
    a.push_back({Field::ActivationBytes,
                 "accelerator memory holds weights, gradients and optimizer state only: activations not counted "
                 "(model.activation_bytes per sample)"});
  if (in.storage.modelled && in.storage.cache_from_page_cache && in.nodes > 1 && !s.has(Field::Reshuffle))
    a.push_back({Field::Reshuffle,
                 "every epoch each node reads a different random share of the dataset, as a shuffled "
                 "DistributedSampler does, and its page cache keeps what it read: the cache warms over epochs "
                 "(cluster.reshuffle)"});
  // A request per sample, the default made for a file per image, meeting data that is not stored
  // so: samples smaller than a file system's block, or requests that set the storage's pace.
  if (in.storage.modelled && (in.storage.iops || in.storage.latency) && !s.has(Field::RequestSize) &&
      !s.has(Field::SamplesPerShard)) {
    const Result r = evaluate(in);
    const Limit limit = r.stage(Stage::Storage).limit;
    if (in.sample_bytes < kSmallFile || (r.binds(Stage::Storage) && (limit == Limit::Iops || limit == Limit::Latency)))
      a.push_back(
          {Field::SamplesPerShard,
           fmt::format("each sample is a file of its own, read in one request of {} (workload.samples_per_shard "
                       "for samples stored in shards: WebDataset, MDS, TFRecord, token shards; or "
                       "storage.request_size)",
                       format_significant(in.sample_bytes, Dim::Size, 4))});
  }
  // A decoder rate in samples (a preset's is for ImageNet JPEGs) meeting samples of many frames.
  if (in.transform.at == TransformAt::Decoder && !s.has(Field::DecoderFrameRate) && s.value(Field::FramesPerSample) > 1)
    a.push_back({Field::DecoderFrameRate,
                 fmt::format("the hardware decoder delivers accelerator.decoder_rate, {}, whatever the {} frames of "
                             "a sample (accelerator.decoder_fps, frames/s per engine at the samples' codec and "
                             "resolution, with accelerator.decoder_engines, counts them)",
                             format_compact(s.get(Field::DecoderRate), Dim::SampleRate),
                             format_compact(s.value(Field::FramesPerSample), Dim::Number))});
  if (in.storage.modelled && in.storage.read_bandwidth && !s.has(Field::Latency) && !s.has(Field::Iops))
    a.push_back({Field::Latency,
                 "storage at line rate: storage.read_bandwidth at any request size and concurrency "
                 "(storage.latency with storage.queue_depth, or storage.iops)"});
  return a;
}

namespace {

// What each of the storage's limits must give for one accelerator's `bytes` per batch to take
// at most `compute`.
StorageNeeds storage_needs(const Inputs& in, double bytes, double compute) {
  const StorageInputs& st = in.storage;
  StorageNeeds n{bytes * st.shared_by / compute, std::nullopt, std::nullopt, std::nullopt};
  if (bytes <= 0) return n;  // every read a page-cache hit
  if (st.iops) n.iops = ceil_count(bytes / st.request_bytes / compute * st.shared_by);
  if (st.latency) n.queue_depth = ceil_count(bytes * request_service_time(st) / (st.request_bytes * compute));
  if (const double node = bytes * in.accelerators / compute; st.node_cap && *st.node_cap < node)
    n.node_bandwidth = node;
  return n;
}

// The figures a diagnosis adds to the result: what each stage needs to keep up with compute,
// the capacity answers, the crossovers, what a real loader's mechanisms cost.
void needs(const Scenario& s, FixMemo* memo, bool whole, Diagnosis& d) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  const double B = in.batch;
  const double compute = r.stage(Stage::Compute).time_s;
  if (in.transform.cpu_work) {
    d.cores = core_needs(in.transform, in, compute, in.workers >= 1 ? pin_time(in, B) : 0);
    search_core_needs(s, memo, d, whole);
    d.workers_needed = d.cores->workers_full;
  }
  d.storage_needed = storage_needs(in, storage_bytes_per_batch(in.storage, in, B), compute);
  d.storage_bandwidth_needed_per_accelerator = d.storage_needed.bandwidth / in.storage.shared_by;
  if (in.storage.modelled) {
    d.storage_capacity = storage_capacity(in.storage, in, compute);
    // The first epoch reads every sample.
    if (in.storage.cache_hit >= 1) d.first_epoch_storage_needed = storage_needs(in, B * in.sample_bytes, compute);
  }
  if (in.transfer.modelled) d.link_bandwidth_needed = B * in.transfer.device_bytes * in.transfer.shared_by / compute;
  d.crossovers = confirm_crossovers(s, memo, find_crossovers(in));
  d.losses = fidelity_losses(s, r);
  if (const double ceiling = r.model_compute_s / (compute + r.sync_wait_s);
      r.sync_wait_s > 0 && ceiling < in.target_utilization)
    d.spread_ceiling = ceiling;
  d.max_batch = max_batch_that_fits(in.compute);
  // The decoder's samples/s: its engines' frames over a sample's frames, or its rate as measured.
  if (s.has(Field::DecoderFrameRate))
    d.scenario_decoder_rate =
        s.value(Field::DecoderEngines) * s.get(Field::DecoderFrameRate) / s.value(Field::FramesPerSample);
  else
    d.scenario_decoder_rate = s.opt(Field::DecoderRate).value_or(0);
  d.scenario_gpu_time = s.opt(Field::GpuTime).value_or(0);
  d.scenario_dtype = s.opt(Field::DeviceDtype).value_or(0);
}

// What the fixes of one diagnosis are built from, and how one is added: each re-runs the model
// with its changes.
struct FixContext {
  const Scenario& s;
  Diagnosis& d;
  const Inputs& in;
  const Result& r;
  double B;        // the batch size
  double compute;  // the compute stage's time per batch
  FixMemo* memo;   // fixes run before (null: none)

  void add(FixKind kind, std::vector<Change> changes) const {
    d.fixes.push_back(apply(kind, s, std::move(changes), memo));
  }
  // Kept only when it raises throughput.
  void add_if_faster(FixKind kind, std::vector<Change> changes) const {
    Fix f = apply(kind, s, std::move(changes), memo);
    if (f.result.throughput > r.throughput * (1 + 1e-9)) d.fixes.push_back(std::move(f));
  }

  // Each kind of fix, in the order diagnose offers them.
  void transform_fixes() const;
  double fewest_as_good(double most) const;
  void storage_fixes() const;
  void request_size_fix(double bytes) const;
  // The model with `changes`: the storage's reads take at most the compute stage's time.
  bool reads_keep_up(std::span<const Change> changes) const {
    return evaluate(resolve_changed(s, changes)).stage(Stage::Storage).time_s <= compute * (1 + 1e-12);
  }
  void local_cache_fix() const;
  static constexpr double kRequestStep = 1000;  // request sizes are searched in whole kB
  void transfer_fixes() const;
  void all_together() const;
  void fewer_workers() const;
  void smaller_batch() const;
};

// The training process binds when its pin thread, or its loop and pin thread taking turns on the
// interpreter lock, set the transfer stage.
bool process_binds(const Result& r) {
  const Limit l = r.stage(Stage::Transfer).limit;
  return r.binds(Stage::Transfer) && (l == Limit::PinThread || l == Limit::InterpreterLock);
}

// `most` workers (the node's cores full) keep the transform under compute, or as near as they
// can; where storage or the transfer (the training process) is slower than compute, fewer keep
// the transform at that wall and the rest add nothing while it binds. The fewest that reach what
// `most` reaches, checked by the model (more workers can slow that wall itself, on cores shared
// by time); else `most`.
double FixContext::fewest_as_good(double most) const {
  double wall = 0;
  for (Stage st : {Stage::Storage, Stage::Transfer})
    if (r.stage(st).modelled) wall = std::max(wall, r.stage(st).time_s);
  if (!(wall > compute) || r.stage(Stage::Transform).limit == Limit::Variance) return most;
  const auto fewer = workers_for(in.transform, worker_batch_time(in.transform, in, B) / wall);
  if (!fewer || *fewer <= in.workers || *fewer >= most) return most;
  const auto throughput_at = [&](double w) {
    const Change change{Field::Workers, {w, Dim::Number}};
    return run_changed(s, std::span(&change, 1), memo, [](const Result& at, double) { return at.throughput; });
  };
  return throughput_at(*fewer) >= throughput_at(most) * (1 - 1e-9) ? *fewer : most;
}

// The transform: overlap (workers = 0), more workers (and cores), decoding elsewhere, and under
// variance a deeper window or any ready batch.
void FixContext::transform_fixes() const {
  // The node's cores for `workers` per accelerator, a whole core each, and those reserved.
  const auto node_cores = [&](double workers) {
    return workers * in.transform.threads_per_core * in.accelerators + in.transform.reserved_cores;
  };
  if (r.serial) {
    const double need = std::max(1.0, d.workers_needed.value_or(1));
    // With every core of the node reserved (cpu.cores = cpu.reserved_cores), workers need cores
    // of their own: the fix adds them.
    if (in.transform.node_cores && !in.transform.cores_per_accelerator)
      add(FixKind::Overlap, {{Field::Workers, {need, Dim::Number}}, {Field::Cores, {node_cores(need), Dim::Number}}});
    else
      add(FixKind::Overlap, {{Field::Workers, {need, Dim::Number}}});
  }

  const bool transform_slow = in.transform.modelled && r.stage(Stage::Transform).time_s > compute;
  // Only when some number of workers keeps up (the scaling law may peak below the need). The
  // counts are the model's own (search_core_needs): variance, hardware threads and the training
  // process included.
  if (transform_slow && !r.serial && in.transform.cpu_work && r.stage(Stage::Transform).limit != Limit::Decoder &&
      d.cores->reachable) {
    const CoreNeeds& c = *d.cores;
    if (c.full_within_node) {
      if (c.workers_full > in.workers) add(FixKind::Workers, {{Field::Workers, {c.workers_full, Dim::Number}}});
    } else {  // the node's CPUs full first, then the CPUs that keep up
      if (c.workers_node_best > in.workers)
        add_if_faster(FixKind::WorkersWithinCores,
                      {{Field::Workers, {fewest_as_good(c.workers_node_best), Dim::Number}}});
      add(FixKind::WorkersAndCores,
          {{Field::Workers, {c.workers_at_node_full, Dim::Number}}, {Field::Cores, {c.node_full, Dim::Number}}});
    }
  }
  // Where the decoding runs: alternatives to CPU workers, when the scenario gives their figures
  // (each kept only when it raises throughput).
  if (transform_slow && in.transform.at == TransformAt::Cpu) {
    // On the CPU, transform.gpu_time of a sample of one frame (an image) is the GPU-decode
    // alternative's figure, which the hardware decoder replaces: its fix leaves no GPU work after
    // the decoder. A clip's (frames_per_sample > 1) is the GPU's work after the decoder.
    const bool clip = s.value(Field::FramesPerSample) > 1;
    if (s.has(Field::DecoderRate) || s.has(Field::DecoderFrameRate)) {
      std::vector<Change> changes{{Field::TransformDevice, {static_cast<double>(TransformAt::Decoder), Dim::Choice}}};
      if (s.has(Field::GpuTime) && !clip) changes.push_back({Field::GpuTime, {0, Dim::Duration}});
      add_if_faster(FixKind::DecodeOnDecoder, changes);
    }
    if (s.has(Field::GpuTime) && !clip)
      add_if_faster(FixKind::DecodeOnGpu,
                    {{Field::TransformDevice, {static_cast<double>(TransformAt::Gpu), Dim::Choice}}});
    if (s.has(Field::PredecodedSampleRate)) {
      const double size = s.opt(Field::PredecodedSampleSize).value_or(in.transfer.device_bytes);
      if (size > 0)
        add_if_faster(FixKind::Predecoded,
                      {{Field::SampleSize, {size, Dim::Size}},
                       {Field::WorkerSampleRate, {s.get(Field::PredecodedSampleRate), Dim::SampleRate}}});
    }
  }

  // Variance under the DataLoader's delivery: a deeper window, or any ready batch.
  if (r.stage(Stage::Transform).limit == Limit::Variance) {
    if (const auto p = smallest_that_binds(s, Field::PrefetchFactor, in.prefetch_factor + 1, 16, r.throughput))
      add(FixKind::Prefetch, {{Field::PrefetchFactor, {*p, Dim::Number}}});
    if (in.in_order) add_if_faster(FixKind::OutOfOrder, {{Field::InOrder, {0, Dim::Bool}}});
  }
}

// Storage: its aggregate or per-node bandwidth, IOPS, queue depth.
void FixContext::storage_fixes() const {
  if (in.storage.modelled && r.stage(Stage::Storage).time_s > compute) {
    const double bytes = storage_bytes_per_batch(in.storage, in, B);
    const StorageNeeds need = storage_needs(in, bytes, compute);
    if (bytes / in.storage.bandwidth > compute) {
      // The aggregate as a change: read_bandwidth, or the capacity of a per-TiB file system.
      const auto aggregate = [&](double needed) {
        if (s.has(Field::ThroughputPerTib))
          return Change{Field::StorageCapacity,
                        {std::ceil(needed / s.get(Field::ThroughputPerTib) * (1 - 1e-12)) * kTiB, Dim::Size}};
        return Change{Field::ReadBandwidth, {needed, Dim::Rate}};
      };
      if (in.storage.bandwidth_limit == Limit::Bandwidth) {
        add(FixKind::StorageBandwidth, {aggregate(d.storage_needed.bandwidth)});
      } else {
        std::vector<Change> changes{
            {in.storage.bandwidth_limit == Limit::Network ? Field::NetworkBandwidth : Field::NodeStorageBandwidth,
             {*need.node_bandwidth, Dim::Rate}}};
        if (in.storage.read_bandwidth && *in.storage.read_bandwidth < d.storage_needed.bandwidth)
          changes.push_back(aggregate(d.storage_needed.bandwidth));
        add(FixKind::StorageBandwidth, changes);
      }
    }
    if (in.storage.iops && bytes / in.storage.request_bytes / *in.storage.iops > compute) {
      add(FixKind::StorageIops, {{Field::Iops, {*need.iops, Dim::Number}}});
    }
    if (in.storage.latency &&
        bytes * request_service_time(in.storage) / (in.storage.queue_depth * in.storage.request_bytes) > compute) {
      add(FixKind::StorageQueueDepth, {{Field::QueueDepth, {*need.queue_depth, Dim::Number}}});
    }
    request_size_fix(bytes);
    local_cache_fix();
  }
}

// Where later epochs read from shared storage what a node's caches could hold: the smallest
// node-local cache (whole GB) at which the steady state's reads keep up, found over the model.
void FixContext::local_cache_fix() const {
  const StorageInputs& st = in.storage;
  // A cache in front of storage the nodes reach over the network (a node's own drives need none).
  if (!st.cache_from_page_cache || st.cache_hit >= 1 || in.dataset_bytes <= 0) return;
  if (st.scope != StorageScope::Cluster && st.local_cache_bytes <= 0) return;
  constexpr double kGB = 1e9;
  const double share = st.cached_share_bytes;
  const auto change = [&](double n) { return Change{Field::LocalCache, {n * kGB, Dim::Size}}; };
  const auto keeps_up = [&](double n) {
    const Change c = change(n);
    return reads_keep_up(std::span(&c, 1));
  };
  // The closed form's guess: the cache whose misses the storage reads in the compute's time.
  const double now = st.local_cache_bytes / kGB;
  const double hit_needed = 1 - compute / r.stage(Stage::Storage).time_s * (1 - st.cache_hit);
  const double guess = (hit_needed * share - (st.page_cache_bytes - st.local_cache_bytes)) / kGB;
  if (const auto n = fewest(std::floor(now) + 1, std::ceil(share / kGB), guess, keeps_up))
    add(FixKind::LocalCache, {change(*n)});
}

// Where the count of requests binds (IOPS, or latency with the requests in flight), larger
// requests: samples packed into shards read whole (data stored a file per sample), or larger
// pieces of the shards or record files (storage.request_size). The fewest that keeps the reads at
// or under compute, found over the model; none when the stream rate caps what larger requests give.
void FixContext::request_size_fix(double bytes) const {
  const Limit limit = r.stage(Stage::Storage).limit;
  if ((limit != Limit::Iops && limit != Limit::Latency) || bytes <= 0) return;
  const StorageInputs& st = in.storage;
  // The closed form's request size, the first guess: IOPS need bytes / (iops compute); latency
  // needs bytes (latency + R / stream) / (queue_depth R) <= compute.
  double guess = st.request_bytes;
  if (st.iops) guess = std::max(guess, bytes / (*st.iops * compute));
  if (st.latency) {
    const double room = st.queue_depth * compute - (st.stream_bandwidth ? bytes / *st.stream_bandwidth : 0);
    if (room <= 0) return;  // streaming alone, at queue_depth connections, is slower than compute
    guess = std::max(guess, bytes * *st.latency / room);
  }
  // Shards read whole (the default request): more samples to a shard; else larger pieces.
  const bool per_sample = !s.has(Field::RequestSize);
  const auto changes = [&](double n) -> std::vector<Change> {
    if (per_sample) return {{Field::SamplesPerShard, {n, Dim::Number}}};
    const double request = n * kRequestStep;
    if (st.shard_bytes && request > *st.shard_bytes)
      return {{Field::RequestSize, {request, Dim::Size}},
              {Field::SamplesPerShard, {std::ceil(request / in.sample_bytes), Dim::Number}}};
    return {{Field::RequestSize, {request, Dim::Size}}};
  };
  const auto keeps_up = [&](double n) { return reads_keep_up(changes(n)); };
  // Shards of up to a whole epoch's samples (or a billion); pieces of up to 16 GB.
  const double unit = per_sample ? in.sample_bytes : kRequestStep;
  const double most = per_sample ? in.dataset_samples.value_or(1e9) : 16e9 / kRequestStep;
  const double now = st.request_bytes / unit;
  if (const auto n = fewest(std::floor(now) + 1, most, guess / unit, keeps_up))
    add(FixKind::StorageRequestSize, changes(*n));
}

// The transfer: pinned memory, link bandwidth; when the training process binds a faster link does
// not help, but fewer bytes per sample for the workers to collate and the pin thread to copy do
// (uint8 samples converted on the accelerator, when the scenario gives the dtype).
void FixContext::transfer_fixes() const {
  const Limit transfer_limit = r.stage(Stage::Transfer).limit;
  if (in.transfer.modelled) {
    if (!in.transfer.pinned && !r.serial && r.binds(Stage::Transfer))
      add(FixKind::PinMemory, {{Field::LinkPinned, {1, Dim::Bool}}});
    if (r.stage(Stage::Transfer).time_s > compute && in.transfer.pinned && transfer_limit == Limit::Link)
      add(FixKind::LinkBandwidth, {{Field::LinkBandwidth, {*d.link_bandwidth_needed, Dim::Rate}}});
    const auto dtype = s.opt(Field::DeviceDtype);
    if (process_binds(r) && !r.serial && dtype && dtype_bytes(static_cast<Dtype>(*dtype)) > 1)
      add_if_faster(FixKind::Uint8Samples, {{Field::DeviceDtype, {static_cast<double>(Dtype::Uint8), Dim::Choice}}});
  }
}

void FixContext::all_together() const {
  // With more than one wall, no single fix suffices: show them together (one way to decode).
  std::size_t walls = 0;
  std::vector<Change> all;
  bool decode_taken = false;
  for (const auto& f : d.fixes) {
    if (f.kind == FixKind::WorkersWithinCores) continue;  // workers_and_cores goes further
    const bool decode =
        f.kind == FixKind::DecodeOnDecoder || f.kind == FixKind::DecodeOnGpu || f.kind == FixKind::Predecoded;
    if (decode && decode_taken) continue;
    if (decode && std::any_of(d.fixes.begin(), d.fixes.end(), [](const Fix& g) {
          return g.kind == FixKind::Workers || g.kind == FixKind::WorkersAndCores;
        }))
      continue;  // workers already fix the transform
    decode_taken |= decode;
    ++walls;
    for (const auto& ch : f.changes) {
      auto same = std::find_if(all.begin(), all.end(), [&](const Change& a) { return a.field == ch.field; });
      if (same != all.end())
        *same = ch;
      else
        all.push_back(ch);
    }
  }
  if (walls > 1) add(FixKind::AllTogether, all);
}

void FixContext::fewer_workers() const {
  // Fewer workers, when more lose throughput: past the cores time slicing costs the work more
  // (cpu.oversubscription_cost), past the scaling law's peak contention does. Below the cores
  // (and the peak) more workers deliver more, past them less, so the best count is at the
  // cores (fewer by the training process and the pin thread when they share them, cpu_tasks) or
  // at the peak: of those below W, the one of highest throughput, offered when it beats W; not
  // a wall of its own, so not in "all of the above".
  const TransformInputs& t = in.transform;
  const double logical = t.cores_per_accelerator.value_or(0);
  const double tasks = cpu_tasks(in);
  const double others = tasks - in.workers;  // the training process and pin thread
  const bool slicing = t.oversubscription > 0 && logical > 0 && tasks > logical;
  // The training process's threads slowed by busy workers on the cores they share.
  const bool crowded = process_binds(r) && r.thread_rate < 1 && logical > 0;
  if (t.modelled && t.cpu_work && !r.serial && in.workers >= 2 &&
      ((r.binds(Stage::Transform) && (slicing || t.kappa > 0)) || crowded)) {
    std::vector<double> counts;
    if (slicing || crowded) {
      counts.push_back(std::ceil(logical));
      for (double k = 0; k <= others + 1; ++k) counts.push_back(std::floor(logical) - k);
    }
    if (d.cores && d.cores->peak_workers > 0)
      counts.insert(counts.end(), {d.cores->peak_workers - 1, d.cores->peak_workers, d.cores->peak_workers + 1});
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    std::optional<double> best;
    double throughput = r.throughput * (1 + 1e-9);
    for (double w : counts) {
      if (w < 1 || w >= in.workers) continue;
      const Change change{Field::Workers, {w, Dim::Number}};
      const double got =
          run_changed(s, std::span(&change, 1), memo, [](const Result& fewer, double) { return fewer.throughput; });
      if (got > throughput) {
        best = w;
        throughput = got;
      }
    }
    if (best) add(FixKind::FewerWorkers, {{Field::Workers, {*best, Dim::Number}}});
  }
}

void FixContext::smaller_batch() const {
  // A smaller batch at the crossover: the accelerator binds, but throughput does not rise.
  for (const auto& cx : d.crossovers) {
    if (!cx.input_binds_above || cx.last_batch >= B) continue;
    if (cx.last_batch >= 1) add(FixKind::SmallerBatch, {{Field::BatchSize, {cx.last_batch, Dim::Number}}});
    break;
  }
}

}  // namespace

Diagnosis diagnose(const Scenario& s) { return diagnose(s, nullptr); }

namespace {

void diagnose_into(const Scenario& s, FixMemo* memo, bool whole, Diagnosis& d);

}  // namespace

Diagnosis diagnose(const Scenario& s, FixMemo* memo) {
  Diagnosis d;
  diagnose_into(s, memo, true, d);
  return d;
}

void diagnose(const Scenario& s, FixMemo* memo, Diagnosis& d) { diagnose_into(s, memo, false, d); }

namespace {

void diagnose_into(const Scenario& s, FixMemo* memo, bool whole, Diagnosis& d) {
  // Every figure from scratch, the fixes' storage kept.
  std::vector<Fix> fixes = std::move(d.fixes);
  fixes.clear();
  d = Diagnosis{};
  d.fixes = std::move(fixes);
  d.inputs = resolve(s);
  d.result = evaluate(d.inputs);
  needs(s, memo, whole, d);
  const FixContext c{s, d, d.inputs, d.result, d.inputs.batch, d.result.stage(Stage::Compute).time_s, memo};
  // A batch that does not fit is the first thing to fix: nothing else runs.
  if (!d.result.fits) {
    if (d.max_batch && *d.max_batch >= 1) c.add(FixKind::FitMemory, {{Field::BatchSize, {*d.max_batch, Dim::Number}}});
    return;
  }
  if (d.result.compute_bound()) return;  // compute-bound: nothing to fix
  // Room for the fixes a diagnosis usually offers, at once: each holds a whole result, which the
  // vector would otherwise move at every growth.
  d.fixes.reserve(6);
  c.transform_fixes();
  c.storage_fixes();
  c.transfer_fixes();
  c.all_together();
  // A fix is offered only where it moves what it names: another wall may bind as soon as its
  // own is gone (it still counts in the fixes all together), and all of them together may leave
  // a wall that none of them moves (a transform no count of workers keeps up with).
  std::erase_if(d.fixes, [&](const Fix& f) {
    return !(f.result.throughput > d.result.throughput * (1 + 1e-9)) &&
           !(f.result.utilization > d.result.utilization * (1 + 1e-9));
  });
  c.fewer_workers();
  c.smaller_batch();
}

}  // namespace

Diagnosis diagnose_with_assumptions(const Scenario& s) {
  Diagnosis d = diagnose(s);
  d.assumptions = assumptions(s, d.inputs);
  return d;
}

}  // namespace pipesim
