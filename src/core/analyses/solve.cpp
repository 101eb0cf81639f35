#include "core/analyses/solve.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/base/units.hpp"
#include "core/stages/stage.hpp"

namespace pipesim {

namespace {

bool ends_with(std::string_view t, std::string_view s) {
  return t.size() > s.size() && t.substr(t.size() - s.size()) == s;
}

// The unit the solved value is held in: the scenario's, else the field's first unit.
Dim value_dim(const Scenario& s, Field f) {
  if (s.has(f)) return s.dim(f);
  const DimSet accepts = spec(f).accepts;
  for (unsigned d = 1; d < kDimCount; ++d)
    if (has(accepts, static_cast<Dim>(d))) return static_cast<Dim>(d);
  return Dim::Number;
}

// Where the search starts when the scenario does not set the field: a typical magnitude.
double typical(Dim d) {
  switch (d) {
    case Dim::SampleRate:
      return 100;
    case Dim::Rate:
      return 1e8;
    case Dim::Duration:
      return 1e-3;
    case Dim::FlopRate:
      return 1e14;
    case Dim::Flop:
      return 1e9;
    case Dim::Size:
      return 1e5;
    default:
      return 1;
  }
}

}  // namespace

std::string observation_text(Observed kind, double v, Scope scope) {
  switch (kind) {
    case Observed::Utilization:
      return fmt::format("utilization {:.1f}%", 100 * v);
    case Observed::StepsPerS:
      return fmt::format("{:.3g} steps/s", v);
    case Observed::SamplesPerS:
      break;
  }
  constexpr std::array<std::string_view, 3> whose = {"", " for the node", " for the cluster"};
  return format_human(v, Dim::SampleRate) + std::string(whose[static_cast<std::size_t>(scope)]);
}

std::string observation_text(const Observation& o) { return observation_text(o.kind, o.value, o.scope); }

namespace {

std::string binding_words(const Result& r) {
  for (Stage st : kStages)
    if (r.binds(st)) return std::string(stage_name(st));
  return "the training loop";
}

}  // namespace

Observation parse_observation(std::string_view text) {
  const std::string_view t = trim(text);
  const auto bad = [&] {
    return Error(fmt::format(
        "expected \"utilization=40%\", \"3.1 it/s\", \"790 samples/s\" (per accelerator) or \"5600 samples/s for "
        "the node\", got \"{}\"",
        echo(text)));
  };
  Observation o;
  try {
    if (t.substr(0, std::min(t.size(), std::string_view("utilization").size())) == "utilization") {
      std::string_view rest = trim(t.substr(std::string_view("utilization").size()));
      if (rest.empty() || rest.front() != '=') throw bad();
      o.kind = Observed::Utilization;
      o.value = parse_quantity_as(trim(rest.substr(1)), dims(Dim::Number)).value;
      if (!(o.value > 0 && o.value <= 1)) throw Error("an observed utilization must be more than 0% and at most 100%");
      return o;
    }
    // Whose samples/s, said after the rate.
    std::string_view rate = t;
    for (const auto& [words, scope] :
         std::initializer_list<std::pair<std::string_view, Scope>>{{"for the node", Scope::Node},
                                                                   {"per node", Scope::Node},
                                                                   {"for the cluster", Scope::Cluster},
                                                                   {"per accelerator", Scope::Accelerator},
                                                                   {"for one accelerator", Scope::Accelerator},
                                                                   {"per GPU", Scope::Accelerator}})
      if (ends_with(t, words)) {
        rate = trim(t.substr(0, t.size() - words.size()));
        o.scope = scope;
        if (!ends_with(rate, "samples/s") && !ends_with(rate, "sample/s"))
          throw Error(
              fmt::format("\"{}\": only samples/s are said for an accelerator, the node or the cluster; "
                          "steps/s and utilization are the same on every accelerator",
                          echo(text)));
        break;
      }
    bool steps = false;
    std::string_view number = rate;
    for (std::string_view unit : {"steps/s", "step/s", "it/s"})
      if (ends_with(rate, unit)) {
        number = rate.substr(0, rate.size() - unit.size());
        steps = true;
        break;
      }
    const Quantity q = parse_quantity_as(number, steps ? dims(Dim::Number) : dims(Dim::SampleRate));
    o.kind = steps ? Observed::StepsPerS : Observed::SamplesPerS;
    o.value = q.value;
  } catch (const Error& e) {
    const std::string_view what = e.what();
    if (what.find("at most 100%") != std::string_view::npos || what.find("only samples/s") != std::string_view::npos)
      throw;
    throw bad();
  }
  if (!(o.value >= 1e-9 && o.value <= 1e12)) throw Error("an observed rate must be between 1e-9 and 1e12 per second");
  return o;
}

double observed_figure(const Result& r, double batch, Observed kind, Scope scope) {
  switch (kind) {
    case Observed::Utilization:
      return r.utilization;
    case Observed::StepsPerS:
      return 1 / r.step_s;
    case Observed::SamplesPerS:
      break;
  }
  // The node's and the cluster's rates are their accelerators' together, each at batch / step.
  switch (scope) {
    case Scope::Node:
      return r.throughput_per_node;
    case Scope::Cluster:
      return r.throughput;
    case Scope::Accelerator:
      break;
  }
  return batch / r.step_s;
}

Field default_unknown(const Scenario& s) {
  for (Field f : alternatives(Field::WorkerSampleRate))
    if (s.has(f)) return f;
  return Field::WorkerSampleRate;
}

namespace {

// The values of `unknown` the search tries first: fractions evenly over (0, 1), anything else
// by powers of ten around its value in the scenario (or a typical one).
std::vector<double> search_grid(const Scenario& s, Field unknown, Dim dim, bool fraction) {
  std::vector<double> grid;
  if (fraction) {
    const double top = spec(unknown).constraint == Constraint::HitRatio ? 1 - 1e-9 : 1;
    for (int i = 0; i <= 200; ++i) grid.push_back(1e-6 + (top - 1e-6) * i / 200);
  } else {
    const double start = s.has(unknown) && s.get(unknown) > 0 ? s.get(unknown) : typical(dim);
    for (int k = -24; k <= 24; ++k) grid.push_back(start * std::pow(10.0, k));
  }
  return grid;
}

// Bisection between the two grid values around the goal (g: the figure at each), halving by
// value for fractions and by ratio otherwise; the side that reaches the goal.
template <class Reached>
double bisect(const std::vector<double>& grid, const std::vector<double>& g, double goal, bool rising, bool fraction,
              const Reached& reached) {
  std::size_t i = 0;
  if (rising) {
    while (i + 1 < grid.size() && g[i + 1] < goal) ++i;
  } else {
    i = grid.size() - 1;
    while (i > 0 && g[i - 1] < goal) --i;
    if (i > 0) --i;  // the pair (i, i + 1) with g[i] >= goal > g[i + 1]
  }
  double a = grid[i];
  double b = grid[i + 1];
  for (int iter = 0; iter < 200 && b / a - 1 > 1e-13; ++iter) {
    const double m = fraction ? (a + b) / 2 : std::sqrt(a * b);
    (reached(m) == rising ? b : a) = m;
  }
  return rising ? b : a;
}

}  // namespace

Solution solve_observed(const Scenario& s, Field unknown, const Observation& o) {
  const FieldSpec& f = spec(unknown);
  if (f.integer || has(f.accepts, Dim::Bool) || has(f.accepts, Dim::Choice))
    throw Error(fmt::format("{} is a count, a switch or a choice: solve for a rate, a time or a size", f.key));
  const Dim dim = value_dim(s, unknown);
  const bool fraction = f.constraint == Constraint::UnitInterval || f.constraint == Constraint::Share ||
                        f.constraint == Constraint::HitRatio;

  const auto with = [&](double v) {
    Scenario t = s;
    t.set(unknown, Quantity{v, dim});
    return t;
  };
  const auto figure = [&](double v) {
    const Inputs in = resolve(with(v));
    return observed_figure(evaluate(in), in.batch, o.kind, o.scope);
  };

  // A grid over the field's range, then bisection between the two grid values around the target.
  // Values the model refuses (cpu.cores below the cores reserved for training processes) are left
  // out: the figure is searched where the scenario is valid.
  std::vector<double> grid, g;
  for (double v : search_grid(s, unknown, dim, fraction)) {
    try {
      g.push_back(figure(v));
    } catch (const Error&) {
      continue;
    }
    grid.push_back(v);
  }
  if (grid.size() < 2)
    throw Error(fmt::format(
        "the model refuses this scenario at almost every value of {}: solve for another field (--solve)", f.key));

  const double first = g.front();
  const double last = g.back();
  if (std::fabs(last - first) <= 1e-12 * std::max(std::fabs(first), std::fabs(last)))
    throw Error(fmt::format("in this scenario the model's {} does not depend on {}: solve for another field (--solve)",
                            o.kind == Observed::Utilization ? "utilization" : "rate", f.key));
  const bool rising = last > first;  // the figure grows with the field's value
  const double best = std::max(first, last);
  const double worst = std::min(first, last);
  const double target = o.value;
  const Result best_result = evaluate(resolve(with(rising ? grid.back() : grid.front())));
  if (target > best * (1 + 1e-9)) {
    // A node's rate given as one accelerator's: say so where the node reaches it.
    std::string hint;
    const double node_best = observed_figure(best_result, s.get(Field::BatchSize), o.kind, Scope::Node);
    if (o.kind == Observed::SamplesPerS && o.scope == Scope::Accelerator && node_best > best * (1 + 1e-9))
      hint = fmt::format(
          "; samples/s are one accelerator's unless said: if {} is the node's (its {:g} accelerators reach at most "
          "{}), write \"{:g} samples/s for the node\"",
          format_human(target, Dim::SampleRate), std::round(node_best / best), format_human(node_best, Dim::SampleRate),
          target);
    throw Error(fmt::format("{} is out of reach: whatever {} is, the model gives at most {} ({} binds){}",
                            observation_text(o), f.key, observation_text(o.kind, best, o.scope),
                            binding_words(best_result), hint));
  }
  if (target < worst * (1 - 1e-9))
    throw Error(fmt::format("{} is out of reach: whatever {} is, the model gives at least {}", observation_text(o),
                            f.key, observation_text(o.kind, worst, o.scope)));

  // The observation is the scenario's best: the field does not bind there, and only the value at
  // which it stops binding is found.
  const bool plateau = target >= best * (1 - 1e-9);
  const double goal = plateau ? best * (1 - 1e-9) : target;
  // reached(v): the figure at v is at or past the goal, going towards the best end.
  const double value = bisect(grid, g, goal, rising, fraction, [&](double v) { return figure(v) >= goal; });

  Solution sol;
  sol.field = unknown;
  sol.value = Quantity{value, dim};
  sol.exact = !plateau;
  for (Field alt : alternatives(unknown))
    if (s.has(alt)) {
      sol.previous = Quantity{s.get(alt), s.dim(alt)};
      sol.previous_field = alt;
    }
  sol.scenario = with(value);
  sol.result = evaluate(resolve(sol.scenario));
  const double got = observed_figure(sol.result, s.get(Field::BatchSize), o.kind, o.scope);
  if (!plateau && std::fabs(got - target) > 1e-6 * target)
    throw Error(fmt::format("no value of {} gives {}: the model jumps past it near {}", f.key, observation_text(o),
                            format_human(value, dim)));
  return sol;
}

JointSolution solve_observations(const Scenario& s, Field unknown, const std::vector<Observation>& observed) {
  if (observed.empty()) throw Error("no observation to solve from");
  JointSolution j;
  j.observed = observed;
  for (const Observation& o : observed) {
    try {
      j.each.push_back(solve_observed(s, unknown, o));
    } catch (const Error& e) {
      if (observed.size() == 1) throw;
      throw Error(fmt::format("{} (of the {} observations)", e.what(), observed.size()));
    }
  }
  double lo = j.each.front().value.value;
  double hi = lo;
  for (const Solution& sol : j.each) {
    lo = std::min(lo, sol.value.value);
    hi = std::max(hi, sol.value.value);
  }
  j.spread = lo > 0 ? hi / lo : 1;
  if (observed.size() == 1) {
    j.fit = j.each.front();
    j.fitted = {observed_figure(j.fit.result, s.get(Field::BatchSize), observed[0].kind, observed[0].scope)};
    return j;
  }
  const Dim dim = j.each.front().value.dim;
  const auto at = [&](double v) {
    Scenario t = s;
    t.set(unknown, Quantity{v, dim});
    return t;
  };
  // The sum of squared logs of model over observed, at a value between lo and hi (u in [0, 1]:
  // evenly by ratio where both are positive, else by value).
  const bool ratio = lo > 0;
  const auto value_at = [&](double u) { return ratio ? lo * std::pow(hi / lo, u) : lo + (hi - lo) * u; };
  const auto misfit = [&](double u) {
    const Inputs in = resolve(at(value_at(u)));
    const Result r = evaluate(in);
    double sum = 0;
    for (const Observation& o : observed) {
      const double e = std::log(observed_figure(r, in.batch, o.kind, o.scope) / o.value);
      sum += e * e;
    }
    return sum;
  };
  double u = 0;
  if (hi > lo) {
    // The best of an even grid, then golden-section search between its neighbours.
    constexpr int kGrid = 64;
    int best = 0;
    double best_misfit = misfit(0);
    for (int i = 1; i <= kGrid; ++i)
      if (const double m = misfit(static_cast<double>(i) / kGrid); m < best_misfit) {
        best_misfit = m;
        best = i;
      }
    double a = std::max(0, best - 1) / static_cast<double>(kGrid);
    double b = std::min(kGrid, best + 1) / static_cast<double>(kGrid);
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int iter = 0; iter < 60; ++iter) {
      const double c = b - g * (b - a);
      const double d = a + g * (b - a);
      if (misfit(c) < misfit(d))
        b = d;
      else
        a = c;
    }
    u = (a + b) / 2;
  }
  j.fit = j.each.front();
  j.fit.value = Quantity{value_at(u), dim};
  j.fit.exact = std::all_of(j.each.begin(), j.each.end(), [](const Solution& sol) { return sol.exact; });
  j.fit.scenario = at(j.fit.value.value);
  j.fit.result = evaluate(resolve(j.fit.scenario));
  for (const Observation& o : observed)
    j.fitted.push_back(observed_figure(j.fit.result, s.get(Field::BatchSize), o.kind, o.scope));
  return j;
}

}  // namespace pipesim
