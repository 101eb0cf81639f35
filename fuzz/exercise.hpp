// What every fuzz target does with a scenario that loaded: run every command's core and
// renderer on it and abort on any output that is not finite or not valid JSON.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "../tests/support/json_check.hpp"
#include "config/loader.hpp"
#include "core/check.hpp"
#include "core/diagnosis.hpp"
#include "report/plans.hpp"
#include "report/render.hpp"

namespace pipesim::fuzz {

[[noreturn]] inline void die(const char* what, const std::string& text) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n%s\n", what, text.c_str());
  std::abort();
}

inline void expect_clean(const std::string& text, bool json) {
  const std::string& own = text;
  if (test::has_non_finite_word(own)) die("inf or nan in output", text);
  if (json) {
    test::JsonCheck j;
    if (!j.parse(text)) die(("invalid JSON: " + j.error).c_str(), text);
  }
}

inline void exercise(const LoadedScenario& given) {
  // Names and descriptions are the user's words, echoed (and escaped) as given: replace
  // them so that any "inf" or "nan" left in the output is pipesim's own.
  LoadedScenario s = given;
  s.name = "fuzzed scenario";
  s.description.clear();
  try {
    const Diagnosis d = with_origins(s, [&] { return diagnose(s.scenario); });
    const Result& r = d.result;
    if (!(r.utilization > 0 && r.utilization <= 1)) die("utilization outside (0, 1]", std::to_string(r.utilization));
    for (Format f : {Format::Table, Format::Json, Format::Csv, Format::Markdown})
      expect_clean(render_diagnosis(s, s.scenario, d, f), f == Format::Json);
    std::vector<PlanReport> reports{{"fuzz", &s, r, {}}};
    if (!s.plan.requirements.empty()) {
      reports[0].outcome = check_plan(s.scenario, s.plan);
      for (Format f : {Format::Table, Format::Json, Format::Csv}) expect_clean(render_check(reports, f), f == Format::Json);
      expect_clean(render_junit(reports), false);
    }
    reports.push_back(reports[0]);
    for (Format f : {Format::Table, Format::Json, Format::Csv}) expect_clean(render_compare(reports, f), f == Format::Json);
  } catch (const Error&) {
    // Bad input is reported as an error: fine.
  }
}

}  // namespace pipesim::fuzz
