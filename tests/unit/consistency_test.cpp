// One answer: every count and fix a diagnosis gives is confirmed by the forward model, run at the
// answer, over the shipped presets composed into nodes and workloads and seeded random overrides
// (hardware threads, reserved CPUs, cores, scaling, time slicing, the training process sharing
// the CPUs, variance, persistent workers, nodes, shared storage, page cache). A sweep's row holds
// the same fixes as the diagnosis of its point. check's figure for each requirement, compare's
// rows and a sweep's verdicts over a plan are the diagnosis's own figures at each point.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../support/scenarios.hpp"
#include "config/loader.hpp"
#include "core/analyses/check.hpp"
#include "core/analyses/compare.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep_run.hpp"
#include "core/sim/simulate.hpp"

using namespace pipesim;

namespace {

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t seed) : rng(seed) {}
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); }
  double whole(double a, double b) { return std::floor(uniform(a, b + 1)); }
  bool coin(double p = 0.5) { return uniform(0, 1) < p; }
};

// The shipped nodes with the shipped workloads that run on the CPU, on a few storages.
std::vector<Scenario> preset_scenarios() {
  std::vector<Scenario> out;
  for (const char* node : {"dgx-h100", "dgx-a100", "p4d-24xlarge", "p5-48xlarge", "g5-xlarge"})
    for (const char* work : {"resnet50-imagenet-h100", "resnet50-imagenet-amp", "resnet18-imagenet-h100",
                             "vit-b16-imagenet", "medical-images-5mb", "resnet50-reference"})
      for (const char* rest : {"+nvme-gen4", "+nfs-10gbe", "+nvme-gen4+pytorch-dataloader-gpu-node", "+s3"}) {
        const std::string name = std::string(node) + "+" + work + rest;
        try {
          Scenario s = load_scenario(name).scenario;
          if (!s.has(Field::BatchSize)) s.set(Field::BatchSize, 256);
          if (!s.has(Field::Workers)) s.set(Field::Workers, 8);
          (void)evaluate(resolve(s));
          out.push_back(s);
        } catch (const FieldError&) {
          // A composition that is no complete scenario (a workload without the step of this
          // node's accelerator, say): left out.
        } catch (const Error&) {
        }
      }
  return out;
}

// A draw of the overrides the answers must stay true under.
void override_randomly(Gen& g, Scenario& s) {
  s.set(Field::Workers, g.whole(1, 40));
  if (g.coin(0.7)) s.set(Field::TransformCost, {std::exp(g.uniform(std::log(2e-4), std::log(2e-2))), Dim::Duration});
  if (g.coin(0.5)) s.set(Field::BatchSize, g.coin() ? 64 : g.whole(16, 512));
  if (g.coin(0.5)) {
    const double accelerators = s.get(Field::AcceleratorCount);
    s.set(Field::Cores, accelerators * g.whole(2, 40) + g.whole(0, 16));
  }
  if (g.coin(0.4)) s.set(Field::ThreadsPerCore, g.coin() ? 1 : 2);
  if (g.coin(0.3)) s.set(Field::SmtYield, g.uniform(0.05, 0.6));
  if (g.coin(0.2)) s.set(Field::ReservedCores, g.whole(0, 8));
  if (g.coin(0.3)) s.set(Field::ScalingContention, g.uniform(0, 0.05));
  if (g.coin(0.2)) s.set(Field::ScalingCoherency, g.uniform(1e-5, 2e-3));
  if (g.coin(0.3)) s.set(Field::OversubscriptionCost, g.uniform(0, 0.3));
  if (g.coin(0.3)) s.set(Field::LoopCpuShare, g.uniform(0, 1));
  if (g.coin(0.2)) s.set(Field::LoopWait, {static_cast<double>(g.whole(0, 2)), Dim::Choice});
  if (g.coin(0.3)) s.set(Field::TransformCv, g.uniform(0, 0.6));
  if (g.coin(0.2)) s.set(Field::PersistentWorkers, {1, Dim::Bool});
  if (g.coin(0.2)) s.set(Field::Nodes, g.whole(1, 16));
  if (g.coin(0.2)) s.set(Field::StorageScope, {static_cast<double>(StorageScope::Cluster), Dim::Choice});
  if (g.coin(0.2)) s.set(Field::PageCache, {g.uniform(1e9, 4e11), Dim::Size});
  if (g.coin(0.2)) s.set(Field::SamplesPerShard, g.whole(1, 20000));
  if (g.coin(0.1)) s.set(Field::RequestSize, {std::exp(g.uniform(std::log(4e3), std::log(64e6))), Dim::Size});
  if (g.coin(0.15)) s.set(Field::LocalCache, {g.uniform(1e10, 2e12), Dim::Size});
  if (g.coin(0.15)) {  // video: a worker's time per frame, over the frames of a clip
    s.set(Field::FramesPerSample, g.whole(1, 64));
    s.set(Field::FrameCost, {std::exp(g.uniform(std::log(1e-4), std::log(5e-3))), Dim::Duration});
  }
  if (g.coin(0.15)) {  // lengths that vary, padded to the batch's longest, bucketed or not
    s.set(Field::Padding, {static_cast<double>(Padding::Longest), Dim::Choice});
    s.set(Field::SampleSizeCv, g.uniform(0.1, 1));
    s.set(Field::LengthBuckets, g.whole(1, 16));
  }
}

