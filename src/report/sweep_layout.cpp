#include <algorithm>

#include "report/renderer.hpp"

namespace pipesim {

SweepLayout sweep_layout(const std::vector<Axis>& axes, const Result& first, bool cost) {
  SweepLayout l;
  for (const auto& a : axes)
    if (std::find(l.inputs.begin(), l.inputs.end(), a.field) == l.inputs.end()) l.inputs.push_back(a.field);
  // Tables show the swept inputs innermost first, as people read left to right.
  std::reverse(l.inputs.begin(), l.inputs.end());
  for (Stage s : kStages)
    if (first.stage(s).modelled) l.stages.push_back(s);
  l.cost = cost;
  l.first_epoch = first.cold.has_value();
  return l;
}

}  // namespace pipesim
