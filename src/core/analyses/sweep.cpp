#include "core/analyses/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>

#include "core/base/error.hpp"

namespace pipesim {

Axis parse_axis(std::string_view key, std::string_view range_text) {
  const FieldSpec* f = find_field(key);
  if (!f) throw Error(unknown_key_message(key));
  Axis a{f->field, parse_range(range_text, *f)};
  if (a.range.dim() == Dim::StepRate)
    throw Error(
        fmt::format("{}: a rate per step (it/s) is samples/s only at one batch size; sweep it in samples/s", f->key));
  return a;
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

std::size_t first_valid_point(const Scenario& base, const std::vector<Axis>& axes, const SimOptions* simulated) {
  const std::size_t total = grid_size(axes);
  std::exception_ptr first_error;
  for (std::size_t i = 0; i < total; ++i) {
    bool valid = false;
    for_each_point(base, axes, i, i + 1, [&](const Scenario& s, std::size_t) {
      try {
        const Inputs in = resolve(s);
        evaluate(in);
        if (simulated) check_simulation_size(in, *simulated);
        valid = true;
      } catch (const Error&) {
        if (!first_error) first_error = std::current_exception();
      }
    });
    if (valid) return i;
  }
  std::rethrow_exception(first_error);
}

Scenario point_at(const Scenario& base, const std::vector<Axis>& axes, std::size_t index) {
  Scenario at = base;
  for_each_point(base, axes, index, index + 1, [&](const Scenario& s, std::size_t) { at = s; });
  return at;
}

GridColumns grid_columns(const Scenario& base, const std::vector<Axis>& axes, std::size_t valid) {
  // Point `valid` of the grid, then the sub-grid of the name and true/false axes around it.
  const Scenario at = point_at(base, axes, valid);
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
      c.worst_epoch |= r.worst_epoch.has_value();
      c.run |= r.run_s.has_value();
      c.priced |= r.price_per_hour.has_value();
    } catch (const Error&) {
    }
  };
  if (named.empty())
    add(at, 0);
  else
    for_each_point(at, named, 0, grid_size(named), add);
  const auto capped = [&](const Scenario& s) {
    try {
      const Inputs in = resolve(s);
      const Result r = evaluate(in);
      return in.workers >= 1 && r.effective_workers > 0 && r.effective_workers < in.workers * (1 - 1e-9);
    } catch (const Error&) {
      return false;
    }
  };
  c.effective_workers = capped(at);
  for (const auto& a : axes) {
    if (a.range.dim() == Dim::Choice || a.range.dim() == Dim::Bool) continue;
    for (std::size_t i : {std::size_t{0}, a.range.size() - 1}) {
      Scenario s = at;
      s.set(a.field, {a.range.at(i), a.range.dim()});
      c.effective_workers = c.effective_workers || capped(s);
    }
  }
  return c;
}

namespace {

bool same_figures(const std::optional<std::array<double, 12>>& a, const std::optional<std::array<double, 12>>& b) {
  if (!a || !b) return false;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const double x = (*a)[i], y = (*b)[i];
    if (std::fabs(x - y) > 1e-12 * std::max(std::fabs(x), std::fabs(y))) return false;
  }
  return true;
}

// Why an axis changes nothing at a point, when a known cause explains it.
std::string inert_reason(Field f, const Scenario& s) {
  if (f == Field::SampleSize && s.has(Field::WorkerSampleRate))
    return "the transform's rate is per sample (cpu.worker_sample_rate) and no modelled stage moves these bytes";
  const std::string_view key = spec(f).key;
  try {
    const Inputs in = resolve(s);
    if (key.starts_with("cpu.") && !in.transform.modelled)
      return "the CPU transform is not modelled (cpu.worker_throughput models it)";
    if (key.starts_with("storage.")) {
      if (!in.storage.modelled) return "the storage is not modelled (storage.read_bandwidth models it)";
      if (evaluate(in).cache_hit >= 1) return "every read is served from the page cache";
    }
    if ((key.starts_with("accelerator.") || key.starts_with("model.")) &&
        evaluate(in).stage(Stage::Compute).limit == Limit::Measured)
      return "the compute time is measured (model.measured_per_sample), not derived from the accelerator's figures";
  } catch (const Error&) {
  }
  return {};
}

}  // namespace

SweepGather::SweepGather(const std::vector<Axis>& axes, bool curves, bool inert, std::optional<std::size_t> x)
    : axes_(axes), x_(x.value_or(axes.empty() ? 0 : axes.size() - 1)), strides_(axes.size(), 1) {
  const std::size_t total = grid_size(axes);
  for (std::size_t a = axes.size(); a-- > 1;) strides_[a - 1] = strides_[a] * axes[a].range.size();
  // Every slot exists before any point is added: a slice that starts inside a curve writes its
  // points while another thread writes the curve's first.
  if (curves && !axes.empty()) {
    const std::size_t along = axes[x_].range.size();
    curves_.assign(total / along, Curve{std::vector<double>(axes.size() - 1), std::vector<CurvePoint>(along)});
  }
  if (inert && total <= kMaxInertCheck) rows_.resize(total);
}

