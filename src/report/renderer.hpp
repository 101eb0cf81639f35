// What the formats' writers share: a sweep's columns, a plan's report, and the interface of a
// sweep written row by row (output.hpp has the way every whole output is written).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/loader.hpp"
#include "core/analyses/check.hpp"
#include "core/analyses/compare.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep.hpp"
#include "core/analyses/sweep_run.hpp"
#include "core/sim/simulate.hpp"
#include "report/out.hpp"

namespace pipesim {

// The columns of a sweep, decided before its first row is written.
struct SweepLayout {
  std::vector<Field> inputs;       // swept fields, each once, innermost first (as tables read)
  std::vector<Stage> stages;       // stages modelled at any point of the grid (table columns)
  bool cost = false;               // cost columns
  bool first_epoch = false;        // the page cache makes the first epoch differ at some point: CSV carries it
  Scenario first_point;            // the grid's first point: fields not swept hold these values throughout
  std::vector<Field> swept;        // every swept field
  bool simulated = false;          // each point also simulated (sweep --simulate): its columns
  bool effective_workers = false;  // the tables show the workers that add throughput
  bool worst_epoch = false;        // the dataset size is known: the first epoch with its start
  bool run = false;                // and the epochs: the whole run
  bool verdict = false;            // each point judged by the plan's requirements (SweepPoint::outcome)
};
SweepLayout sweep_layout(const std::vector<Axis>& axes, const Scenario& first_point, const GridColumns& columns,
                         bool cost);

// A plan with its result at its own batch size, the defaults it rests on, and its
// requirements' outcome (check only).
struct PlanReport {
  std::string label;  // short name: the file stem or preset name
  const LoadedScenario* loaded;
  Result result;
  std::vector<Assumption> assumptions;
  std::vector<UnusedKey> unused;  // keys the plan set that change nothing its diagnosis computes
  PlanOutcome outcome;
  // check: the plan could not be loaded or evaluated. It is reported as an error beside the
  // others (and on stderr, exit 2); `loaded` may then be null and nothing above but the label is set.
  std::optional<Error> error;
};

// A sweep: begin once, then row for every point in order (rows may be rendered on several
// threads at once, each into its own Out, so row keeps no state), then end with what the run
// found (over a plan: the verdicts and the pick). `first`: the grid's first row.
class SweepRenderer {
 public:
  virtual ~SweepRenderer() = default;
  virtual void begin(const SweepLayout& layout) = 0;
  virtual void row(Out& o, const SweepLayout& layout, const SweepPoint& p, bool first) const = 0;
  virtual void end(Out& o, const SweepLayout& layout, const SweepSummary& summary) const = 0;
};

}  // namespace pipesim
