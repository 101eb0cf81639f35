#include "core/analyses/check.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cmath>

#include "core/sim/simulate.hpp"

namespace pipesim {

namespace {

struct MetricInfo {
  Metric metric;
  std::string_view key;
  Bound bound;
};

constexpr std::array kMetrics = {
    MetricInfo{Metric::Utilization, "min_utilization", Bound::AtLeast},
    MetricInfo{Metric::FirstEpochUtilization, "min_first_epoch_utilization", Bound::AtLeast},
    MetricInfo{Metric::RunUtilization, "min_run_utilization", Bound::AtLeast},
    MetricInfo{Metric::Throughput, "min_throughput", Bound::AtLeast},
    MetricInfo{Metric::EpochTime, "max_epoch_time", Bound::AtMost},
    MetricInfo{Metric::CostPerEpoch, "max_cost_per_epoch", Bound::AtMost},
    MetricInfo{Metric::SamplesPerUsd, "min_samples_per_dollar", Bound::AtLeast},
    MetricInfo{Metric::Walls, "allowed_walls", Bound::Among},
    MetricInfo{Metric::Memory, "fits_in_memory", Bound::AtMost},  // implicit: not a key users write
};

const MetricInfo& info(Metric m) {
  for (const auto& i : kMetrics)
    if (i.metric == m) return i;
  return kMetrics[0];
}

double value_of(const Requirement& req, const Result& r) {
  const auto need = [&](const std::optional<double>& v, std::string_view what) {
    if (!v) throw Error(req.origin, fmt::format("{} needs {}", requirement_key(req.metric), what));
    return *v;
  };
  switch (req.metric) {
    case Metric::Utilization:
      return r.utilization;
    case Metric::FirstEpochUtilization:
      return r.cold ? r.cold->utilization : r.utilization;
    case Metric::RunUtilization:
      need(r.epoch_s, "workload.dataset_samples (the epoch size)");
      return need(r.run_utilization, "workload.epochs (the run's epochs)");
    case Metric::Throughput:
      return req.per_step ? 1.0 / r.step_s : r.throughput;
    case Metric::EpochTime:
      return need(r.epoch_s, "workload.dataset_samples (the epoch size)");
    case Metric::CostPerEpoch:
      need(r.price_per_hour, "a price (cost.price_per_hour or cost.purchase_price)");
      return need(r.cost_per_epoch, "workload.dataset_samples (the epoch size)");
    case Metric::SamplesPerUsd:
      return need(r.samples_per_usd, "a price (cost.price_per_hour or cost.purchase_price)");
    case Metric::Memory:
      return r.memory_needed.value_or(0);
    case Metric::Walls:
      break;
  }
  return 0;
}

// The worst epoch's figure of an epoch-dependent requirement, where it differs from the steady
// state's: the first epoch with its start (workers started, the pipeline filled), read from
// storage where its page cache is cold; without a dataset size (no epochs), the cold first
// epoch's step alone. Nothing for the requirements that name their epochs (first epoch, run) or
// have none (memory, walls).
std::optional<double> worst_epoch_value(const Requirement& req, const Result& r, double steady) {
  if (const auto& w = r.worst_epoch) {
    switch (req.metric) {
      case Metric::Utilization:
        return w->utilization;
      case Metric::Throughput:
        return steady * w->throughput / r.throughput;
      case Metric::EpochTime:
        return w->epoch_s;
      case Metric::CostPerEpoch:
        // The same price per second over the worst epoch's time.
        return *r.epoch_s > 0 ? steady * w->epoch_s / *r.epoch_s : std::optional<double>();
      case Metric::SamplesPerUsd:
        // Samples per dollar scale with throughput at the same price per second.
        return steady * w->throughput / r.throughput;
      case Metric::FirstEpochUtilization:
      case Metric::RunUtilization:
      case Metric::Memory:
      case Metric::Walls:
        return std::nullopt;
    }
  }
  if (!r.cold) return std::nullopt;
  const ColdEpoch& c = *r.cold;
  switch (req.metric) {
    case Metric::Utilization:
      return c.utilization;
    case Metric::Throughput:
      return req.per_step ? 1.0 / c.step_s : c.throughput;
    case Metric::SamplesPerUsd:
      return r.throughput > 0 ? steady * c.throughput / r.throughput : std::optional<double>();
    case Metric::EpochTime:
    case Metric::CostPerEpoch:
    case Metric::FirstEpochUtilization:
    case Metric::RunUtilization:
    case Metric::Memory:
    case Metric::Walls:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::string_view requirement_key(Metric m) { return info(m).key; }
Bound requirement_bound(Metric m) { return info(m).bound; }

bool find_requirement(std::string_view key, Metric* out) {
  for (const auto& i : kMetrics)
    if (i.key == key && i.metric != Metric::Memory) {
      *out = i.metric;
      return true;
    }
  return false;
}

std::string_view requirement_unit(const Requirement& r) {
  switch (r.metric) {
    case Metric::Utilization:
    case Metric::FirstEpochUtilization:
    case Metric::RunUtilization:
      return "ratio";
    case Metric::Throughput:
      return r.per_step ? "it/s" : "samples/s";
    case Metric::EpochTime:
      return "s";
    case Metric::CostPerEpoch:
      return "USD";
    case Metric::SamplesPerUsd:
      return "samples/USD";
    case Metric::Memory:
      return "B";
    case Metric::Walls:
      break;
  }
  return {};
}

std::vector<std::string_view> requirement_keys() {
  std::vector<std::string_view> keys;
  for (const auto& i : kMetrics)
    if (i.metric != Metric::Memory) keys.push_back(i.key);
  keys.push_back("batch_sizes");
  keys.push_back("unmodelled");
  keys.push_back("epochs");
  keys.push_back("measured_elsewhere");
  keys.push_back("extrapolated");
  return keys;
}

std::optional<Disagreement> disagreement(const Inputs& in, const Result& r) {
  const bool varies = in.transform_cv > 0 || in.step_cv > 0 || in.sample_size_cv > 0;
  // Shared by time, the closed forms count the tasks by their averages only where some of them
  // get less than a whole core: more tasks than the cores run at full rate.
  const auto& cores = in.transform.cores_per_accelerator;
  const double tasks = cpu_tasks(in);
  const bool shared =
      in.loop_cpu_share && in.workers >= 1 && cores && core_capacity(in.transform, tasks, *cores) < tasks;
  if (!varies && !shared) return std::nullopt;
  Inputs steady = in;
  steady.dataset_samples.reset();  // the steady run alone
  try {
    const double simulated = simulate(steady, SimOptions{}).utilization;
    if (std::abs(simulated - r.utilization) <= kAgreement) return std::nullopt;
    return Disagreement{simulated, r.utilization, in.batch, varies, shared};
  } catch (const Error&) {
    return std::nullopt;  // a run too long (or too short) to simulate: the closed forms stand
  }
}

namespace {

// Folds one operating point's result into a requirement's outcome: the worst value over the
// points (and over the first epoch unless the plan judges the steady state only), the walls
// that bind, and the unmodelled stages it rests on.
void fold(Outcome& o, const Inputs& in, const Result& r, const std::optional<Disagreement>& apart, const Plan& plan,
          bool first) {
  const Requirement& req = *o.requirement;
  const double batch = in.batch;
  // An unmodelled stage, a step simulate disagrees on, or one extrapolated past where it was
  // measured could break every requirement but the memory one.
  if (req.metric != Metric::Memory) {
    o.unmodelled |= r.unmodelled & ~plan.accept_unmodelled;
    o.accepted |= r.unmodelled & plan.accept_unmodelled;
    if (apart && !o.disagreement) o.disagreement = apart;
    if (const auto& range = in.compute.measured_range; range && range->outside() && !o.extrapolated) {
      o.extrapolated = range;
      o.extrapolated_accepted = plan.accept_extrapolated;
    }
  }
  if (req.metric == Metric::Walls) {
    // The first epoch's walls too (storage, say, before the page cache holds the dataset).
    const unsigned cold = r.cold ? r.cold->binding & ~r.binding : 0;
    o.first_epoch_walls |= cold;
    const unsigned bound = r.binding | (plan.steady_only ? 0 : cold);
    o.walls |= bound;
    if (first) o.at_batch = batch;  // a batch that was checked, until one breaks it
    if ((bound & ~req.walls) != 0 && o.pass) {
      o.pass = false;
      o.at_batch = batch;
    }
    return;
  }
  const bool minimum = info(req.metric).bound == Bound::AtLeast;
  const double steady = value_of(req, r);
  const std::optional<double> cold = worst_epoch_value(req, r, steady);
  double v = steady;
  if (cold && !plan.steady_only) v = minimum ? std::min(v, *cold) : std::max(v, *cold);
  if (first || (minimum ? v < o.value : v > o.value)) {
    o.value = v;
    o.steady = steady;
    o.at_batch = batch;
    // Equal but for rounding (the same step, a cost scaled by a ratio of equal times): no difference.
    o.first_epoch = cold && std::abs(*cold - steady) > 1e-9 * std::abs(steady) ? cold : std::nullopt;
    o.first_epoch_cold = r.cold.has_value();
    o.steady_from = r.warmup ? r.warmup->near_epoch : r.cold ? 2 : 1;
  }
}

// The outcome's verdict once every point is folded in.
Verdict judge(const Outcome& o) {
  const Requirement& req = *o.requirement;
  const bool holds = req.metric == Metric::Walls                      ? o.pass
                     : equal_but_for_rounding(o.value, req.threshold) ? true
                     : info(req.metric).bound == Bound::AtLeast       ? o.value >= req.threshold
                                                                      : o.value <= req.threshold;
  // A step measured elsewhere leaves a figure unverified whichever side it falls: another
  // accelerator's step could be faster or slower; so does a step the closed forms and simulate
  // disagree on. An unmodelled stage's bound only one way.
  const bool foreign =
      (o.elsewhere && !o.elsewhere_accepted) || (o.extrapolated && !o.extrapolated_accepted) || !o.foreign.empty();
  return foreign || o.disagreement               ? Verdict::Unverified
         : !holds                                ? Verdict::Fail
         : o.unmodelled != 0 || o.memory_unknown ? Verdict::Unverified
                                                 : Verdict::Pass;
}

}  // namespace

PlanOutcome check_plan(const Scenario& s, const Plan& plan) {
  PlanOutcome out;
  const auto outcome = [&](const Requirement* req) {
    Outcome o;
    o.requirement = req;
    o.steady_only = plan.steady_only;
    o.at_batch = s.get(Field::BatchSize);
    return o;
  };
  const Inputs in = resolve(s);
  const std::vector<ForeignFigure> foreign = foreign_figures(s, in, plan.measured_for);
  const auto resting_on = [&](Metric m) {
    std::vector<ForeignFigure> rest;
    for (const ForeignFigure& f : foreign)
      if (memory_figure(f.entry->figure) == (m == Metric::Memory)) rest.push_back(f);
    return rest;
  };
  for (const auto& req : plan.requirements) {
    out.outcomes.push_back(outcome(&req));
    // Every figure but the memory rests on the compute step (not on the batch size: the same at each).
    out.outcomes.back().elsewhere = in.compute.elsewhere;
    out.outcomes.back().transform_at = in.transform.at;
    out.outcomes.back().transfer_needs_device_bytes = in.transfer.needs_device_bytes;
    out.outcomes.back().elsewhere_accepted = in.compute.elsewhere && plan.accept_elsewhere;
    out.outcomes.back().foreign = resting_on(req.metric);
  }
  if (in.compute.memory_capacity) {
    out.memory = std::make_shared<Requirement>(Requirement{Metric::Memory, *in.compute.memory_capacity, 0, {}, false});
    out.outcomes.push_back(outcome(out.memory.get()));
    out.outcomes.back().foreign = resting_on(Metric::Memory);
    if (!in.compute.weights_counted)
      out.outcomes.back().memory_unknown = Field::Parameters;
    else if (!in.compute.activation_bytes)
      out.outcomes.back().memory_unknown = Field::ActivationBytes;
  }

  const auto visit = [&](const Scenario& point, bool first) {
    const Inputs at = resolve(point);
    const Result r = evaluate(at);
    const std::optional<Disagreement> apart = disagreement(at, r);
    for (auto& o : out.outcomes) fold(o, at, r, apart, plan, first);
  };
  if (plan.batch_sizes) {
    Scenario point = s;
    for (std::size_t i = 0; i < plan.batch_sizes->size(); ++i) {
      point.set(Field::BatchSize, plan.batch_sizes->at(i));
      visit(point, i == 0);
    }
  } else {
    visit(s, true);
  }
  for (auto& o : out.outcomes) {
    o.verdict = judge(o);
    o.pass = o.verdict == Verdict::Pass;
    if (o.verdict == Verdict::Fail) ++out.failures;
    if (o.verdict == Verdict::Unverified) ++out.unverified;
  }
  out.pass = out.failures == 0 && out.unverified == 0;
  out.verdict = out.failures ? Verdict::Fail : out.unverified ? Verdict::Unverified : Verdict::Pass;
  return out;
}

Rank rank(const Result& r) {
  if (r.price_per_hour) {
    if (r.run_cost) return {RankBy::RunCost, *r.run_cost};
    if (r.cost_per_epoch) return {RankBy::EpochCost, *r.cost_per_epoch};
    return {RankBy::SamplesPerUsd, r.samples_per_usd.value_or(0)};
  }
  if (r.run_s) return {RankBy::RunTime, *r.run_s};
  if (r.epoch_s) return {RankBy::EpochTime, *r.epoch_s};
  return {RankBy::Throughput, r.throughput};
}

bool ranks_before(const Rank& a, const Rank& b) {
  const bool more = a.by == RankBy::SamplesPerUsd || a.by == RankBy::Throughput;
  return more ? a.value > b.value : a.value < b.value;
}

}  // namespace pipesim
