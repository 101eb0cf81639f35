#include "core/sweep.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace pipesim {

std::size_t grid_size(const std::vector<Axis>& axes) {
  double total = 1;
  for (const auto& a : axes) {
    if (a.range.size() == 0) throw Error(fmt::format("{}: the range is empty", spec(a.field).key));
    total *= static_cast<double>(a.range.size());
  }
  if (total > kMaxSweepPoints)
    throw Error(fmt::format("the sweep has {:.0f} points, more than the limit of {:.0f}", total,
                            kMaxSweepPoints));
  return static_cast<std::size_t>(total);
}

}  // namespace pipesim
