// A sweep's curves and inert axes from a pass of their own over the grid, single-threaded: what
// the sweep command gathers from its rows' pass (SweepGather, fed by run_sweep on several
// threads), computed the plain way for tests to compare against.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/analyses/sweep.hpp"

namespace pipesim::test {

// The curves of a whole grid along axis `x` (default: the innermost), after check_plot_points.
inline std::vector<Curve> sweep_curves(const Scenario& base, const std::vector<Axis>& axes,
                                       std::optional<std::size_t> x = std::nullopt) {
  check_plot_points(axes);
  SweepGather gather(axes, true, false, x);
  std::size_t i = 0;
  sweep(base, axes, false, [&](const SweepPoint& p) { gather.add(i++, p); });
  return gather.curves();
}

// The swept axes that change nothing; empty for a grid larger than kMaxInertCheck.
inline std::vector<InertAxis> inert_axes(const Scenario& base, const std::vector<Axis>& axes) {
  if (grid_size(axes) > kMaxInertCheck) return {};
  SweepGather gather(axes, false, true);
  std::size_t i = 0;
  sweep(base, axes, false, [&](const SweepPoint& p) { gather.add(i++, p); });
  return gather.inert_axes(base);
}

}  // namespace pipesim::test
