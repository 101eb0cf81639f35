// `pipesim simulate [SCENARIO]`: the scenario event by event with the DataLoader's rules, the
// analytic figures beside; --trace writes what a profiler would show.
#include <fmt/format.h>
#include <memory>
#include <sstream>

#include "cli/common.hpp"
#include "config/input_file.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/sim/simulate.hpp"
#include "report/html.hpp"
#include "report/plot.hpp"
#include "report/trace.hpp"

namespace pipesim {

namespace {

struct SimulateOptions : CommonOptions {
  std::uint64_t seed = 1;
  std::size_t batches = 0;
  std::size_t epochs = 0;
  std::string trace;
  std::string plot;
  std::size_t trace_steps = 50;
  std::string sample_times;
  bool draw_samples = false;
};

// One per-sample time per line ("3.2 ms", or a bare number of seconds); blank lines and lines
// starting with # are skipped. An error names the file, line and column.
std::vector<double> read_sample_times(const std::string& path) {
  std::istringstream f(read_input_file(path, std::size_t{16} << 20, "the file"));
  std::vector<double> times;
  std::string line;
  for (int n = 1; std::getline(f, line); ++n) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto last = line.find_last_not_of(" \t\r");
    const std::string_view text = std::string_view(line).substr(first, last - first + 1);
    try {
      Quantity q = parse_quantity(text);
      if (q.dim != Dim::Number && q.dim != Dim::Duration)
        throw Error(fmt::format("expected a time per sample (e.g. \"3.2 ms\"), got {}", dim_name(q.dim)));
      if (!(q.value > 0)) throw Error(fmt::format("a time per sample must be positive, got {}", echo(text)));
      times.push_back(q.value);
    } catch (const Error& e) {
      throw Error(Origin::file(path, n, static_cast<int>(first) + 1), e.what());
    }
  }
  if (times.empty()) throw Error(Origin::file(path), "no per-sample times in the file (one per line, e.g. \"3.2 ms\")");
  return times;
}

}  // namespace

void setup_simulate(CLI::App& app) {
  auto opts = std::make_shared<SimulateOptions>();
  auto* cmd = app.add_subcommand(
      "simulate", "The scenario event by event with the DataLoader's rules: waits, bursts, epochs, variance");
  add_common_options(*cmd, *opts, Output::Simulation);
  cmd->add_option("--seed", opts->seed, "Seed of the random draws (the same seed gives the same run)")
      ->capture_default_str()
      ->check(kSeedRange);
  cmd->add_option("--batches", opts->batches, "Steps of the steady run (default: 2000, more with many workers)")
      ->check(kStepsRange);
  cmd->add_option("--epochs", opts->epochs, "Epochs to simulate when workload.dataset_samples is set (default: 2)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  cmd->add_option("--trace", opts->trace,
                  "Write the first steps as Chrome trace-event JSON (Perfetto, chrome://tracing)")
      ->type_name("FILE");
  add_plot_option(*cmd, opts->plot);
  cmd->add_option("--trace-steps", opts->trace_steps,
                  fmt::format("Steps the trace covers, and the figure's timeline (at most {})", kMaxTimelineSteps))
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{kMaxTimelineSteps}));
  cmd->add_option("--sample-times", opts->sample_times,
                  "Per-sample transform times to draw from, one per line (\"3.2 ms\"), instead of the lognormal")
      ->type_name("FILE");
  cmd->add_flag("--draw-samples", opts->draw_samples,
                "Draw every sample's time and size rather than a batch's at once (slower; the two agree within "
                "the simulation's standard error: docs/manual/commands.md, Simulation)");
  cmd->callback([opts] {
    LoadedScenario loaded = load_with_sets(*opts);
    // The per-sample times are an input too: never written over.
    std::vector<std::string> inputs = loaded.files;
    if (!opts->sample_times.empty()) inputs.push_back(opts->sample_times);
    const Destinations to{opts->format, {}, opts->plot, {}, opts->trace};
    check_destinations(to, inputs);
    SimOptions o;
    o.seed = opts->seed;
    o.batches = opts->batches;
    o.epochs = opts->epochs;
    o.sample_draws = opts->draw_samples;
    if (!opts->trace.empty() || !opts->plot.empty()) o.trace_steps = opts->trace_steps;
    if (!opts->sample_times.empty()) {
      // The list's mean is the transform's cost for both columns: the analytic one and the draws.
      o.sample_times = read_sample_times(opts->sample_times);
      o.sample_times_label = opts->sample_times;
      loaded.scenario.set(Field::TransformCost, {mean(o.sample_times), Dim::Duration});
      loaded.origins[static_cast<std::size_t>(Field::TransformCost)] =
          Origin::argument("--sample-times " + opts->sample_times);
    }
    const Simulation s = with_origins(loaded, [&] { return simulate(resolve(loaded.scenario), o); });
    emit(to, SimulationReport{loaded, s},
         {.figure = {[&] { return simulation_svg(loaded, s, opts->trace_steps); },
                     [&](const std::string& svg, const std::string& words) {
                       return simulation_html(loaded, words, svg, assumptions(loaded.scenario, s.inputs));
                     }},
          .trace = [&] { return chrome_trace(s, loaded.name); }});
  });
}

}  // namespace pipesim
