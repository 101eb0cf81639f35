#include "cli/plans.hpp"

#include <algorithm>

#include "core/base/error.hpp"

namespace pipesim {

void add_plan_options(CLI::App& cmd, PlanOptions& o, const char* what, Output output) {
  cmd.add_option("plans", o.plans, what)->required();
  cmd.add_option("--set", o.sets, "Override a field in every plan, e.g. --set cpu.cores=64 (repeatable)")
      ->type_name("KEY=VALUE")
      ->check(key_value("KEY=VALUE", "cpu.cores=64"))
      ->allow_extra_args(false);
  add_format_option(cmd, o.format, output);
}

void check_stdin_once(const PlanOptions& o) {
  if (std::count(o.plans.begin(), o.plans.end(), "-") > 1)
    throw Error("standard input (-) can be only one of the plans: write the others to files");
}

LoadedScenario load_plan(const PlanOptions& o, const std::string& arg, std::vector<std::string>* read) {
  LoadedScenario s = load_scenario(arg, read);
  for (const auto& a : o.sets) apply_assignment(s, a);
  for (const auto& r : o.requires_) apply_requirement(s, r);
  return s;
}

std::vector<LoadedScenario> load_plans(const PlanOptions& o) {
  check_stdin_once(o);
  std::vector<LoadedScenario> loaded;
  for (const auto& arg : o.plans) loaded.push_back(load_plan(o, arg));
  return loaded;
}

PlanReport plan_report(const LoadedScenario& s, std::string label) {
  PlanReport r{std::move(label), &s, {}, {}, {}, {}, {}};
  const Inputs in = with_origins(s, [&] { return resolve(s.scenario); });
  r.result = with_origins(s, [&] { return evaluate(in); });
  r.assumptions = assumptions(s.scenario, in);
  for (Assumption& a : foreign_assumptions(s.scenario, in, s.plan.measured_for)) r.assumptions.push_back(std::move(a));
  r.unused = with_unused_uses(s, unused_keys(s.scenario, user_fields(s)));
  return r;
}

}  // namespace pipesim
