// A cartesian grid of scenarios: one axis per swept field, the last axis innermost; and the
// crossovers met while walking it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "core/analyses/check.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/base/fields.hpp"
#include "core/base/range.hpp"
#include "core/sim/simulate.hpp"

namespace pipesim {

struct Axis {
  Field field;
  Range range;
};

// Most points one sweep may have; above kLargeSweepPoints it needs --force (at about 1 us per
// point, ten million points take seconds and a billion a quarter of an hour or more).
constexpr double kMaxSweepPoints = 1e9;
constexpr double kLargeSweepPoints = 1e7;

// An axis from a key and range text ("storage.read_bandwidth", "1GB/s..8GB/s"). Throws Error
// (no origin) for an unknown key, with "did you mean", or a bad range.
Axis parse_axis(std::string_view key, std::string_view range_text);

// Number of points; throws Error when over kMaxSweepPoints, when an axis is empty, or when two
// axes set the same field or two alternatives of one (the grid would be ambiguous).
std::size_t grid_size(const std::vector<Axis>& axes);

// A point's swept values, for messages: "accelerator.count=16, pipeline.batch_size=32".
std::string point_label(const std::vector<Axis>& axes, const Scenario& point);

// An axis along which no figure of a sweep's table changes (step, stage times, utilization,
// throughput, fit, epoch and cost): each of its values gives the same row wherever the other
// axes stand, with why when pipesim knows ("the transform's rate is per sample").
struct InertAxis {
  Field field;
  std::string reason;  // empty when no known cause explains it
};
// Grids up to this many points are checked whole; larger ones are not checked (nothing is said).
constexpr std::size_t kMaxInertCheck = 20000;

// The fields a grid's points set: its axes' (for a FixMemo).
std::vector<Field> axis_fields(const std::vector<Axis>& axes);

// The scenario at the first point of the grid.
Scenario first_point(const Scenario& base, const std::vector<Axis>& axes);

// Calls visit(scenario, inner_index) for the points [begin, end) of the grid in order, outer
// axes slowest; inner_index is the position along the last axis (0 at the start of each run
// of the innermost axis).
template <class Visit>
void for_each_point(const Scenario& base, const std::vector<Axis>& axes, std::size_t begin, std::size_t end,
                    Visit&& visit) {
  Scenario s = base;
  const std::size_t n = axes.size();
  if (n == 0) {
    if (begin == 0 && end > 0) visit(s, std::size_t{0});
    return;
  }
  // Point `begin` in mixed radix, the last axis fastest.
  std::vector<std::size_t> idx(n, 0);
  for (std::size_t a = n, rest = begin; a > 0; --a) {
    idx[a - 1] = rest % axes[a - 1].range.size();
    rest /= axes[a - 1].range.size();
  }
  for (std::size_t a = 0; a < n; ++a) s.set(axes[a].field, {axes[a].range.at(idx[a]), axes[a].range.dim()});
  for (std::size_t i = begin; i < end; ++i) {
    visit(s, idx[n - 1]);
    std::size_t a = n;
    while (a > 0) {
      --a;
      if (++idx[a] < axes[a].range.size()) {
        s.set(axes[a].field, {axes[a].range.at(idx[a]), axes[a].range.dim()});
        break;
      }
      idx[a] = 0;
      s.set(axes[a].field, {axes[a].range.at(0), axes[a].range.dim()});
    }
  }
}

template <class Visit>
void for_each_point(const Scenario& base, const std::vector<Axis>& axes, Visit&& visit) {
  for_each_point(base, axes, 0, grid_size(axes), std::forward<Visit>(visit));
}

// The grid's point `index` (in the order for_each_point visits them).
Scenario point_at(const Scenario& base, const std::vector<Axis>& axes, std::size_t index);

// One evaluated point of a sweep.
struct SweepPoint {
  const Scenario& scenario;
  const Result& result;        // empty (all zero) for an invalid point
  const Diagnosis* diagnosis;  // when the sweep was asked for recommendations (null when invalid)
  // The binding stages (bit per Stage) at the previous point when the wall changed between it
  // and this one along the innermost axis, both points valid and fitting in accelerator memory.
  std::optional<unsigned> crossed_from;
  // Why the model refuses this point (what `diagnose` would say of it), empty when it is valid.
  std::string_view invalid;
  // The point simulated (sweep --simulate), when valid and fitting in accelerator memory.
  const Simulation* simulated = nullptr;
  // The point judged by the plan's requirements (a sweep over a plan), when valid and judged.
  const PlanOutcome* outcome = nullptr;
};

// The index of the first point of the grid the model accepts (and, given `simulated`, that can
// be simulated with those options). When no point is valid, rethrows the first point's error (a
// FieldError the loader can locate), so nothing has been written.
std::size_t first_valid_point(const Scenario& base, const std::vector<Axis>& axes,
                              const SimOptions* simulated = nullptr);

// What a sweep's columns must hold, over every point of the grid: the stages modelled at any
// valid point, and whether the first epoch differs (page cache) at any. Both depend only on
// which fields are set, the same at every point, and on the values of name and true/false
// fields (transform.device): the sub-grid of the axes over those, every other axis at the
// values of point `valid`, decides them (tests/unit/core/analyses/sweep_test.cpp checks this against
// every point of random grids).
struct GridColumns {
  unsigned stages = 0;  // bit per Stage
  bool first_epoch = false;
  bool worst_epoch = false;  // the dataset size is known: the first epoch with its start
  bool run = false;          // and the epochs: the whole run
  bool priced = false;       // a price is set (cost columns can be filled)
  // Somewhere on the grid fewer workers add throughput than run (the cores or the scaling law
  // cap them): rows show the effective count. Probed at the first valid point and with each
  // numeric axis at its ends.
  bool effective_workers = false;
};
GridColumns grid_columns(const Scenario& base, const std::vector<Axis>& axes, std::size_t valid);

// The crossover rule, along any axis: a point crosses from `previous` (the binding stages of the
// point before it, when that one was valid and fitted in accelerator memory; nullopt otherwise)
// when it fits as well and another wall binds.
inline std::optional<unsigned> crossover(std::optional<unsigned> previous, bool fits, unsigned binding) {
  return fits && previous && binding != *previous ? previous : std::nullopt;
}

// Evaluates the points [begin, end) (with a diagnosis per point when `diagnose_points`, its fixes
// looked up in `memo` when given (made for the axes' fields), and a simulation with `simulate`
// when given: a point too long to simulate is refused) and calls visit(const SweepPoint&) in
// grid order. Slices of one grid may run on several threads:
// a slice that starts inside a run of the innermost axis evaluates the point before it, so
// its crossovers are the same as in one pass.
template <class Visit>
void sweep(const Scenario& base, const std::vector<Axis>& axes, std::size_t begin, std::size_t end,
           bool diagnose_points, Visit&& visit, const SimOptions* simulate_points = nullptr, FixMemo* memo = nullptr) {
  static const Result kNone{};
  // The previous point's binding stages, when it was valid and fitted (no crossover otherwise).
  std::optional<unsigned> previous;
  bool seeded = false;
  std::optional<Simulation> simulated;
  Diagnosis diagnosis;  // each point's, in storage reused point after point
  const auto step = [&](const Scenario& s, std::size_t inner, const Result& r, const Diagnosis* d) {
    const std::optional<unsigned> crossed = inner > 0 ? crossover(previous, r.fits, r.binding) : std::nullopt;
    visit(SweepPoint{s, r, d, crossed, {}, simulated ? &*simulated : nullptr});
    previous = r.fits ? std::optional<unsigned>(r.binding) : std::nullopt;
  };
  const auto refused = [&](const Scenario& s, const Error& e) {
    visit(SweepPoint{s, kNone, nullptr, std::nullopt, e.what()});
    previous.reset();
  };
  for_each_point(base, axes, begin, end, [&](const Scenario& s, std::size_t inner) {
    if (!seeded) {
      seeded = true;
      if (inner > 0 && begin > 0)
        for_each_point(base, axes, begin - 1, begin, [&](const Scenario& before, std::size_t) {
          try {
            const Result r = evaluate(resolve(before));
            if (r.fits) previous = r.binding;
          } catch (const Error&) {
          }
        });
    }
    // Only the model's refusal of this point is caught: an error from visit goes on. The result
    // is built in place (this is the hot path of every sweep).
    bool evaluated = false;
    try {
      simulated.reset();
      if (simulate_points) {
        const Inputs in = resolve(s);
        if (evaluate(in).fits) simulated = simulate(in, *simulate_points);
      }
      if (diagnose_points) {
        diagnose(s, memo, diagnosis);
        evaluated = true;
        step(s, inner, diagnosis.result, &diagnosis);
      } else {
        const Result r = evaluate(resolve(s));
        evaluated = true;
        step(s, inner, r, nullptr);
      }
    } catch (const Error& e) {
      if (evaluated) throw;
      refused(s, e);
    }
  });
}

template <class Visit>
void sweep(const Scenario& base, const std::vector<Axis>& axes, bool diagnose_points, Visit&& visit) {
  sweep(base, axes, 0, grid_size(axes), diagnose_points, std::forward<Visit>(visit));
}

// Most points a sweep --simulate may have without --force (each is a whole simulation).
constexpr double kLargeSimulatedSweep = 1000;

// A sweep as curves, for a plot: one curve per combination of the other axes' values, its
// points along the plot's x axis (any one of the swept axes).
struct CurvePoint {
  double x = 0;  // the x axis's value
  bool valid = false;
  bool fits = true;  // the batch fits in the accelerator's memory (Result::fits)
  double utilization = 0;
  double throughput = 0;            // samples/s, the cluster
  std::array<double, 4> stage_s{};  // per Stage, time per batch (0 when not modelled)
  unsigned modelled = 0;            // bit per Stage
  unsigned binding = 0;             // bit per Stage
  // The binding stages at the previous point along x when the wall changed between the two, both
  // drawn (valid and fitting in accelerator memory): the sweep's crossover rule along x.
  std::optional<unsigned> crossed_from;
  // With crossed_from: where between the previous point and this one the two walls' times are
  // equal, interpolating each linearly along x (exact where both are linear in x, as a stage's
  // time is in the batch size); this point's x where they do not cross between the two.
  double crossed_at = 0;
  // sweep --simulate: the simulated figures, when the point was simulated.
  std::optional<double> simulated_utilization;
  std::optional<double> simulated_throughput;  // samples/s, the cluster
  // A plot draws the point when the model gives it and its batch fits; the others are gaps.
  [[nodiscard]] bool drawn() const { return valid && fits; }
};
struct Curve {
  std::vector<double> outer;  // the other axes' values, in the order of plot_axes (x left out)
  std::vector<CurvePoint> points;
};
// The axis a plot draws along x when none is chosen: the swept axis with the most values, the
// innermost of those tied (a sweep over 16 batch sizes and 2 worker counts draws batch size).
std::size_t plot_x_axis(const std::vector<Axis>& axes);
// The axes in a plot's order: the others in their order, then axis `x` last (the figures read the
// last axis as x and the others as what tells curves apart).
std::vector<Axis> plot_axes(const std::vector<Axis>& axes, std::size_t x);
// Most points a plot shows: more would not be readable, and a plot holds every point at once.
inline constexpr std::size_t kMaxPlotPoints = 20000;
// Throws Error when the grid has more than kMaxPlotPoints points (before any point is evaluated).
void check_plot_points(const std::vector<Axis>& axes);

// What a sweep keeps of its points, as they are evaluated, for what follows its rows: the
// plot's curves and the figures that find inert axes. One pass over the grid serves the rows,
// the plot and the note. Each point writes its own slot, so slices of one grid may add from
// several threads at once (each index once).
class SweepGather {
 public:
  // `curves`: keep the plot's curves along axis `x` (check_plot_points first; default: the
  // innermost). `inert`: keep what inert_axes compares, for a grid of at most kMaxInertCheck
  // points (a larger one keeps nothing).
  SweepGather(const std::vector<Axis>& axes, bool curves, bool inert, std::optional<std::size_t> x = std::nullopt);
  void add(std::size_t index, const SweepPoint& p);
  // The curves, once every point was added, their crossovers marked along x.
  [[nodiscard]] std::vector<Curve> curves() const;
  // The swept axes (of two or more values) that change nothing, once every point was added; a
  // point the model refuses counts as a change. Empty for a grid larger than kMaxInertCheck.
  [[nodiscard]] std::vector<InertAxis> inert_axes(const Scenario& base) const;

 private:
  // The figures a sweep row shows (step, utilization, throughput, fit, epoch, cost, the first
  // epoch's and the run's utilization, the four stages' times), for comparing two points;
  // nullopt for a refused point.
  using RowFigures = std::optional<std::array<double, 12>>;
  std::vector<Axis> axes_;
  std::size_t x_ = 0;                 // the axis along which curves run
  std::vector<std::size_t> strides_;  // per axis: points between neighbours along it
  std::vector<Curve> curves_;
  std::vector<RowFigures> rows_;
};

}  // namespace pipesim