void SweepGather::add(std::size_t index, const SweepPoint& p) {
  const bool valid = p.invalid.empty();
  if (!rows_.empty()) {
    if (valid) {
      const Result& r = p.result;
      std::array<double, 12> f = {r.step_s,
                                  r.utilization,
                                  r.throughput,
                                  r.fits ? 1.0 : 0.0,
                                  r.epoch_s.value_or(-1),
                                  r.cost_per_epoch.value_or(-1),
                                  r.worst_epoch ? r.worst_epoch->utilization : -1,
                                  r.run_utilization.value_or(-1)};
      for (Stage st : kStages) f[8 + static_cast<std::size_t>(st)] = r.stage(st).modelled ? r.stage(st).time_s : -1;
      rows_[index] = f;
    } else {
      rows_[index].reset();
    }
  }
  if (curves_.empty()) return;
  // The point's place: its curve numbers the other axes' positions (outer slowest), its
  // position along the curve is its position along x.
  std::size_t curve_index = 0, along = 0;
  for (std::size_t a = 0; a < axes_.size(); ++a) {
    const std::size_t n = axes_[a].range.size();
    const std::size_t at = (index / strides_[a]) % n;
    if (a == x_)
      along = at;
    else
      curve_index = curve_index * n + at;
  }
  Curve& curve = curves_[curve_index];
  if (along == 0)
    for (std::size_t a = 0, o = 0; a < axes_.size(); ++a)
      if (a != x_) curve.outer[o++] = p.scenario.get(axes_[a].field);
  CurvePoint& c = curve.points[along];
  c = CurvePoint{};
  c.x = p.scenario.get(axes_[x_].field);
  c.valid = valid;
  if (!valid) return;
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
  c.fits = r.fits;
  if (p.simulated != nullptr) {
    c.simulated_utilization = p.simulated->utilization;
    c.simulated_throughput = p.simulated->throughput;
  }
}

namespace {

// The longest time per batch among the stages of `walls` at a point.
double wall_time(const CurvePoint& p, unsigned walls) {
  double t = 0;
  for (Stage st : kStages)
    if (walls & stage_bit(st)) t = std::max(t, p.stage_s[static_cast<std::size_t>(st)]);
  return t;
}

// Where along x, between a and b, the old wall's time falls to the new wall's: the root of their
// difference, interpolated linearly; b's x when the difference does not change sign between them.
double crossing(const CurvePoint& a, const CurvePoint& b, unsigned from, unsigned to) {
  const double da = wall_time(a, from) - wall_time(a, to);
  const double db = wall_time(b, from) - wall_time(b, to);
  if (!(da >= 0 && db <= 0 && da - db > 0)) return b.x;
  return a.x + (b.x - a.x) * da / (da - db);
}

}  // namespace

std::vector<Curve> SweepGather::curves() const {
  std::vector<Curve> out = curves_;
  // The sweep's crossover rule along x, and where between the two points the walls cross.
  for (Curve& c : out) {
    std::optional<unsigned> previous;
    const CurvePoint* before = nullptr;
    for (CurvePoint& p : c.points) {
      if (p.valid) p.crossed_from = crossover(previous, p.fits, p.binding);
      if (p.crossed_from && before) p.crossed_at = crossing(*before, p, *p.crossed_from, p.binding);
      previous = p.drawn() ? std::optional<unsigned>(p.binding) : std::nullopt;
      before = p.drawn() ? &p : nullptr;
    }
  }
  return out;
}

std::size_t plot_x_axis(const std::vector<Axis>& axes) {
  std::size_t best = axes.empty() ? 0 : axes.size() - 1;
  for (std::size_t a = axes.size(); a-- > 0;)
    if (axes[a].range.size() > axes[best].range.size()) best = a;
  return best;
}

std::vector<Axis> plot_axes(const std::vector<Axis>& axes, std::size_t x) {
  std::vector<Axis> out;
  for (std::size_t a = 0; a < axes.size(); ++a)
    if (a != x) out.push_back(axes[a]);
  if (x < axes.size()) out.push_back(axes[x]);
  return out;
}

std::vector<InertAxis> SweepGather::inert_axes(const Scenario& base) const {
  const std::size_t total = rows_.size();
  if (total == 0) return {};
  std::vector<InertAxis> out;
  std::size_t stride = total;
  for (const Axis& a : axes_) {
    const std::size_t n = a.range.size();
    stride /= n;  // points between neighbours along this axis (the last axis: 1)
    if (n < 2) continue;
    bool inert = true;
    for (std::size_t i = 0; i < total && inert; ++i)
      if ((i / stride) % n > 0) inert = same_figures(rows_[i], rows_[i - stride]);
    if (inert) out.push_back({a.field, inert_reason(a.field, first_point(base, axes_))});
  }
  return out;
}

std::string point_label(const std::vector<Axis>& axes, const Scenario& point) {
  std::string label;
  for (const auto& a : axes)
    label += fmt::format("{}{}={}", label.empty() ? "" : ", ", spec(a.field).key,
                         format_value(spec(a.field), point.get(a.field), a.range.dim()));
  return label;
}

std::vector<Field> axis_fields(const std::vector<Axis>& axes) {
  std::vector<Field> fields;
  fields.reserve(axes.size());
  for (const auto& a : axes) fields.push_back(a.field);
  return fields;
}

Scenario first_point(const Scenario& base, const std::vector<Axis>& axes) {
  Scenario s = base;
  for (const auto& a : axes) s.set(a.field, {a.range.at(0), a.range.dim()});
  return s;
}

void check_plot_points(const std::vector<Axis>& axes) {
  const std::size_t points = grid_size(axes);
  if (points > kMaxPlotPoints)
    throw Error(fmt::format("a plot shows at most {} points and this sweep has {}: narrow a range for --plot",
                            kMaxPlotPoints, points));
}

}  // namespace pipesim
