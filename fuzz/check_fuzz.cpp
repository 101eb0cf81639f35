// Fuzzes `check`: up to three plans (TOML, separated by lines "%%"), each loaded, checked
// and rendered together in every check format, as `pipesim check a.toml b.toml` does. The
// invariants: each requirement's verdict agrees with its value and threshold, the plan's with
// its requirements; JSON, CSV and JUnit (XML) parse; no inf or nan.
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.hpp"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<LoadedScenario> plans;
  for (int n = 0; n < 3; ++n) {
    const auto split = input.find("\n%%\n");
    const std::string_view text = input.substr(0, split);
    try {
      plans.push_back(
          load_scenario_text(text, Origin::file("plan" + std::to_string(n) + ".toml"), "/nonexistent-pipesim-fuzz"));
    } catch (const Error&) {
      return 0;
    }
    if (split == std::string_view::npos) break;
    input.remove_prefix(split + 4);
  }
  std::vector<PlanReport> reports;
  try {
    for (const auto& p : plans) {
      if (p.plan.requirements.empty()) return 0;  // `check` refuses a plan without requirements
      const Inputs in = resolve(p.scenario);
      reports.push_back(
          {"plan", &p, evaluate(in), assumptions(p.scenario, in), {}, check_plan(p.scenario, p.plan), {}});
      fuzz::expect_consistent(reports.back().outcome);
    }
  } catch (const Error&) {
    return 0;
  }
  // Once with the plans' names as written (the output must parse whatever they hold), once
  // with names of pipesim's own (then no word of the output may be inf or nan).
  for (bool own : {false, true}) {
    if (own)
      for (auto& p : plans) {
        p.name = "fuzzed plan";
        p.description.clear();
      }
    for (Format format : {Format::Table, Format::Json, Format::Csv, Format::Markdown, Format::Junit}) {
      fuzz::expect_clean(render(format, CheckReport{reports}), format_name(format), own);
    }
  }
  return 0;
}