// The model at `workers` per accelerator, on `cpus` for the node when > 0.
Result at(const Scenario& s, double workers, double cpus = 0) {
  Scenario t = s;
  t.set(Field::Workers, workers);
  if (cpus > 0) t.set(Field::Cores, cpus);
  return evaluate(resolve(t));
}

// Compute over the transform's time: the transform's own bound on utilization.
double ratio(const Result& r) {
  const double t = r.stage(Stage::Transform).time_s;
  return t > 0 ? r.stage(Stage::Compute).time_s / t : 1e300;
}

bool reaches(const Result& r, double goal) { return ratio(r) >= goal * (1 - 1e-9); }

struct Tally {
  int diagnosed = 0, counts = 0, cpus = 0, fixes = 0, rows = 0, storage = 0, first_epoch = 0, crossovers = 0,
      capacity = 0, link = 0, larger = 0;
};

// Every count of the diagnosis of `s` is sufficient and the fewest, by the model.
void counts_hold(const Scenario& s, const Diagnosis& d, Tally& n) {
  if (!d.cores || d.inputs.transform.decoder_seconds_per_sample > 0) return;
  const CoreNeeds& c = *d.cores;
  const double target = d.inputs.target_utilization;
  const auto logical = d.inputs.transform.cores_per_accelerator;
  if (c.full_within_node && c.reachable) {
    ++n.counts;
    CHECK(reaches(at(s, c.workers_full), 1));
    // The fewest: no smaller count keeps up (every one checked, up to 64).
    for (double w = std::max(1.0, c.workers_full - 64); w < c.workers_full; ++w) {
      CAPTURE(w);
      CHECK_FALSE(reaches(at(s, w), 1));
    }
  }
  if (c.target_within_node && c.reachable) {
    CHECK(reaches(at(s, c.workers_target), target));
    if (c.workers_target > 1) CHECK_FALSE(reaches(at(s, c.workers_target - 1), target));
  }
  if (!c.reachable || !logical) return;
  // The fewest CPUs for the node: keep up with the workers named, and one CPU fewer does not
  // with any count of workers (up to a CPU each and one more).
  ++n.cpus;
  CHECK(reaches(at(s, c.workers_at_node_full, c.node_full), 1));
  const double fewer = c.node_full - 1;
  const double reserved = d.inputs.transform.reserved_cores;
  if (fewer > reserved && c.node_full < 2000) {
    const double top = std::ceil((fewer - reserved) / d.inputs.accelerators) + 1;
    for (double w = 1; w <= top; ++w) {
      CAPTURE(w);
      CHECK_FALSE(reaches(at(s, w, fewer), 1));
    }
  }
}

