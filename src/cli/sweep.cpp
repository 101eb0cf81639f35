// `pipesim sweep [SCENARIO] --batch R --workers R --sample-size R --vary KEY=R`: a cartesian grid.
#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cli/common.hpp"
#include "cli/sweep_rows.hpp"
#include "core/analyses/check.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep.hpp"
#include "core/base/error.hpp"
#include "core/sim/simulate.hpp"
#include "core/stages/model.hpp"
#include "report/html.hpp"
#include "report/plot.hpp"
#include "report/words.hpp"

namespace pipesim {

namespace {

struct SweepOptions : CommonOptions {
  std::string batch, workers, sample_size;
  std::string plot;  // --plot FILE.svg
  std::string x;     // --x KEY: the plot's x axis
  std::vector<std::string> vary;
  bool cost = false;
  bool force = false;
  bool simulate = false;
  std::uint64_t seed = 1;
  std::size_t batches = 0;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  // Given on the command line (an empty range is an error, not "not given").
  CLI::Option *batch_opt = nullptr, *workers_opt = nullptr, *sample_size_opt = nullptr;
};

// The swept axis --x names: its key, or the option that sweeps it (batch, workers, sample-size).
std::size_t x_axis(const std::vector<Axis>& axes, const std::string& key) {
  const std::string_view k = key == "batch"         ? "pipeline.batch_size"
                             : key == "workers"     ? "pipeline.workers"
                             : key == "sample-size" ? "workload.sample_size"
                                                    : std::string_view(key);
  std::string swept;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    if (spec(axes[a].field).key == k) return a;
    swept += fmt::format("{}{}", swept.empty() ? "" : ", ", spec(axes[a].field).key);
  }
  throw Error(
      Origin::argument("--x " + key),
      fmt::format("{}; the x axis is one of the swept keys: {}",
                  find_field(k) == nullptr ? unknown_key_message(k) : fmt::format("{} is not swept", k), swept));
}

// The sweep's rows as the table prints them (`text`), for its HTML page (the grid a plot draws is
// at most kMaxPlotPoints): all of them up to 60, else the first and last 25 with a line between.
std::string table_rows(const std::string& text) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(std::string_view(text).substr(at, end - at));
    at = end + 1;
  }
  constexpr std::size_t kEnds = 25;
  if (lines.size() <= 1 + 2 * kEnds + 10) return text;
  std::string out;
  for (std::size_t i = 0; i <= kEnds; ++i) out += std::string(lines[i]) + "\n";
  out += fmt::format("... {} rows left out (pipesim sweep prints them all) ...\n", lines.size() - 1 - 2 * kEnds);
  for (std::size_t i = lines.size() - kEnds; i < lines.size(); ++i) out += std::string(lines[i]) + "\n";
  return out;
}

// The keys the user set that change nothing at the first point of the grid (the axes' own keys
// aside: the sweep sets them); none when the model refuses that point.
std::vector<UnusedKey> first_unused(const LoadedScenario& loaded, const std::vector<Axis>& axes,
                                    const Scenario& first) {
  std::vector<Field> set = user_fields(loaded);
  const std::vector<Field> swept = axis_fields(axes);
  std::erase_if(set, [&](Field f) { return std::find(swept.begin(), swept.end(), f) != swept.end(); });
  try {
    return with_unused_uses(loaded, unused_keys(first, set));
  } catch (const Error&) {
    return with_unused_uses(loaded, {});
  }
}

// The grid's axes from the options, outer to inner: --vary in the order given, then sample
// size, workers, batch.
std::vector<Axis> sweep_axes(const SweepOptions& o) {
  std::vector<Axis> axes;
  const auto add_axis = [&](const std::string& option, std::string_view key, std::string_view text) {
    try {
      axes.push_back(parse_axis(key, text));
    } catch (const Error& e) {
      throw Error(Origin::argument(option), e.what());
    }
  };
  for (const auto& v : o.vary) {
    const auto eq = v.find('=');
    if (eq == std::string::npos)
      throw Error(Origin::argument("--vary " + v),
                  "expected KEY=RANGE, e.g. --vary storage.read_bandwidth=1GB/s..8GB/s");
    add_axis("--vary " + v, std::string_view(v).substr(0, eq), std::string_view(v).substr(eq + 1));
  }
  if (o.sample_size_opt->count() > 0) add_axis("--sample-size " + o.sample_size, "workload.sample_size", o.sample_size);
  if (o.workers_opt->count() > 0) add_axis("--workers " + o.workers, "pipeline.workers", o.workers);
  if (o.batch_opt->count() > 0) add_axis("--batch " + o.batch, "pipeline.batch_size", o.batch);
  if (axes.empty()) throw Error("sweep needs something to vary: --batch, --workers, --sample-size or --vary KEY=RANGE");
  return axes;
}

