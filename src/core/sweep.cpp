#include "core/sweep.hpp"

#include <fmt/format.h>

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

Scenario first_point(const Scenario& base, const std::vector<Axis>& axes) {
  Scenario s = base;
  for (const auto& a : axes) s.set(a.field, {a.range.at(0), a.range.dim()});
  return s;
}

}  // namespace pipesim