// What the storage needs, applied: its reads keep up with compute. In the steady state, and where
// later epochs read from the page cache, in the first epoch.
void storage_needs_hold(const Scenario& s, const Diagnosis& d, Tally& n) {
  if (!d.inputs.storage.modelled || s.has(Field::ThroughputPerTib)) return;
  const auto keeps_up = [&](const StorageNeeds& need, bool first_epoch) {
    Scenario t = s;
    if (d.inputs.storage.read_bandwidth) t.set(Field::ReadBandwidth, {need.bandwidth, Dim::Rate});
    if (need.iops) t.set(Field::Iops, *need.iops);
    if (need.queue_depth) t.set(Field::QueueDepth, *need.queue_depth);
    if (need.node_bandwidth)
      t.set(d.inputs.storage.node_cap_limit == Limit::Network ? Field::NetworkBandwidth : Field::NodeStorageBandwidth,
            {*need.node_bandwidth, Dim::Rate});
    Inputs in = resolve(t);
    if (first_epoch) in.storage.cache_hit = in.storage.cold_cache_hit.value_or(in.storage.cache_hit);
    const Result r = evaluate(in);
    CAPTURE(first_epoch);
    CHECK(r.stage(Stage::Storage).time_s <= r.stage(Stage::Compute).time_s * (1 + 1e-9));
  };
  if (d.storage_needed.bandwidth > 0) {
    ++n.storage;
    keeps_up(d.storage_needed, false);
  }
  if (d.first_epoch_storage_needed) {
    ++n.first_epoch;
    keeps_up(*d.first_epoch_storage_needed, true);
  }
}

// The host-to-device bandwidth needed (of the copy: the link's when pinned, else the pageable
// copy's), applied: the transfer keeps up with compute.
void link_needs_hold(const Scenario& s, const Diagnosis& d, Tally& n) {
  if (!d.link_bandwidth_needed) return;
  ++n.link;
  Scenario t = s;
  const double need = *d.link_bandwidth_needed;
  if (d.inputs.transfer.pinned)
    t.set(Field::LinkBandwidth, {need, Dim::Rate});
  else if (s.has(Field::PageableBandwidth))
    t.set(Field::PageableBandwidth, {need, Dim::Rate});
  else
    t.set(Field::LinkBandwidth, {need / 0.4, Dim::Rate});
  const Inputs in = resolve(t);
  const Result r = evaluate(in);
  // The copy's own time (the pin thread's and the interpreter lock's have answers of their own).
  CHECK(transfer_time(in.transfer, in.batch) <= r.stage(Stage::Compute).time_s * (1 + 1e-9));
  if (r.stage(Stage::Transfer).limit == Limit::Link || r.stage(Stage::Transfer).limit == Limit::PageableLink)
    CHECK(r.stage(Stage::Transfer).time_s <= r.stage(Stage::Compute).time_s * (1 + 1e-9));
}

// The accelerators the storage feeds at the target (one node's own cap aside, which the answer
// names apart): shared by that many, the storage's own bound on utilization reaches the target,
// and shared by one more it does not.
void storage_capacity_holds(const Scenario& s, const Diagnosis& d, Tally& n) {
  if (!d.storage_capacity || !d.storage_capacity->accelerators || s.has(Field::ThroughputPerTib)) return;
  const double fed = *d.storage_capacity->accelerators;
  if (fed > 1e6) return;
  ++n.capacity;
  const auto bound = [&](double sharing) {
    Scenario t = s;
    t.set(Field::StorageSharedBy, sharing);
    // Object storage has no aggregate bandwidth: its node cap stays, out of the way.
    if (t.has(Field::ReadBandwidth) || t.has(Field::ThroughputPerTib))
      t.unset(Field::NodeStorageBandwidth);
    else
      t.set(Field::NodeStorageBandwidth, {1e18, Dim::Rate});
    t.unset(Field::NetworkBandwidth);
    const Result r = evaluate(resolve(t));
    return r.stage(Stage::Compute).time_s / r.stage(Stage::Storage).time_s;
  };
  const double target = d.inputs.target_utilization;
  CAPTURE(fed);
  if (fed >= 1) CHECK(bound(fed) >= target * (1 - 1e-9));
  CHECK(bound(fed + 1) < target);
}

