#include "core/analyses/solve.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
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

std::string observation_text(Observed kind, double v) {
  switch (kind) {
    case Observed::Utilization:
      return fmt::format("utilization {:.1f}%", 100 * v);
    case Observed::StepsPerS:
      return fmt::format("{:.3g} steps/s", v);
    case Observed::SamplesPerS:
      break;
  }
  return format_human(v, Dim::SampleRate);
}

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
        "expected \"utilization=40%\", \"3.1 it/s\", \"3.1 steps/s\" or \"790 samples/s\", got \"{}\"", echo(text)));
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
    bool steps = false;
    std::string_view number = t;
    for (std::string_view unit : {"steps/s", "step/s", "it/s"})
      if (ends_with(t, unit)) {
        number = t.substr(0, t.size() - unit.size());
        steps = true;
        break;
      }
    const Quantity q = parse_quantity_as(number, steps ? dims(Dim::Number) : dims(Dim::SampleRate));
    o.kind = steps ? Observed::StepsPerS : Observed::SamplesPerS;
    o.value = q.value;
  } catch (const Error& e) {
    if (std::string_view(e.what()).find("at most 100%") != std::string_view::npos) throw;
    throw bad();
  }
  if (!(o.value >= 1e-9 && o.value <= 1e12)) throw Error("an observed rate must be between 1e-9 and 1e12 per second");
  return o;
}

double observed_figure(const Result& r, double batch, Observed kind) {
  switch (kind) {
    case Observed::Utilization:
      return r.utilization;
    case Observed::StepsPerS:
      return 1 / r.step_s;
    case Observed::SamplesPerS:
      break;
  }
  return batch / r.step_s;
}

Field default_unknown(const Scenario& s) {
  for (Field f : {Field::WorkerThroughput, Field::WorkerSampleRate, Field::TransformCost})
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
    return observed_figure(evaluate(in), in.batch, o.kind);
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
  if (target > best * (1 + 1e-9))
    throw Error(fmt::format("{} is out of reach: whatever {} is, the model gives at most {} ({} binds)",
                            observation_text(o.kind, target), f.key, observation_text(o.kind, best),
                            binding_words(best_result)));
  if (target < worst * (1 - 1e-9))
    throw Error(fmt::format("{} is out of reach: whatever {} is, the model gives at least {}",
                            observation_text(o.kind, target), f.key, observation_text(o.kind, worst)));

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
  const double got = observed_figure(sol.result, s.get(Field::BatchSize), o.kind);
  if (!plateau && std::fabs(got - target) > 1e-6 * target)
    throw Error(fmt::format("no value of {} gives {}: the model jumps past it near {}", f.key,
                            observation_text(o.kind, target), format_human(value, dim)));
  return sol;
}

}  // namespace pipesim
