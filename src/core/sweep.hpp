// A cartesian grid of scenarios: one axis per swept field, the last axis innermost.
#pragma once

#include <cstddef>
#include <vector>

#include "core/fields.hpp"
#include "core/range.hpp"

namespace pipesim {

struct Axis {
  Field field;
  Range range;
};

// Most points one sweep may have.
constexpr double kMaxSweepPoints = 1e9;

// Number of points; throws Error when over kMaxSweepPoints or when an axis is empty.
std::size_t grid_size(const std::vector<Axis>& axes);

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

}  // namespace pipesim
