// `pipesim attribute caching|observed|log|trace`: stage costs from the caching experiments the
// user ran (the tutorial docs/tutorials/gpu-at-40-percent.md), a scenario solved from an observed
// figure, what a per-step log says, what profiler traces say.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "cli/common.hpp"
#include "config/trace.hpp"
#include "core/analyses/attribute.hpp"
#include "core/analyses/solve.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/base/units.hpp"
#include "core/sim/steplog.hpp"
#include "report/attribution.hpp"

namespace pipesim {

namespace {

struct AttributeOptions {
  CommonOptions common;  // attribute observed's [SCENARIO] and --set
  std::vector<std::string> observed;
  std::string log;
  std::vector<std::string> traces;
  std::string log_format = "auto";
  std::size_t skip = 1;
  std::string solve;
  double batch = 0;  // 0: not given
  double workers = -1;
  CLI::Option* batch_opt = nullptr;             // attribute log's --batch, to tell it given
  std::array<std::string, kCacheLevels> rates;  // by CacheLevel, as typed
  std::string full_at;                          // WORKERS=RATE
  std::string sample_size;
  std::string device_sample_size;
  Format format = Format::Table;
  std::string output;
};

// fn(), with `where` given to an Error that names no place of its own.
template <class Fn>
auto located(const std::string& where, Fn fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Error& e) {
    if (!e.origin().empty()) throw;
    throw Error(Origin::argument(where), e.what());
  }
}

std::optional<double> size_option(const std::string& text, const std::string& option) {
  if (text.empty()) return std::nullopt;
  return located(option, [&] {
    const double v = parse_quantity_as(text, dims(Dim::Size)).value;
    if (!(v > 0)) throw Error("a sample size must be more than 0 bytes");
    return v;
  });
}

// Whether this command line was an old spelling (attribute_old_spelling rewrote it): its mode then
// says the new one on stderr once it has succeeded.
bool g_old_spelling = false;

Destinations destinations(const AttributeOptions& o) { return {o.format, o.output, {}, {}, {}}; }

void finish(const AttributeOptions& o, std::string_view mode, const Report& r) {
  emit(destinations(o), r);
  if (g_old_spelling)
    fmt::print(stderr,
               "pipesim: note: attribute's modes are subcommands: this is `pipesim attribute {}` (the old spelling "
               "keeps working)\n",
               mode);
}

// The observations one solve takes at most.
constexpr std::size_t kMaxObservations = 8;

void add_output_option(CLI::App& cmd, AttributeOptions& o) {
  cmd.add_option("-o,--output", o.output, "Write to FILE (whole or not at all) instead of standard output")
      ->type_name("FILE");
}

// attribute observed: the scenario solved for one field.
void setup_observed(CLI::App& parent) {
  auto o = std::make_shared<AttributeOptions>();
  auto* cmd = parent.add_subcommand(
      "observed", "Solve a scenario for the one rate it leaves unknown from what the training loop showed");
  cmd->add_option("scenario", o->common.scenario,
                  "The scenario to solve (TOML file or preset; default: the embedded 'reference')");
  cmd->add_option("--set", o->common.sets, "Override a field (repeatable)")
      ->type_name("KEY=VALUE")
      ->check(key_value("KEY=VALUE", "pipeline.batch_size=64"))
      ->allow_extra_args(false);
  cmd->add_option("--observed", o->observed,
                  "What the training loop showed: \"3.1 it/s\", \"790 samples/s\" (one accelerator's), \"5600 "
                  "samples/s for the node\" or \"utilization=40%\" (compute over step: nvidia-smi's GPU-Util, the "
                  "share of time any kernel runs, reads higher). Repeat it to fit the field to several figures and "
                  "see how far they disagree; required")
      ->type_name("FIGURE")
      ->required()
      ->allow_extra_args(false);
  cmd->add_option("--solve", o->solve, "The field to solve for (default: the worker's rate)")->type_name("KEY");
  add_format_option(*cmd, o->format, Output::Solution, "attribute observed", "toml gives the solved scenario");
  add_output_option(*cmd, *o);
  cmd->callback([o] {
    if (o->observed.size() > kMaxObservations)
      throw Error(Origin::argument("--observed"), fmt::format("at most {} observations", kMaxObservations));
    std::vector<Observation> seen;
    for (const std::string& text : o->observed)
      seen.push_back(located("--observed", [&] { return parse_observation(text); }));
    LoadedScenario loaded = load_with_sets(o->common);
    check_destinations(destinations(*o), loaded.files);
    Field unknown = default_unknown(loaded.scenario);
    if (!o->solve.empty()) {
      const FieldSpec* f = find_field(o->solve);
      if (!f) throw Error(Origin::argument("--solve"), unknown_key_message(o->solve));
      unknown = f->field;
    }
    const std::string where = o->observed.size() == 1 ? "--observed " + echo(o->observed.front()) : "--observed";
    const JointSolution sol = located(where, [&] {
      return with_origins(loaded, [&] { return solve_observations(loaded.scenario, unknown, seen); });
    });
    finish(*o, "observed", SolutionReport{loaded, sol});
  });
}

// attribute log FILE: what a per-step log says.
void setup_log(CLI::App& parent) {
  auto o = std::make_shared<AttributeOptions>();
  auto* cmd = parent.add_subcommand(
      "log", "What a training loop's per-step log of data_time and time says: the waits and the loader's rate");
  cmd->add_option("file", o->log, "The log: JSON lines, CSV or mmcv/MMEngine text")->type_name("FILE")->required();
  cmd->add_option("--log-format", o->log_format, "The log's format: auto, jsonl, csv or text")->capture_default_str();
  cmd->add_option("--skip", o->skip, "Records left out at the start (the loader's start)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{1000000000}));
  o->batch_opt = cmd->add_option("--batch", o->batch, "Samples per step, for samples/s");
  add_format_option(*cmd, o->format, Output::StepLog, "attribute log", "");
  add_output_option(*cmd, *o);
  cmd->callback([o] {
    if (o->batch_opt->count() > 0)
      located("--batch", [&] { check_value(spec(Field::BatchSize), {o->batch, Dim::Number}); });
    const StepLogFormat format = located("--log-format", [&] { return parse_step_log_format(o->log_format); });
    check_destinations(destinations(*o), {o->log});
    const StepLog log = read_step_log(o->log, format);
    const StepLogSummary s = located(o->log, [&] {
      return summarise_step_log(log.records, o->skip, o->batch > 0 ? std::optional<double>(o->batch) : std::nullopt);
    });
    finish(*o, "log", StepLogReport{o->log, log, s});
  });
}

// attribute trace FILE...: what PyTorch profiler traces say, one file per rank; with --format
// toml, the scenario that reproduces them.
void setup_trace(CLI::App& parent) {
  auto o = std::make_shared<AttributeOptions>();
  auto* cmd = parent.add_subcommand(
      "trace", "What PyTorch profiler traces say: each step's wait for data, copies and device time, per rank");
  cmd->add_option("files", o->traces, "Chrome-trace JSON from torch.profiler (.json or .json.gz), one per rank")
      ->type_name("FILE")
      ->required();
  add_format_option(*cmd, o->format, Output::Trace, "attribute trace",
                    "toml writes the scenario that reproduces the trace");
  add_output_option(*cmd, *o);
  cmd->add_option("--scenario", o->common.scenario,
                  "With --format toml: the scenario to complete (TOML file or preset; default: the embedded "
                  "'reference')");
  cmd->add_option("--set", o->common.sets, "With --format toml: override a field of it (repeatable)")
      ->type_name("KEY=VALUE")
      ->check(key_value("KEY=VALUE", "cpu.cores=16"))
      ->allow_extra_args(false);
  o->batch_opt =
      cmd->add_option("--batch", o->batch, "With --format toml: samples a step takes (a trace does not say)");
  auto* workers = cmd->add_option("--workers", o->workers, "With --format toml: the DataLoader's workers");
  cmd->callback([o, workers] {
    const bool scenario = o->format == Format::Toml;
    if (scenario && o->batch_opt->count() == 0)
      throw Error(Origin::argument("--format toml"),
                  "the scenario that reproduces a trace needs --batch, the samples a step takes, which a trace does "
                  "not hold");
    if (!scenario &&
        (o->batch_opt->count() > 0 || workers->count() > 0 || !o->common.sets.empty() || !o->common.scenario.empty()))
      throw Error("--scenario, --set, --batch and --workers describe the scenario --format toml writes: give it too");
    if (scenario) located("--batch", [&] { check_value(spec(Field::BatchSize), {o->batch, Dim::Number}); });
    if (workers->count() > 0)
      located("--workers", [&] { check_value(spec(Field::Workers), {o->workers, Dim::Number}); });
    std::vector<std::string> inputs = o->traces;
    std::optional<LoadedScenario> loaded;
    if (scenario) {
      loaded = load_with_sets(o->common);
      inputs.insert(inputs.end(), loaded->files.begin(), loaded->files.end());
    }
    check_destinations(destinations(*o), inputs);
    std::vector<RankTrace> ranks;
    for (const std::string& path : o->traces) ranks.push_back(read_profiler_trace(path));
    const TraceSummary s = summarise_traces(ranks);
    if (!scenario) return finish(*o, "trace", TraceReport{s});
    // The trace's keys, as --set would give them, then the worker rate solved for its pace. Each
    // says it came from the trace (or the option that gave it), not from a --set.
    const TraceKeys k = trace_keys(s, o->batch);
    set_from(*loaded, "pipeline.batch_size", fmt::format("{}", o->batch),
             Origin::argument(fmt::format("--batch {}", o->batch)));
    if (workers->count() > 0)
      set_from(*loaded, "pipeline.workers", fmt::format("{}", o->workers),
               Origin::argument(fmt::format("--workers {}", o->workers)));
    set_trace_keys(*loaded, k, o->batch,
                   Origin::argument(fmt::format("the trace ({})", o->traces.size() == 1 ? o->traces[0] : "its ranks")));
    const Observation seen{Observed::SamplesPerS, k.samples_per_s, Scope::Accelerator};
    const JointSolution sol = with_origins(
        *loaded, [&] { return solve_observations(loaded->scenario, default_unknown(loaded->scenario), {seen}); });
    finish(*o, "trace", TraceReport{s, &*loaded, &sol});
  });
}

// attribute caching: stage costs from the caching experiments' rates.
void setup_caching(CLI::App& parent) {
  auto o = std::make_shared<AttributeOptions>();
  auto* cmd = parent.add_subcommand(
      "caching",
      "Stage costs from the caching experiments: the rates of the training loop fed a batch cached on the "
      "device, on the host, a cached sample, a cached raw sample and the full pipeline");
  cmd->add_option("--batch", o->batch, "Samples per step in the experiments; required")->required();
  cmd->add_option("--workers", o->workers, "DataLoader num_workers in the experiments; required")->required();
  const std::array<const char*, kCacheLevels> help = {
      "Rate with one batch kept on the device (compute alone); required",
      "Rate with one batch kept on the host and copied to the device each step",
      "Rate of the DataLoader over a dataset that returns one cached, transformed sample",
      "Rate of the DataLoader over one cached raw sample, transformed each time",
      "Rate of the full pipeline; required"};
  for (std::size_t i = 0; i < kCacheLevels; ++i)
    cmd->add_option(level_option(static_cast<CacheLevel>(i)), o->rates[i], help[i])->type_name("RATE");
  cmd->add_option("--full-at", o->full_at,
                  "Rate of the full pipeline with another number of workers (e.g. 6=4.2): whether the workers' "
                  "count moves the rate")
      ->type_name("WORKERS=RATE");
  cmd->add_option("--sample-size", o->sample_size, "Bytes stored per sample, for the scenario keys (e.g. 110KB)")
      ->type_name("SIZE");
  cmd->add_option("--device-sample-size", o->device_sample_size,
                  "Bytes per sample copied to the device (e.g. 602KB for 3x224x224 fp32): the copy becomes a link "
                  "bandwidth")
      ->type_name("SIZE");
  add_format_option(*cmd, o->format, Output::Attribution, "attribute caching", "toml gives the scenario keys alone");
  add_output_option(*cmd, *o);
  cmd->footer(
      "Rates are steps/s (\"3.45\", \"3.45 it/s\") or samples/s (\"880 samples/s\"), each measured over a few "
      "hundred steps after a warm-up.");
  cmd->callback([o] {
    check_destinations(destinations(*o), {});
    // Held to the rules of pipeline.batch_size and pipeline.workers (0 and 1e308 are not batches).
    located("--batch", [&] { check_value(spec(Field::BatchSize), {o->batch, Dim::Number}); });
    located("--workers", [&] { check_value(spec(Field::Workers), {o->workers, Dim::Number}); });
    CachingExperiments e;
    e.batch = o->batch;
    e.workers = o->workers;
    for (std::size_t i = 0; i < kCacheLevels; ++i) {
      if (o->rates[i].empty()) continue;
      e.steps_per_s[i] =
          located(level_option(static_cast<CacheLevel>(i)), [&] { return parse_step_rate(o->rates[i], o->batch); });
    }
    if (!o->full_at.empty()) {
      const auto eq = o->full_at.find('=');
      if (eq == std::string::npos)
        throw Error(Origin::argument("--full-at"), fmt::format("expected WORKERS=RATE, got \"{}\"", echo(o->full_at)));
      e.other_workers = located("--full-at", [&] {
        return parse_quantity_as(std::string_view(o->full_at).substr(0, eq), dims(Dim::Number)).value;
      });
      e.other_full =
          located("--full-at", [&] { return parse_step_rate(std::string_view(o->full_at).substr(eq + 1), o->batch); });
    }
    e.sample_bytes = size_option(o->sample_size, "--sample-size");
    e.device_sample_bytes = size_option(o->device_sample_size, "--device-sample-size");
    const Attribution a = attribute(e);
    finish(*o, "caching", AttributionReport{a});
  });
}

constexpr std::array<std::string_view, 4> kModes = {"caching", "observed", "log", "trace"};

}  // namespace

bool attribute_old_spelling(std::vector<std::string>& args) {
  if (args.size() < 2 || args.front() != "attribute") return false;
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return false;
  for (std::string_view m : kModes)
    if (args[1] == m) return false;
  const auto has = [&](std::string_view option) {
    return std::any_of(args.begin(), args.end(),
                       [&](const std::string& a) { return a == option || a.starts_with(std::string(option) + "="); });
  };
  std::string_view mode = "caching";
  if (has("--observed")) {
    mode = "observed";
  } else if (has("--log")) {
    mode = "log";
    // --log FILE becomes the positional FILE.
    for (std::size_t i = 1; i < args.size(); ++i) {
      if (args[i] == "--log" && i + 1 < args.size()) {
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
      if (args[i].starts_with("--log=")) {
        args[i] = args[i].substr(6);
        break;
      }
    }
  }
  args.insert(args.begin() + 1, std::string(mode));
  g_old_spelling = true;
  return true;
}

void setup_attribute(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "attribute",
      "Stage costs and rates from what a training run showed: the caching experiments, an observed figure, "
      "a per-step log, profiler traces");
  cmd->require_subcommand(1);
  setup_caching(*cmd);
  setup_observed(*cmd);
  setup_log(*cmd);
  setup_trace(*cmd);
}

}  // namespace pipesim
