#include <algorithm>

#include "report/renderer.hpp"

namespace pipesim {

SweepLayout sweep_layout(const std::vector<Axis>& axes, const Scenario& first_point, const GridColumns& columns,
                         bool cost) {
  SweepLayout l;
  l.first_point = first_point;
  for (const auto& a : axes) l.swept.push_back(a.field);
  for (const auto& a : axes)
    if (std::find(l.inputs.begin(), l.inputs.end(), a.field) == l.inputs.end()) l.inputs.push_back(a.field);
  // Tables show the swept inputs innermost first, as people read left to right.
  std::reverse(l.inputs.begin(), l.inputs.end());
  for (Stage s : kStages)
    if (columns.stages & stage_bit(s)) l.stages.push_back(s);
  l.cost = cost;
  l.first_epoch = columns.first_epoch;
  l.effective_workers = columns.effective_workers;
  l.worst_epoch = columns.worst_epoch;
  l.run = columns.run;
  return l;
}

}  // namespace pipesim