// The model at batch size `b`: the input stage that crosses compute binds and the accelerator
// does not.
bool input_binds(const Scenario& s, Stage input, double b) {
  Scenario t = s;
  t.set(Field::BatchSize, b);
  const Result r = evaluate(resolve(t));
  return r.binds(input) && !r.binds(Stage::Compute);
}

// Each crossover, run at its last batch and the next: the wall it names binds at each.
void crossovers_hold(const Scenario& s, const Diagnosis& d, Tally& n) {
  for (const Crossover& cx : d.crossovers) {
    ++n.crossovers;
    CAPTURE(cx.batch);
    CHECK(input_binds(s, cx.input_stage, cx.last_batch) != cx.input_binds_above);
    CHECK(input_binds(s, cx.input_stage, cx.last_batch + 1) == cx.input_binds_above);
    CHECK(cx.batch >= cx.last_batch);
    CHECK(cx.batch <= cx.last_batch + 1);
  }
}

// Every fix, applied, gives the figures it claims, and moves one of them.
void fixes_hold(const Scenario& s, const Diagnosis& d, Tally& n) {
  for (const Fix& f : d.fixes) {
    ++n.fixes;
    CAPTURE(fix_key(f.kind));
    Scenario applied = s;
    for (const Change& c : f.changes) applied.set(c.field, c.value);
    const Result r = evaluate(resolve(applied));
    CHECK(r.utilization == f.result.utilization);
    CHECK(r.throughput == f.result.throughput);
    const bool moves = r.throughput > d.result.throughput * (1 + 1e-9) ||
                       r.utilization > d.result.utilization * (1 + 1e-9) || (f.kind == FixKind::FitMemory && r.fits);
    CHECK(moves);
  }
  for (const FidelityLoss& l : d.losses)
    if (l.persistent) CHECK(*l.persistent > *d.result.epoch_utilization);
}

// Larger requests and a local cache: the size each names keeps the storage's reads within compute
// (whole samples per shard, whole kB per request, whole GB of cache), and one step less does not.
void fewest_storage_fixes_hold(const Scenario& s, const Diagnosis& d, Tally& n) {
  for (const Fix& f : d.fixes) {
    if (f.kind != FixKind::StorageRequestSize && f.kind != FixKind::LocalCache) continue;
    ++n.larger;
    // One step of the search (a GB, a kB, a sample), and the scenario's value, in the field's unit.
    const Change& first = f.changes[0];
    const double step = first.field == Field::LocalCache ? 1e9 : first.field == Field::RequestSize ? 1e3 : 1;
    const double now = first.field == Field::LocalCache    ? d.inputs.storage.local_cache_bytes
                       : first.field == Field::RequestSize ? d.inputs.storage.request_bytes
                                                           : d.inputs.storage.request_bytes / d.inputs.sample_bytes;
    const auto keeps_up = [&](double less) {
      Scenario t = s;
      for (const Change& c : f.changes) t.set(c.field, c.value);
      const double value = first.value.value - less * step;
      t.set(first.field, {value, first.value.dim});
      if (f.changes.size() > 1) t.set(Field::SamplesPerShard, std::ceil(value / d.inputs.sample_bytes));
      const Result r = evaluate(resolve(t));
      return r.stage(Stage::Storage).time_s <= r.stage(Stage::Compute).time_s * (1 + 1e-12);
    };
    CAPTURE(fix_key(f.kind));
    CHECK(keeps_up(0));
    if (first.value.value - step > now) CHECK_FALSE(keeps_up(1));
  }
}

