// One interface for every output format. Each format is one file (table.cpp, markdown.cpp,
// json.cpp, csv.cpp, junit.cpp) and formats.cpp is the one place that picks it by name.
// Renderers compute nothing: every number they print is a member of a core result.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "config/loader.hpp"
#include "core/check.hpp"
#include "core/compare.hpp"
#include "core/diagnosis.hpp"
#include "core/simulate.hpp"
#include "core/sweep.hpp"
#include "report/out.hpp"

namespace pipesim {

// What a command renders.
enum class Output : std::uint8_t { Diagnosis, Sweep, Check, Compare, Simulation };

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
  PlanOutcome outcome;
  // check: the plan could not be loaded or evaluated. It is reported as an error beside the
  // others (and on stderr, exit 2); `loaded` may then be null and nothing above but the label is set.
  std::optional<Error> error;
};

class Renderer {
 public:
  virtual ~Renderer() = default;
  [[nodiscard]] virtual bool renders(Output) const { return true; }
  // Sweep rows carry each point's recommendations (so each point is diagnosed).
  [[nodiscard]] virtual bool sweep_recommendations() const { return false; }
  // The text formats wrap a diagnosis's prose to this many columns (0: one line per sentence).
  virtual void wrap_to(std::size_t /*columns*/) {}
  virtual void diagnosis(Out& o, const LoadedScenario& loaded, const Diagnosis& d) = 0;
  // A sweep: sweep_begin once, then sweep_row for every point in order (rows may be rendered on
  // several threads at once, each into its own Out, so sweep_row keeps no state), then
  // sweep_end. `first`: the grid's first row.
  virtual void sweep_begin(const SweepLayout&) {}
  virtual void sweep_row(Out& o, const SweepLayout& layout, const SweepPoint& p, bool first) const = 0;
  virtual void sweep_end(Out& o, const SweepLayout& layout, std::size_t rows) const = 0;
  virtual void check(Out& o, const std::vector<PlanReport>& plans) = 0;
  virtual void compare(Out& o, const std::vector<PlanReport>& plans, const std::vector<CompareRow>& rows) = 0;
  virtual void simulation(Out& o, const LoadedScenario& loaded, const Simulation& s) = 0;
};

// The renderer for a format name ("table", "markdown", "json", "csv", "junit"); throws Error
// for an unknown name or a format that does not render `what`.
std::unique_ptr<Renderer> make_renderer(std::string_view format, Output what);
// The points of a written sweep that the model refused (each is a row that says why).
struct SweepSummary {
  std::size_t invalid = 0;
  std::size_t first_invalid = 0;  // index in the grid, when invalid > 0
  std::string first_point;        // its swept values, "accelerator.count=16, pipeline.batch_size=32"
  std::string first_reason;
};
// Writes a whole sweep to `file` as its rows are computed, the points split in chunks over
// `jobs` threads (1: this thread alone); the output is the same for any number of jobs.
// With `simulate`, every point is simulated too (layout.simulated must be set). With `progress`,
// a line on it says how far the sweep is (for a terminal; erased at the end).
SweepSummary write_sweep(Renderer& renderer, std::FILE* file, const Scenario& base, const std::vector<Axis>& axes,
                         const SweepLayout& layout, unsigned jobs, const SimOptions* simulate = nullptr,
                         std::FILE* progress = nullptr);

// A whole diagnosis in a format, as a string (nothing is written when something fails); the
// table's prose wrapped to `columns` (0: not wrapped).
inline std::string render_diagnosis(std::string_view format, const LoadedScenario& loaded, const Diagnosis& d,
                                    std::size_t columns = 0) {
  const auto renderer = make_renderer(format, Output::Diagnosis);
  renderer->wrap_to(columns);
  std::string text;
  {
    Out o(text);
    renderer->diagnosis(o, loaded, d);
  }
  return text;
}

// The format names that render `what`: "table, markdown, json or csv".
std::string format_names(Output what);

}  // namespace pipesim
