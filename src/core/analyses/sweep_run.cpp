#include "core/analyses/sweep_run.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace pipesim {

namespace {

// The least value a range holds (a list may be in any order; a stepped range rises).
double least(const Range& r) {
  if (r.size() > 100000) return std::min(r.at(0), r.at(r.size() - 1));
  double v = r.at(0);
  for (std::size_t i = 1; i < r.size(); ++i) v = std::min(v, r.at(i));
  return v;
}

// A simulated sweep's --batches below what the steady state needs at the grid's fewest workers
// and least prefetch would refuse every point: said before any row, as bad usage.
void check_simulated_batches(const Scenario& first, const std::vector<Axis>& axes, std::size_t batches) {
  Scenario s = first;
  for (const Axis& a : axes)
    if (a.field == Field::Workers || a.field == Field::PrefetchFactor) s.set(a.field, {least(a.range), Dim::Number});
  Inputs in;
  try {
    in = resolve(s);
  } catch (const Error&) {
    return;  // that point is refused by the model; its row says why
  }
  const std::size_t need = min_batches(in);
  if (batches < need)
    throw Error(Origin::argument("--batches"),
                fmt::format("{} is too few for any point of the sweep: with {} {} (its fewest) and prefetch "
                            "factor {} the steady state needs at least {} steps",
                            batches, group_thousands(fmt::format("{:.0f}", in.workers)),
                            in.workers == 1 ? "worker" : "workers", in.prefetch_factor, need));
}

// A grid too large to run without --force (a simulated one sooner: each point is a whole simulation).
void check_grid_size(std::size_t points, bool simulate, bool force) {
  if (force) return;
  if (simulate && static_cast<double>(points) > kLargeSimulatedSweep)
    throw Error(
        fmt::format("the sweep has {} points, more than {:.0f} to simulate (each is a whole simulation): "
                    "narrow a range, or pass --force to run it",
                    points, kLargeSimulatedSweep));
  if (static_cast<double>(points) > kLargeSweepPoints)
    throw Error(fmt::format(
        "the sweep has {} points, more than {:.0f}: at about 1 us per point it would take {:.0f} s or more; "
        "narrow a range, or pass --force to run it",
        points, kLargeSweepPoints, static_cast<double>(points) * 1e-6));
}

}  // namespace

SweepPlan plan_sweep(const Scenario& base, const SweepRequest& r) {
  SweepPlan p;
  p.points = grid_size(r.axes);
  check_grid_size(p.points, r.simulate != nullptr, r.force);
  p.first = first_point(base, r.axes);
  const auto none_valid = [&](const Error& e) {
    return fmt::format("no point of the sweep is valid; at the first ({}): {}", point_label(r.axes, p.first), e.what());
  };
  try {
    p.valid = first_valid_point(base, r.axes, r.simulate);
  } catch (const FieldError& e) {
    if (p.points == 1) throw;
    throw FieldError(e.field(), none_valid(e));  // located where the field was set, as the point's own error
  } catch (const Error& e) {
    if (p.points == 1) throw;
    throw Error(e.origin(), none_valid(e));
  }
  if (r.simulate && r.simulate->batches > 0) check_simulated_batches(p.first, r.axes, r.simulate->batches);
  p.columns = grid_columns(base, r.axes, p.valid);
  if (r.cost && !p.columns.priced)
    throw Error(r.source, "--cost needs a price: set cost.price_per_hour or cost.purchase_price");
  p.plan = r.plan;
  const std::vector<Field> swept = axis_fields(r.axes);
  if (std::find(swept.begin(), swept.end(), Field::BatchSize) != swept.end()) p.plan.batch_sizes.reset();
  p.verdict = !p.plan.requirements.empty();
  // A requirement the scenario cannot judge (an epoch's time without a dataset size) is bad
  // input, said before any row.
  if (p.verdict) check_plan(point_at(base, r.axes, p.valid), p.plan);
  return p;
}

std::vector<Assumption> point_assumptions(const Scenario& point) {
  try {
    return assumptions(point, resolve(point));
  } catch (const Error&) {
    return {};
  }
}

std::size_t sweep_chunk(const SweepRun& run) { return run.simulate ? 1 : run.diagnose ? 64 : 128; }

std::optional<PlanOutcome> judge_point(const Scenario& s, const Plan& plan) {
  try {
    return check_plan(s, plan);
  } catch (const Error&) {
    return std::nullopt;
  }
}

void tally(SweepSummary& summary, std::size_t index, const std::vector<Axis>& axes, const SweepPoint& p) {
  if (p.outcome == nullptr) return;
  switch (p.outcome->verdict) {
    case Verdict::Fail:
      ++summary.failed;
      return;
    case Verdict::Unverified:
      ++summary.unverified;
      return;
    case Verdict::Pass:
      ++summary.passed;
      break;
  }
  const Rank r = rank(p.result);
  const bool first = !summary.pick || ranks_before(r, summary.pick->rank) ||
                     (!ranks_before(summary.pick->rank, r) && index < summary.pick->index);
  if (first)
    summary.pick = SweepPick{index, point_label(axes, p.scenario), r, p.result.utilization, p.result.run_utilization};
}

}  // namespace pipesim