// A sweep's row (diagnosed with a memo, into a reused diagnosis) holds the point's own fixes.
void row_equals(const Scenario& s, const Diagnosis& d, FixMemo& memo, Diagnosis& row, Tally& n) {
  ++n.rows;
  diagnose(s, &memo, row);
  CAPTURE(s.get(Field::Workers));
  REQUIRE(row.fixes.size() == d.fixes.size());
  for (std::size_t i = 0; i < d.fixes.size(); ++i) {
    CHECK(row.fixes[i].kind == d.fixes[i].kind);
    REQUIRE(row.fixes[i].changes.size() == d.fixes[i].changes.size());
    for (std::size_t k = 0; k < d.fixes[i].changes.size(); ++k)
      CHECK(row.fixes[i].changes[k].value.value == d.fixes[i].changes[k].value.value);
    CHECK(row.fixes[i].result.throughput == d.fixes[i].result.throughput);
  }
}

}  // namespace

TEST_CASE("one answer: counts, CPUs and fixes confirmed by the model over presets and random overrides") {
  const std::vector<Scenario> presets = preset_scenarios();
  REQUIRE(presets.size() >= 40);
  Gen g(20261201);
  Tally n;
  const std::array<Field, 2> varying{Field::Workers, Field::BatchSize};
  Diagnosis row;
  for (int i = 0; i < 400; ++i) {
    Scenario s = presets[static_cast<std::size_t>(i) % presets.size()];
    if (i >= static_cast<int>(presets.size())) override_randomly(g, s);
    CAPTURE(i);
    Diagnosis d;
    try {
      d = diagnose(s);
    } catch (const FieldError&) {
      continue;  // an inconsistent draw (no CPU left for workers): refused, fine
    }
    ++n.diagnosed;
    counts_hold(s, d, n);
    storage_needs_hold(s, d, n);
    crossovers_hold(s, d, n);
    storage_capacity_holds(s, d, n);
    link_needs_hold(s, d, n);
    fixes_hold(s, d, n);
    fewest_storage_fixes_hold(s, d, n);
    // Two rows of one sweep over workers, sharing a memo as a sweep's thread does.
    FixMemo memo(varying);
    row_equals(s, d, memo, row, n);
    Scenario other = s;
    other.set(Field::Workers, s.get(Field::Workers) + 3);
    row_equals(other, diagnose(other), memo, row, n);
  }
  MESSAGE("diagnosed ", n.diagnosed, ", counts ", n.counts, ", CPU answers ", n.cpus, ", fixes ", n.fixes,
          ", storage needs ", n.storage, ", first-epoch storage needs ", n.first_epoch, ", crossovers ", n.crossovers,
          ", storage capacities ", n.capacity, ", link needs ", n.link, ", larger requests and caches ", n.larger);
  CHECK(n.diagnosed >= 300);
  CHECK(n.counts >= 100);
  CHECK(n.cpus >= 50);
  CHECK(n.fixes >= 200);
  CHECK(n.storage >= 50);
  CHECK(n.first_epoch >= 50);
  CHECK(n.crossovers >= 100);
  CHECK(n.capacity >= 50);
  CHECK(n.link >= 50);
  CHECK(n.larger >= 10);
}

namespace {

Requirement require(Metric m, double threshold) {
  Requirement r{m, threshold, 0, {}, false};
  return r;
}

// The run of a scenario: a dataset, its epochs and, half the time, a price.
void with_run(Gen& g, Scenario& s) {
  if (!s.has(Field::DatasetSamples)) s.set(Field::DatasetSamples, g.whole(1e5, 2e6));
  s.set(Field::Epochs, g.whole(1, 90));
  if (g.coin()) s.set(Field::PricePerHour, {g.uniform(2, 100), Dim::MoneyRate});
}

}  // namespace

