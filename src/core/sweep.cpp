#include "core/sweep.hpp"

#include <fmt/format.h>

#include <exception>

#include "core/error.hpp"

namespace pipesim {

Axis parse_axis(std::string_view key, std::string_view range_text) {
  const FieldSpec* f = find_field(key);
  if (!f) throw Error(unknown_key_message(key));
  return {f->field, parse_range(range_text, *f)};
}

std::size_t grid_size(const std::vector<Axis>& axes) {
  double total = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const Axis& a = axes[i];
    if (a.range.size() == 0) throw Error(fmt::format("{}: the range is empty", spec(a.field).key));
    for (std::size_t j = 0; j < i; ++j) {
      const Field other = axes[j].field;
      if (other == a.field) throw Error(fmt::format("{} is swept twice: give it one range", spec(a.field).key));
      for (Field alt : alternatives(a.field))
        if (alt == other)
          throw Error(fmt::format("{} and {} are both swept, but they say the same thing in two ways: sweep one",
                                  spec(other).key, spec(a.field).key));
    }
    total *= static_cast<double>(a.range.size());
  }
  if (total > kMaxSweepPoints)
    throw Error(fmt::format("the sweep has {:.0f} points, more than the limit of {:.0f}", total, kMaxSweepPoints));
  return static_cast<std::size_t>(total);
}

std::size_t first_valid_point(const Scenario& base, const std::vector<Axis>& axes) {
  const std::size_t total = grid_size(axes);
  std::exception_ptr first_error;
  for (std::size_t i = 0; i < total; ++i) {
    bool valid = false;
    for_each_point(base, axes, i, i + 1, [&](const Scenario& s, std::size_t) {
      try {
        evaluate(resolve(s));
        valid = true;
      } catch (const Error&) {
        if (!first_error) first_error = std::current_exception();
      }
    });
    if (valid) return i;
  }
  std::rethrow_exception(first_error);
}

GridColumns grid_columns(const Scenario& base, const std::vector<Axis>& axes, std::size_t valid) {
  // Point `valid` of the grid, then the sub-grid of the name and true/false axes around it.
  Scenario at = base;
  for_each_point(base, axes, valid, valid + 1, [&](const Scenario& s, std::size_t) { at = s; });
  std::vector<Axis> named;
  for (const auto& a : axes)
    if (a.range.dim() == Dim::Choice || a.range.dim() == Dim::Bool) named.push_back(a);
  GridColumns c;
  const auto add = [&](const Scenario& s, std::size_t) {
    try {
      const Result r = evaluate(resolve(s));
      for (Stage st : kStages)
        if (r.stage(st).modelled) c.stages |= stage_bit(st);
      c.first_epoch |= r.cold.has_value();
      c.priced |= r.price_per_hour.has_value();
    } catch (const Error&) {
    }
  };
  if (named.empty())
    add(at, 0);
  else
    for_each_point(at, named, 0, grid_size(named), add);
  return c;
}

std::string point_label(const std::vector<Axis>& axes, const Scenario& point) {
  std::string label;
  for (const auto& a : axes)
    label += fmt::format("{}{}={}", label.empty() ? "" : ", ", spec(a.field).key,
                         format_value(spec(a.field), point.get(a.field), a.range.dim()));
  return label;
}

Scenario first_point(const Scenario& base, const std::vector<Axis>& axes) {
  Scenario s = base;
  for (const auto& a : axes) s.set(a.field, {a.range.at(0), a.range.dim()});
  return s;
}

std::vector<Curve> sweep_curves(const Scenario& base, const std::vector<Axis>& axes) {
  const std::size_t points = grid_size(axes);
  if (points > kMaxPlotPoints)
    throw Error(fmt::format("a plot shows at most {} points and this sweep has {}: narrow a range for --plot",
                            kMaxPlotPoints, points));
  const std::size_t inner = axes.back().range.size();
  std::vector<Curve> curves;
  curves.reserve(points / inner);
  sweep(base, axes, 0, points, false, [&](const SweepPoint& p) {
    if (curves.empty() || curves.back().points.size() == inner) {
      Curve c;
      for (std::size_t a = 0; a + 1 < axes.size(); ++a) c.outer.push_back(p.scenario.get(axes[a].field));
      curves.push_back(std::move(c));
    }
    CurvePoint c;
    c.x = p.scenario.get(axes.back().field);
    c.valid = p.invalid.empty();
    if (c.valid) {
      const Result& r = p.result;
      c.utilization = r.utilization;
      c.throughput = r.throughput;
      for (Stage st : kStages) {
        const StageResult& sr = r.stage(st);
        if (!sr.modelled) continue;
        c.modelled |= stage_bit(st);
        c.stage_s[static_cast<std::size_t>(st)] = sr.time_s;
      }
      c.binding = r.binding;
      c.crossed_from = p.crossed_from;
      c.fits = r.fits;
    }
    curves.back().points.push_back(c);
  });
  return curves;
}

}  // namespace pipesim
