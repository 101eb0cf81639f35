// A cartesian grid of scenarios: one axis per swept field, the last axis innermost; and the
// crossovers met while walking it.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "core/diagnosis.hpp"
#include "core/fields.hpp"
#include "core/range.hpp"

namespace pipesim {

struct Axis {
  Field field;
  Range range;
};

// Most points one sweep may have.
constexpr double kMaxSweepPoints = 1e9;

// An axis from a key and range text ("storage.read_bandwidth", "1GB/s..8GB/s"). Throws Error
// (no origin) for an unknown key, with "did you mean", or a bad range.
Axis parse_axis(std::string_view key, std::string_view range_text);

// Number of points; throws Error when over kMaxSweepPoints, when an axis is empty, or when two
// axes set the same field or two alternatives of one (the grid would be ambiguous).
std::size_t grid_size(const std::vector<Axis>& axes);

// The scenario at the first point of the grid.
Scenario first_point(const Scenario& base, const std::vector<Axis>& axes);

// Calls visit(scenario, inner_index) for every point, outer axes slowest; inner_index is the
// position along the last axis (0 at the start of each run of the innermost axis).
template <class Visit>
void for_each_point(const Scenario& base, const std::vector<Axis>& axes, Visit&& visit) {
  Scenario s = base;
  const std::size_t n = axes.size();
  if (n == 0) {
    visit(s, std::size_t{0});
    return;
  }
  std::vector<std::size_t> idx(n, 0);
  for (std::size_t a = 0; a < n; ++a) s.set(axes[a].field, {axes[a].range.at(0), axes[a].range.dim()});
  while (true) {
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
      if (a == 0) return;
    }
  }
}

// One evaluated point of a sweep.
struct SweepPoint {
  const Scenario& scenario;
  const Result& result;
  const Diagnosis* diagnosis;  // when the sweep was asked for recommendations
  // The binding stages (bit per Stage) at the previous point when the wall changed between it
  // and this one along the innermost axis, both points fitting in accelerator memory.
  std::optional<unsigned> crossed_from;
};

// Evaluates every point (with a diagnosis per point when `diagnose_points`) and calls
// visit(const SweepPoint&) in grid order.
template <class Visit>
void sweep(const Scenario& base, const std::vector<Axis>& axes, bool diagnose_points, Visit&& visit) {
  unsigned previous = 0;
  bool previous_fits = true;
  const auto step = [&](const Scenario& s, std::size_t inner, const Result& r, const Diagnosis* d) {
    std::optional<unsigned> crossed;
    if (inner > 0 && r.fits && previous_fits && r.binding != previous) crossed = previous;
    visit(SweepPoint{s, r, d, crossed});
    previous = r.binding;
    previous_fits = r.fits;
  };
  for_each_point(base, axes, [&](const Scenario& s, std::size_t inner) {
    if (diagnose_points) {
      const Diagnosis d = diagnose(s);
      step(s, inner, d.result, &d);
    } else {
      const Result r = evaluate(resolve(s));
      step(s, inner, r, nullptr);
    }
  });
}

}  // namespace pipesim