TEST_CASE("one answer: check, compare and a sweep over a plan judge the diagnosis's own figures") {
  const std::vector<Scenario> presets = preset_scenarios();
  Gen g(20261202);
  int checked = 0, swept = 0, picked = 0;
  for (int i = 0; i < 120; ++i) {
    Scenario s = presets[static_cast<std::size_t>(i) % presets.size()];
    override_randomly(g, s);
    with_run(g, s);
    CAPTURE(i);
    Diagnosis d;
    try {
      d = diagnose(s);
    } catch (const FieldError&) {
      continue;
    }
    const Result& r = d.result;
    REQUIRE(r.worst_epoch);
    REQUIRE(r.run_utilization);
    Plan plan;
    plan.accept_elsewhere = true;
    plan.accept_extrapolated = true;
    plan.accept_unmodelled = 0xF;
    plan.requirements = {require(Metric::Utilization, g.uniform(0.3, 1)), require(Metric::RunUtilization, 0.5),
                         require(Metric::EpochTime, *r.epoch_s * g.uniform(0.8, 1.5))};
    if (g.coin()) plan.steady_only = true;
    const PlanOutcome o = check_plan(s, plan);
    ++checked;
    // Every epoch, its start and a cold first epoch included, unless the plan says steady.
    const double every = std::min(r.utilization, r.worst_epoch->utilization);
    CHECK(o.outcomes[0].value == (plan.steady_only ? r.utilization : every));
    // Met, it passes unless simulate disagrees with the closed forms there (then unverified).
    CHECK(o.outcomes[0].pass == (o.outcomes[0].value >= plan.requirements[0].threshold && !o.outcomes[0].disagreement));
    CHECK(o.outcomes[1].value == *r.run_utilization);
    CHECK(o.outcomes[2].value == (plan.steady_only ? *r.epoch_s : std::max(*r.epoch_s, r.worst_epoch->epoch_s)));
    if (r.price_per_hour) CHECK(*r.run_cost == doctest::Approx(*r.run_s * *r.price_per_hour / 3600).epsilon(1e-12));

    // compare: each row the plan's own figures; no failing plan is best beside one that does not fail.
    Scenario other = s;
    other.set(Field::Workers, std::max(1.0, s.get(Field::Workers) - 2));
    Result ro;
    try {
      ro = evaluate(resolve(other));
    } catch (const FieldError&) {
      continue;
    }
    const PlanOutcome oo = check_plan(other, plan);
    const std::vector<bool> fails{o.verdict == Verdict::Fail, oo.verdict == Verdict::Fail};
    for (const CompareRow& row : compare({r, ro}, fails)) {
      CAPTURE(compare_key(row.metric));
      CHECK(row.values[0] == compare_value(row.metric, r));
      CHECK(row.values[1] == compare_value(row.metric, ro));
      if (fails[0] != fails[1])
        for (std::size_t j = 0; j < 2; ++j) CHECK_FALSE((row.best[j] && fails[j]));
    }

    // A sweep over the plan: each row's verdict is check's at that point, and the pick is the
    // passing point ranked first, the earliest among equals.
    const std::vector<Axis> axes{parse_axis("pipeline.workers", "1,4,8,16,24"), parse_axis("cluster.nodes", "1,4")};
    std::vector<std::optional<Verdict>> verdicts;
    std::vector<std::optional<Rank>> ranks;
    for_each_point(s, axes, [&](const Scenario& p, std::size_t) {
      try {
        const PlanOutcome po = check_plan(p, plan);
        verdicts.push_back(po.verdict);
        ranks.push_back(po.verdict == Verdict::Pass ? std::optional(rank(evaluate(resolve(p)))) : std::nullopt);
      } catch (const Error&) {
        verdicts.push_back(std::nullopt);
        ranks.push_back(std::nullopt);
      }
    });
    std::vector<std::optional<Verdict>> rows(verdicts.size());
    const SweepRun run{2, false, nullptr, &plan};
    const SweepSummary summary = run_sweep(
        s, axes, run,
        [&](std::size_t k, const SweepPoint& p, std::string&) {
          if (p.outcome) rows[k] = p.outcome->verdict;
        },
        [](const std::string&, std::size_t) {});
    ++swept;
    CHECK(rows == verdicts);
    std::optional<std::size_t> best;
    for (std::size_t k = 0; k < ranks.size(); ++k)
      if (ranks[k] && (!best || ranks_before(*ranks[k], *ranks[*best]))) best = k;
    REQUIRE(summary.pick.has_value() == best.has_value());
    if (best) {
      ++picked;
      CHECK(summary.pick->index == *best);
    }
  }
  MESSAGE("checked ", checked, ", swept ", swept, ", picked ", picked);
  CHECK(checked >= 80);
  CHECK(picked >= 10);
}

