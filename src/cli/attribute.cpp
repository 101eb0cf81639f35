// `pipesim attribute`: stage costs from the caching experiments the user ran (the tutorial
// docs/tutorials/gpu-at-40-percent.md).
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "cli/common.hpp"
#include "core/analyses/attribute.hpp"
#include "core/analyses/solve.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/base/units.hpp"
#include "core/sim/steplog.hpp"
#include "report/attribution.hpp"
#include "report/writers.hpp"

namespace pipesim {

namespace {

struct AttributeOptions {
  CommonOptions common;  // [SCENARIO] and --set, for --observed
  std::vector<std::string> observed;
  std::string log;
  std::string log_format = "auto";
  std::size_t skip = 1;
  std::string solve;
  double batch = 0;  // 0: not given
  double workers = -1;
  CLI::Option *batch_opt = nullptr, *workers_opt = nullptr;
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

void emit(const AttributeOptions& o, const std::string& text) {
  if (o.output.empty() || o.output == "-")
    write_stdout(text);
  else
    write_file(o.output, text, "--output");
}

// The observations one solve takes at most.
constexpr std::size_t kMaxObservations = 8;

// --observed: the scenario solved for one field.
std::string observed(const AttributeOptions& o) {
  for (const std::string& rate : o.rates)
    if (!rate.empty())
      throw Error(Origin::argument("--observed"),
                  "give either --observed with a scenario or the caching experiments' rates");
  if (o.observed.size() > kMaxObservations)
    throw Error(Origin::argument("--observed"), fmt::format("at most {} observations", kMaxObservations));
  std::vector<Observation> seen;
  for (const std::string& text : o.observed)
    seen.push_back(located("--observed", [&] { return parse_observation(text); }));
  LoadedScenario loaded = load_with_sets(o.common);
  if (!o.output.empty() && o.output != "-") refuse_input_as_output(o.output, loaded.files, "--output", true);
  Field unknown = default_unknown(loaded.scenario);
  if (!o.solve.empty()) {
    const FieldSpec* f = find_field(o.solve);
    if (!f) throw Error(Origin::argument("--solve"), unknown_key_message(o.solve));
    unknown = f->field;
  }
  const std::string where = o.observed.size() == 1 ? "--observed " + echo(o.observed.front()) : "--observed";
  const JointSolution sol = located(
      where, [&] { return with_origins(loaded, [&] { return solve_observations(loaded.scenario, unknown, seen); }); });
  return text_writers(o.format).solution(loaded, sol);
}

// --log: what a per-step log says.
std::string step_log(const AttributeOptions& o) {
  for (const std::string& rate : o.rates)
    if (!rate.empty()) throw Error(Origin::argument("--log"), "give either --log or the caching experiments' rates");
  if (o.format == Format::Toml)
    throw Error(Origin::argument("--format toml"),
                "a log gives figures, not scenario keys: use table or json, then "
                "--observed with your scenario");
  const StepLogFormat format = located("--log-format", [&] { return parse_step_log_format(o.log_format); });
  if (!o.output.empty() && o.output != "-") refuse_input_as_output(o.output, {o.log}, "--output", true);
  const StepLog log = read_step_log(o.log, format);
  const StepLogSummary s = located(o.log, [&] {
    return summarise_step_log(log.records, o.skip, o.batch > 0 ? std::optional<double>(o.batch) : std::nullopt);
  });
  return text_writers(o.format).step_log(o.log, log, s);
}

}  // namespace

void setup_attribute(CLI::App& app) {
  auto o = std::make_shared<AttributeOptions>();
  auto* cmd = app.add_subcommand(
      "attribute",
      "Stage costs from the caching experiments: the rates of the training loop fed a batch cached on the "
      "device, on the host, a cached sample, a cached raw sample and the full pipeline");
  cmd->add_option("scenario", o->common.scenario,
                  "With --observed: the scenario to solve (TOML file or preset; default: the embedded 'reference')");
  cmd->add_option("--set", o->common.sets, "With --observed: override a field (repeatable)")
      ->type_name("KEY=VALUE")
      ->check(key_value("KEY=VALUE", "pipeline.batch_size=64"))
      ->allow_extra_args(false);
  cmd->add_option("--observed", o->observed,
                  "What the training loop showed: \"3.1 it/s\", \"790 samples/s\" (one accelerator's), \"5600 "
                  "samples/s for the node\" or \"utilization=40%\" (compute over step: nvidia-smi's GPU-Util, the "
                  "share of time any kernel runs, reads higher); solves the scenario for the one field it leaves "
                  "unknown. Repeat it to fit the field to several figures and see how far they disagree")
      ->type_name("FIGURE")
      ->allow_extra_args(false);
  cmd->add_option("--solve", o->solve, "With --observed: the field to solve for (default: the worker's rate)")
      ->type_name("KEY");
  cmd->add_option("--log", o->log,
                  "A training loop's per-step log of data_time and time (JSON lines, CSV or mmcv/MMEngine text): "
                  "how long it waited for data and the loader's rate")
      ->type_name("FILE");
  cmd->add_option("--log-format", o->log_format, "With --log: auto, jsonl, csv or text")->capture_default_str();
  cmd->add_option("--skip", o->skip, "With --log: records left out at the start (the loader's start)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{1000000000}));
  o->batch_opt =
      cmd->add_option("--batch", o->batch, "Samples per step in the experiments (with --log: for samples/s)");
  o->workers_opt = cmd->add_option("--workers", o->workers, "DataLoader num_workers in the experiments");
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
  add_format_option(*cmd, o->format, Output::Attribution, {}, "toml gives the scenario keys alone");
  cmd->add_option("-o,--output", o->output, "Write to FILE (whole or not at all) instead of standard output")
      ->type_name("FILE");
  cmd->footer(
      "Rates are steps/s (\"3.45\", \"3.45 it/s\") or samples/s (\"880 samples/s\"), each measured over a few "
      "hundred steps after a warm-up.");
  cmd->callback([o] {
    // Held to the rules of pipeline.batch_size and pipeline.workers when given (0 and 1e308
    // are not batches).
    if (o->batch_opt->count() > 0)
      located("--batch", [&] { check_value(spec(Field::BatchSize), {o->batch, Dim::Number}); });
    if (o->workers_opt->count() > 0)
      located("--workers", [&] { check_value(spec(Field::Workers), {o->workers, Dim::Number}); });
    if (!o->observed.empty() && !o->log.empty())
      throw Error(Origin::argument("--log"),
                  "give either --log (what the log says) or --observed (a figure to solve the scenario from), "
                  "not both: --log reads the observed rate from the log; pass its figure to --observed to solve");
    if (!o->observed.empty()) {
      emit(*o, observed(*o));
      return;
    }
    if (!o->log.empty()) {
      emit(*o, step_log(*o));
      return;
    }
    if (!o->common.scenario.empty() || !o->common.sets.empty() || !o->solve.empty())
      throw Error(Origin::argument(!o->solve.empty()         ? "--solve"
                                   : !o->common.sets.empty() ? "--set"
                                                             : o->common.scenario),
                  "a scenario is solved only with --observed; the caching experiments need none");
    if (o->batch == 0 || o->workers < 0)
      throw Error(Origin::argument(o->batch == 0 ? "--batch" : "--workers"),
                  "the caching experiments need --batch and --workers (the DataLoader's batch_size and "
                  "num_workers), or use --observed with a scenario");
    CachingExperiments e;
    e.batch = o->batch;
    e.workers = o->workers;
    for (std::size_t i = 0; i < kCacheLevels; ++i) {
      if (o->rates[i].empty()) continue;
      e.steps_per_s[i] = located(level_option(static_cast<CacheLevel>(i)),
                                 [&] { return parse_step_rate(o->rates[i], o->batch > 0 ? o->batch : 1); });
    }
    if (!o->full_at.empty()) {
      const auto eq = o->full_at.find('=');
      if (eq == std::string::npos)
        throw Error(Origin::argument("--full-at"), fmt::format("expected WORKERS=RATE, got \"{}\"", echo(o->full_at)));
      e.other_workers = located("--full-at", [&] {
        return parse_quantity_as(std::string_view(o->full_at).substr(0, eq), dims(Dim::Number)).value;
      });
      e.other_full = located("--full-at", [&] {
        return parse_step_rate(std::string_view(o->full_at).substr(eq + 1), o->batch > 0 ? o->batch : 1);
      });
    }
    e.sample_bytes = size_option(o->sample_size, "--sample-size");
    e.device_sample_bytes = size_option(o->device_sample_size, "--device-sample-size");
    const Attribution a = attribute(e);
    emit(*o, text_writers(o->format).attribution(a));
  });
}

}  // namespace pipesim