void sweep_command(const SweepOptions& o) {
  const auto renderer = sweep_renderer(o.format);
  LoadedScenario loaded = load_with_sets(o);
  const Destinations to{o.format, {}, o.plot, {}, {}};
  check_destinations(to, loaded.files);

  SimOptions sim;
  sim.seed = o.seed;
  sim.batches = o.batches;
  SweepRequest request{sweep_axes(o), o.simulate ? &sim : nullptr, o.cost, o.force, loaded.plan, loaded.source};
  const std::vector<Axis>& axes = request.axes;
  // Before anything is written (core's plan_sweep: a valid point, columns that fit every point).
  const SweepPlan plan = with_origins(loaded, [&] { return plan_sweep(loaded.scenario, request); });
  const std::size_t points = plan.points;
  const Scenario& first = plan.first;
  // The plot's x axis, and a sweep too large to plot, before any row is written.
  if (!o.x.empty() && o.plot.empty())
    throw Error(Origin::argument("--x " + o.x), "--x chooses the plot's x axis: give --plot FILE.svg as well");
  const std::size_t x = o.x.empty() ? plot_x_axis(axes) : x_axis(axes, o.x);
  if (!o.plot.empty()) {
    try {
      check_sweep_svg(plot_axes(axes, x));
    } catch (const Error& e) {
      throw Error(Origin::argument("--plot " + o.plot), e.what());
    }
  }
  // The rows' pass over the grid also gathers the plot's curves and what finds inert axes.
  SweepGather gather(axes, !o.plot.empty(), true, x);
  // An HTML page keeps the rows as the table prints them, rendered in the same pass.
  const auto table = sweep_renderer(Format::Table);
  SweepCopy rows{*table, {}};
  const bool html = !o.plot.empty() && plot_is_html(o.plot);
  SweepLayout layout = sweep_layout(axes, first, plan.columns, o.cost);
  layout.simulated = o.simulate;
  layout.verdict = plan.verdict;
  // A progress line on stderr for a long sweep, when a person watches it (a terminal).
  const char* term = std::getenv("TERM");
  const bool long_sweep = points >= (o.simulate ? 20 : 200000);
  std::FILE* progress =
      long_sweep && isatty(2) == 1 && !(term != nullptr && std::string_view(term) == "dumb") ? stderr : nullptr;
  // What each point computes is this command's to say: JSON rows carry each point's fixes.
  const SweepRun run{o.jobs, o.format == Format::Json, o.simulate ? &sim : nullptr,
                     layout.verdict ? &plan.plan : nullptr};
  const SweepSummary summary =
      write_sweep(*renderer, stdout, loaded.scenario, axes, layout, run, progress, &gather, html ? &rows : nullptr);
  // check_sweep_svg above refused every grid sweep_svg would.
  emit_plot(to,
            {[&] { return sweep_svg(loaded, plot_axes(axes, x), gather.curves()); },
             [&](const std::string& svg, const std::string& words) {
               return sweep_html(loaded, axes, svg, words, point_assumptions(first), first_unused(loaded, axes, first));
             }},
            html ? table_rows(rows.text) : std::string());
  for (const InertAxis& a : gather.inert_axes(loaded.scenario))
    fmt::print(stderr,
               "pipesim: note: {} changes nothing in this sweep: every row is the same at each of its values{}\n",
               spec(a.field).key, a.reason.empty() ? "" : ": " + a.reason);
  if (summary.invalid > 0)
    fmt::print(stderr, "pipesim: warning: {} of {} points {} invalid (rows that say why); the first, at {}: {}\n",
               summary.invalid, points, summary.invalid == 1 ? "is" : "are", summary.first_point, summary.first_reason);
}

}  // namespace

void setup_sweep(CLI::App& app) {
  auto opts = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand("sweep",
                                 "A cartesian grid over batch size, workers, sample size and any field; "
                                 "one row per point, crossovers marked");
  add_common_options(*cmd, *opts, Output::Sweep);
  opts->batch_opt =
      cmd->add_option("--batch", opts->batch, "Batch sizes, e.g. 32..1024 (doubling), 1..16:+1, 32..1024:x4, 8,16,32")
          ->type_name("RANGE");
  opts->workers_opt = cmd->add_option("--workers", opts->workers, "Workers per accelerator, e.g. 4..64 or 0..16:+1")
                          ->type_name("RANGE");
  opts->sample_size_opt =
      cmd->add_option("--sample-size", opts->sample_size, "Bytes per sample, e.g. 100KB..5MB")->type_name("RANGE");
  cmd->add_option("--vary", opts->vary, "Any field over a range, e.g. --vary cpu.cores=8,16,32 (repeatable)")
      ->type_name("KEY=RANGE")
      ->check(key_value("KEY=RANGE", "cpu.cores=8,16,32"))
      ->allow_extra_args(false);
  cmd->add_option("--jobs", opts->jobs, "Threads that compute rows (default: one per core); the output is the same")
      ->check(CLI::Range(1u, 256u))
      ->type_name("N");
  cmd->add_flag("--force", opts->force, "Run a sweep of more than 10,000,000 points (up to 1,000,000,000)");
  cmd->add_flag("--cost", opts->cost,
                "Add cost columns: cost per epoch and samples per USD (CSV: also the price and idle cost)");
  cmd->add_flag("--simulate", opts->simulate,
                "Simulate every point as well (pipesim simulate, the same seed at each point): simulated "
                "utilization, throughput and wait p95 beside the closed forms");
  add_plot_option(*cmd, opts->plot);
  cmd->add_option("--x", opts->x,
                  "With --plot: the swept key drawn along x (default: the swept axis with the most values), "
                  "e.g. --x pipeline.workers or --x workers")
      ->type_name("KEY");
  cmd->add_option("--seed", opts->seed, "With --simulate: the seed of the random draws")
      ->capture_default_str()
      ->check(kSeedRange);
  cmd->add_option("--batches", opts->batches, "With --simulate: steps of each point's steady run")->check(kStepsRange);
  cmd->callback([opts] { sweep_command(*opts); });
}

}  // namespace pipesim