namespace {

// simulate's steady utilization of `s`, and the closed forms' at the same point.
std::pair<double, double> simulated_and_closed(const Scenario& s) {
  Inputs in = resolve(s);
  in.dataset_samples.reset();  // the steady run alone
  const Simulation m = simulate(in, SimOptions{});
  return {m.utilization, m.analytic.utilization};
}

// check's verdict on a requirement any point meets, at `s`: unverified with simulate's figure
// where simulate and the closed forms are more than kAgreement apart, else a pass.
void check_rests_on_simulate(const Scenario& s, std::pair<double, double> u) {
  Plan plan;
  plan.requirements.push_back(require(Metric::Utilization, 1e-4));  // met by any point (object storage: 0.6%)
  plan.accept_unmodelled = ~0u;
  plan.accept_elsewhere = true;
  plan.accept_extrapolated = true;
  const PlanOutcome p = check_plan(s, plan);
  const Outcome& o = p.outcomes.front();
  if (std::abs(u.first - u.second) > kAgreement) {
    REQUIRE(o.disagreement);
    CHECK(o.disagreement->simulated == u.first);
    CHECK(o.verdict == Verdict::Unverified);
  } else {
    CHECK_FALSE(o.disagreement);
    CHECK(o.verdict == Verdict::Pass);
  }
}

// For a random draw: whether simulate and the closed forms part at `s`, check held to it as
// above; nothing where the run cannot be simulated (too long, or an inconsistent draw).
std::optional<bool> parted_and_checked(const Scenario& s) {
  std::pair<double, double> u;
  try {
    u = simulated_and_closed(s);
  } catch (const Error&) {
    return std::nullopt;
  }
  check_rests_on_simulate(s, u);
  return std::abs(u.first - u.second) > kAgreement;
}

}  // namespace

TEST_CASE("one answer: the closed forms agree with simulate, and check says where they cannot") {
  // The step's spread over accelerators that step together, on a grid of spreads, accelerators
  // and nodes, with the workers far ahead and at the balance point: within kAgreement.
  double worst = 0;
  for (double transform_ms : {0.2, 0.9})
    for (double cv : {0.0, 0.1, 0.2, 0.4})
      for (double accelerators : {1, 2, 8})
        for (double nodes : {1, 3}) {
          Scenario s = test::loader(8, transform_ms);
          s.set(Field::StepCv, cv);
          s.set(Field::AcceleratorCount, accelerators);
          s.set(Field::Nodes, nodes);
          const auto [simulated, closed] = simulated_and_closed(s);
          CAPTURE(transform_ms);
          CAPTURE(cv);
          CAPTURE(accelerators);
          CAPTURE(nodes);
          CHECK(std::abs(simulated - closed) <= kAgreement);
          if (cv == 0) CHECK(std::abs(simulated - closed) <= 0.005);
          worst = std::max(worst, std::abs(simulated - closed));
        }
  MESSAGE("the step's spread: the largest difference ", worst);
  // Presets with random spreads: where simulate and the closed forms are more than kAgreement
  // apart, check leaves every requirement resting on the step unverified, with simulate's figure.
  const std::vector<Scenario> presets = preset_scenarios();
  Gen g(20261203);
  int compared = 0, apart = 0;
  for (int i = 0; i < 40; ++i) {
    Scenario s = presets[static_cast<std::size_t>(i * 7) % presets.size()];
    s.set(Field::Workers, g.whole(2, 16));
    s.set(Field::BatchSize, g.whole(8, 64));  // small batches: a batch's time varies most
    if (g.coin(0.6)) s.set(Field::TransformCv, g.uniform(0, 3));
    if (g.coin(0.6)) s.set(Field::StepCv, g.uniform(0, 0.4));
    if (g.coin(0.3)) s.set(Field::Nodes, g.whole(1, 4));
    CAPTURE(i);
    const std::optional<bool> parted = parted_and_checked(s);
    if (!parted) continue;
    ++compared;
    apart += *parted;
  }
  MESSAGE("compared ", compared, ", apart ", apart);
  CHECK(compared >= 30);
  CHECK(apart >= 1);
}

