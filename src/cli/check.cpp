// `pipesim check PLAN...`: evaluates each plan's [require] table; exit 1 when any fails.
#include <deque>
#include <filesystem>
#include <memory>

#include "cli/plans.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "report/words.hpp"

namespace pipesim {

namespace {

// The file `arg` (the i-th plan) is one that another plan named read: a part of it.
bool used_by_another(const std::string& arg, std::size_t i, const std::vector<const LoadedScenario*>& plans) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::weakly_canonical(arg, ec);
  if (ec || !std::filesystem::is_regular_file(self, ec)) return false;
  for (std::size_t j = 0; j < plans.size(); ++j) {
    if (j == i || !plans[j]) continue;
    for (const std::string& f : plans[j]->files)
      if (std::filesystem::weakly_canonical(f, ec) == self && !ec) return true;
  }
  return false;
}

void run_check(const PlanOptions& o) {
  check_stdin_once(o);
  // Every plan is evaluated: one with bad input is reported as an error beside the others.
  std::deque<LoadedScenario> loaded;
  std::vector<PlanReport> reports;
  bool any_failed = false, any_unverified = false;
  bool errors = false;
  const std::vector<std::string> labels = plan_labels(o.plans);
  // Every file read for a plan, also for one that failed to load: none is written over.
  std::vector<std::string> read;
  // Every plan loaded first: a file without requirements that another plan uses is a fragment.
  std::vector<const LoadedScenario*> plans(o.plans.size(), nullptr);
  std::vector<std::optional<Error>> failed(o.plans.size());
  for (std::size_t i = 0; i < o.plans.size(); ++i) try {
      plans[i] = &loaded.emplace_back(load_plan(o, o.plans[i], &read));
    } catch (const Error& e) {
      failed[i] = e;
    }
  std::vector<std::string> fragments;
  for (std::size_t i = 0; i < o.plans.size(); ++i) {
    try {
      if (failed[i]) throw *failed[i];
      const LoadedScenario& s = *plans[i];
      if (s.plan.requirements.empty()) {
        if (used_by_another(o.plans[i], i, plans)) {
          fragments.push_back(o.plans[i]);
          continue;
        }
        throw Error(s.source,
                    "the plan has no requirements: add a [require] table (e.g. min_utilization = "
                    "\"90%\") or pass --require KEY=VALUE");
      }
      PlanReport r = plan_report(s, labels[i]);
      r.outcome = with_origins(s, [&] { return check_plan(s.scenario, s.plan); });
      // --strict: a key the plan sets that changes nothing is a failure of its own.
      if (o.strict && !r.unused.empty()) {
        r.outcome.unused_failures = r.unused.size();
        r.outcome.verdict = Verdict::Fail;
        r.outcome.pass = false;
      }
      any_failed |= r.outcome.verdict == Verdict::Fail;
      any_unverified |= r.outcome.verdict == Verdict::Unverified;
      reports.push_back(std::move(r));
    } catch (const Error& e) {
      errors = true;
      PlanReport r{labels[i], nullptr, {}, {}, {}, {}, e};
      reports.push_back(std::move(r));
    }
  }
  if (reports.empty()) throw Error("every file named is a fragment the others use: name a plan with requirements");
  if (!fragments.empty())
    fmt::print(stderr, "pipesim: note: skipped {} (no [require] of {}: a part the other plans use)\n",
               spoken_list(
                   fragments, [](const std::string& f) { return printable(f); }, " and "),
               fragments.size() == 1 ? "its own" : "their own");
  // Every plan argument is an input too, a plan that failed to load among them (`check ./plan.cfg
  // --junit ./plan.cfg` with a typo in the plan must not replace it with XML).
  const Destinations to{o.format, {}, {}, o.junit, {}};
  std::vector<std::string> inputs(o.plans.begin(), o.plans.end());
  inputs.insert(inputs.end(), read.begin(), read.end());
  check_destinations(to, inputs);
  emit(to, CheckReport{reports});
  if (errors) {
    for (const auto& r : reports)
      if (r.error) fmt::print(stderr, "{}\n", r.error->line());
    throw ExitCode{kExitUsage};
  }
  if (any_failed) throw ExitCode{kExitCheckFailed};
  if (any_unverified) throw ExitCode{kExitCheckUnverified};
}

}  // namespace

void setup_check(CLI::App& app) {
  auto opts = std::make_shared<PlanOptions>();
  auto* cmd = app.add_subcommand(
      "check",
      "Evaluate each plan's [require] table; exit 0 when all pass, 1 when any fails, 4 when one is unverified, "
      "2 on bad input");
  add_plan_options(*cmd, *opts, "Plan files (scenarios with a [require] table) or preset names", Output::Check);
  cmd->add_option("--require", opts->requires_,
                  "Add or override a requirement in every plan, e.g. --require min_utilization=90% (repeatable)")
      ->type_name("KEY=VALUE")
      ->check(key_value("KEY=VALUE", "min_utilization=90%"))
      ->allow_extra_args(false);
  cmd->add_option("--junit", opts->junit, "Also write JUnit XML to FILE: one test case per plan and requirement")
      ->type_name("FILE");
  cmd->add_flag("--strict", opts->strict, "A key a plan sets that changes nothing fails the plan (exit 1)");
  cmd->callback([opts] { run_check(*opts); });
}

}  // namespace pipesim
