// `pipesim check PLAN...`: evaluates each plan's [require] table; exit 1 when any fails.
// `pipesim compare A B ...`: plans side by side.
#include <fstream>
#include <memory>

#include "cli/common.hpp"
#include "core/check.hpp"
#include "core/error.hpp"
#include "report/plans.hpp"

namespace pipesim {

namespace {

struct PlanOptions {
  std::vector<std::string> plans;
  std::vector<std::string> sets;
  std::vector<std::string> requires_;
  std::string format = "table";
  std::string junit;
};

// Loads every plan and evaluates it at its own batch size, before anything is written.
std::vector<LoadedScenario> load_plans(const PlanOptions& o) {
  std::vector<LoadedScenario> loaded;
  for (const auto& arg : o.plans) {
    LoadedScenario s = load_scenario(arg);
    for (const auto& a : o.sets) apply_assignment(s, a);
    for (const auto& r : o.requires_) apply_requirement(s, r);
    loaded.push_back(std::move(s));
  }
  return loaded;
}

void add_plan_options(CLI::App& cmd, PlanOptions& o, const char* what) {
  cmd.add_option("plans", o.plans, what)->required();
  cmd.add_option("--set", o.sets, "Override a field in every plan, e.g. --set cpu.cores=64 (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd.add_option("--format", o.format, "Output format: table, json, csv or markdown")->capture_default_str();
}

void run_check(const PlanOptions& o) {
  const Format format = parse_format(o.format);
  const std::vector<LoadedScenario> loaded = load_plans(o);
  std::vector<PlanReport> reports;
  bool all_pass = true;
  for (const auto& s : loaded) {
    if (s.plan.requirements.empty())
      throw Error(Origin{s.source}, "the plan has no requirements: add a [require] table (e.g. min_utilization = "
                                    "\"90%\") or pass --require KEY=VALUE");
    PlanReport r{plan_label(s.source.rfind("preset:", 0) == 0 ? s.source.substr(7) : s.source), &s, {}, {}};
    r.result = with_origins(s, [&] { return evaluate(resolve(s.scenario)); });
    r.outcome = with_origins(s, [&] { return check_plan(s.scenario, s.plan); });
    all_pass &= r.outcome.pass;
    reports.push_back(std::move(r));
  }
  const std::string text = render_check(reports, format);
  if (!o.junit.empty()) {
    std::ofstream out(o.junit, std::ios::binary);
    if (!out) throw Error(Origin{"--junit " + o.junit}, "cannot open the file for writing");
    out << render_junit(reports);
    if (!out) throw Error(Origin{"--junit " + o.junit}, "cannot write the file");
  }
  write_stdout(text);
  if (!all_pass) throw ExitCode{kExitCheckFailed};
}

void run_compare(const PlanOptions& o) {
  const Format format = parse_format(o.format);
  if (o.plans.size() < 2) throw Error("compare needs at least two plans or scenarios");
  const std::vector<LoadedScenario> loaded = load_plans(o);
  std::vector<PlanReport> reports;
  for (const auto& s : loaded) {
    PlanReport r{plan_label(s.source.rfind("preset:", 0) == 0 ? s.source.substr(7) : s.source), &s, {}, {}};
    r.result = with_origins(s, [&] { return evaluate(resolve(s.scenario)); });
    reports.push_back(std::move(r));
  }
  write_stdout(render_compare(reports, format));
}

}  // namespace

void setup_check(CLI::App& app) {
  auto opts = std::make_shared<PlanOptions>();
  auto* cmd = app.add_subcommand(
      "check", "Evaluate each plan's [require] table; exit 0 when all pass, 1 when any fails, 2 on bad input");
  add_plan_options(*cmd, *opts, "Plan files (scenarios with a [require] table) or preset names");
  cmd->add_option("--require", opts->requires_,
                  "Add or override a requirement in every plan, e.g. --require min_utilization=90% (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("--junit", opts->junit, "Also write JUnit XML to FILE: one test case per plan and requirement")
      ->type_name("FILE");
  cmd->callback([opts] { run_check(*opts); });
}

void setup_compare(CLI::App& app) {
  auto opts = std::make_shared<PlanOptions>();
  auto* cmd = app.add_subcommand(
      "compare", "Plans side by side: throughput, utilization, binding wall, epoch time and cost; best marked");
  add_plan_options(*cmd, *opts, "Plan or scenario files, or preset names (two or more)");
  cmd->callback([opts] { run_compare(*opts); });
}

}  // namespace pipesim