TEST_CASE("one answer: on CPUs shared by time the closed forms follow simulate, and check says where they part") {
  // Workers, a training process that holds a core for some of the compute and its own time, on
  // 2 or 4 CPUs (whole cores or hardware threads), with and without a cost of time slicing; the
  // workers from far behind the step to far ahead. No spread: what parts them is only how the
  // tasks that take turns on the CPUs come and go.
  double worst = 0, sum = 0;
  int compared = 0, apart = 0;
  for (double workers : {1, 2, 4, 6})
    for (double transform_ms : {0.5, 1.0, 1.5, 2.0, 3.0})
      for (double cores : {2, 4})
        for (double threads : {1, 2})
          for (double share : {0.0, 0.5, 1.0})
            for (double slicing : {0.0, 0.2}) {
              Scenario s = test::loader(workers, transform_ms);
              s.set(Field::Cores, cores);
              s.set(Field::ThreadsPerCore, threads);
              s.set(Field::LoopCpuShare, share);
              s.set(Field::OversubscriptionCost, slicing);
              s.set(Field::LoopOverhead, {1e-3, Dim::Duration});
              CAPTURE(workers);
              CAPTURE(transform_ms);
              CAPTURE(cores);
              CAPTURE(threads);
              CAPTURE(share);
              CAPTURE(slicing);
              const auto u = simulated_and_closed(s);
              const double d = std::abs(u.first - u.second);
              // A loop that spins through the step beside workers that keep up: the tasks busy are
              // those its turn leaves room for, not all W (on whole cores they agree closely).
              if (threads == 1 && share == 1 && workers > cores) CHECK(d <= kAgreement);
              check_rests_on_simulate(s, u);
              worst = std::max(worst, d);
              sum += d;
              apart += d > kAgreement;
              ++compared;
            }
  MESSAGE("compared ", compared, ", mean difference ", sum / compared, ", largest ", worst, ", apart ", apart);
  CHECK(sum / compared <= 0.01);
  // Presets with the CPUs crowded at random: check rests on simulate wherever they part.
  const std::vector<Scenario> presets = preset_scenarios();
  Gen g(20261207);
  int drawn = 0, parted = 0;
  for (int i = 0; i < 60; ++i) {
    Scenario s = presets[static_cast<std::size_t>(i * 7) % presets.size()];
    const double per = g.whole(2, 16);
    s.set(Field::Cores, s.get(Field::AcceleratorCount) * per);
    s.set(Field::Workers, g.whole(1, 3 * per));
    s.set(Field::TransformCost, {std::exp(g.uniform(std::log(2e-4), std::log(2e-2))), Dim::Duration});
    if (g.coin())
      s.set(Field::LoopCpuShare, g.uniform(0, 1));
    else
      s.set(Field::LoopWait, {static_cast<double>(g.whole(0, 2)), Dim::Choice});
    if (g.coin()) s.set(Field::OversubscriptionCost, g.uniform(0, 0.4));
    for (Field f : {Field::TransformCv, Field::StepCv, Field::SampleSizeCv}) s.set(f, 0);
    CAPTURE(i);
    const std::optional<bool> apart_here = parted_and_checked(s);
    if (!apart_here) continue;
    ++drawn;
    parted += *apart_here;
  }
  MESSAGE("presets drawn ", drawn, ", apart ", parted);
  CHECK(drawn >= 40);
  CHECK(apart + parted >= 1);
}
