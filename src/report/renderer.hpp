// The renderers: one interface per kind of result. Each format is one file (text_report.cpp for
// table and markdown, json.cpp, csv.cpp, junit.cpp, github.cpp) and formats.cpp is the one place
// that names formats and picks their renderers.
// Renderers compute nothing: every number they print is a member of a core result.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "config/loader.hpp"
#include "core/analyses/check.hpp"
#include "core/analyses/compare.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep.hpp"
#include "core/analyses/sweep_run.hpp"
#include "core/sim/simulate.hpp"
#include "report/format.hpp"
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

// One interface per kind of result: a format implements those it writes (formats.cpp says
// which), so no format has a body for a result it does not write.
class DiagnosisRenderer {
 public:
  virtual ~DiagnosisRenderer() = default;
  virtual void diagnosis(Out& o, const LoadedScenario& loaded, const Diagnosis& d) const = 0;
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
class CheckRenderer {
 public:
  virtual ~CheckRenderer() = default;
  virtual void check(Out& o, const std::vector<PlanReport>& plans) const = 0;
};
class CompareRenderer {
 public:
  virtual ~CompareRenderer() = default;
  virtual void compare(Out& o, const std::vector<PlanReport>& plans, const std::vector<CompareRow>& rows) const = 0;
};
class SimulationRenderer {
 public:
  virtual ~SimulationRenderer() = default;
  virtual void simulation(Out& o, const LoadedScenario& loaded, const Simulation& s) const = 0;
};

// The renderer of a format for one kind of result. The format was parsed for that kind
// (parse_format), so it writes it; `columns`: the width a text format wraps a diagnosis's
// prose, or a plan's assumptions, to (0: one line per sentence).
std::unique_ptr<DiagnosisRenderer> diagnosis_renderer(Format format, std::size_t columns = 0);
std::unique_ptr<SweepRenderer> sweep_renderer(Format format);
std::unique_ptr<CheckRenderer> check_renderer(Format format, std::size_t columns = 0);
std::unique_ptr<CompareRenderer> compare_renderer(Format format, std::size_t columns = 0);
std::unique_ptr<SimulationRenderer> simulation_renderer(Format format);

// What one format renders: a maker for each kind of result it writes, null for the others.
struct FormatRenderers {
  std::unique_ptr<DiagnosisRenderer> (*diagnosis)(std::size_t columns) = nullptr;
  std::unique_ptr<SweepRenderer> (*sweep)() = nullptr;
  std::unique_ptr<CheckRenderer> (*check)(std::size_t columns) = nullptr;
  std::unique_ptr<CompareRenderer> (*compare)(std::size_t columns) = nullptr;
  std::unique_ptr<SimulationRenderer> (*simulation)() = nullptr;
};
// The makers for a renderer class R: one for each interface R implements. A class built from
// the wrap width (the text formats) gets it.
template <class R>
std::unique_ptr<R> make_renderer(std::size_t columns) {
  if constexpr (std::is_constructible_v<R, std::size_t>)
    return std::make_unique<R>(columns);
  else
    return std::make_unique<R>();
}
template <class R>
FormatRenderers renderers_of() {
  FormatRenderers f;
  if constexpr (std::is_base_of_v<DiagnosisRenderer, R>)
    f.diagnosis = [](std::size_t columns) -> std::unique_ptr<DiagnosisRenderer> { return make_renderer<R>(columns); };
  if constexpr (std::is_base_of_v<SweepRenderer, R>)
    f.sweep = []() -> std::unique_ptr<SweepRenderer> { return std::make_unique<R>(); };
  if constexpr (std::is_base_of_v<CheckRenderer, R>)
    f.check = [](std::size_t columns) -> std::unique_ptr<CheckRenderer> { return make_renderer<R>(columns); };
  if constexpr (std::is_base_of_v<CompareRenderer, R>)
    f.compare = [](std::size_t columns) -> std::unique_ptr<CompareRenderer> { return make_renderer<R>(columns); };
  if constexpr (std::is_base_of_v<SimulationRenderer, R>)
    f.simulation = []() -> std::unique_ptr<SimulationRenderer> { return std::make_unique<R>(); };
  return f;
}

// A whole diagnosis in a format, as a string (nothing is written when something fails); the
// text formats' prose wrapped to `columns` (0: not wrapped).
inline std::string render_diagnosis(Format format, const LoadedScenario& loaded, const Diagnosis& d,
                                    std::size_t columns = 0) {
  std::string text;
  {
    Out o(text);
    diagnosis_renderer(format, columns)->diagnosis(o, loaded, d);
  }
  return text;
}

}  // namespace pipesim
