// What every fuzz target does with a scenario that loaded: run every command's core and
// writer on it and abort on any output that is not finite or not valid JSON.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "../tests/support/csv_check.hpp"
#include "../tests/support/json_check.hpp"
#include "../tests/support/xml_check.hpp"
#include "config/loader.hpp"
#include "core/analyses/check.hpp"
#include "core/analyses/compare.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/sim/simulate.hpp"
#include "report/output.hpp"
#include "report/trace.hpp"

namespace pipesim::fuzz {

[[noreturn]] inline void die(const char* what, const std::string& text) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n%s\n", what, text.c_str());
  std::abort();
}

// Output in a format: JSON, CSV and JUnit that parse strictly, and (unless the output holds the
// user's own names, which may say anything) no inf or nan.
inline void expect_clean(const std::string& text, std::string_view format, bool own_words_only = true) {
  if (own_words_only && test::has_non_finite_word(text)) die("inf or nan in output", text);
  if (format == "json") {
    test::JsonCheck j;
    if (!j.parse(text)) die(("invalid JSON: " + j.error).c_str(), text);
  } else if (format == "csv") {
    test::CsvCheck c;
    if (!c.parse(text)) die(("invalid CSV: " + c.error).c_str(), text);
  } else if (format == "junit") {
    test::XmlCheck x;
    if (!x.parse(text)) die(("invalid XML: " + x.error).c_str(), text);
  }
}

// A requirement's outcome agrees with its value and threshold and with the unmodelled stages the
// plan did not accept (a bound that meets the threshold is unverified, one that misses it fails),
// and the plan's verdict with its outcomes.
inline void expect_consistent(const PlanOutcome& outcome) {
  std::size_t failures = 0, unverified = 0;
  for (const auto& o : outcome.outcomes) {
    failures += o.verdict == Verdict::Fail ? 1 : 0;
    unverified += o.verdict == Verdict::Unverified ? 1 : 0;
    if (o.pass != (o.verdict == Verdict::Pass)) die("pass and the verdict disagree", std::to_string(o.pass));
    const Requirement& r = *o.requirement;
    bool pass = o.pass;
    switch (r.metric) {
      case Metric::Utilization:
      case Metric::FirstEpochUtilization:
      case Metric::RunUtilization:
      case Metric::Throughput:
      case Metric::SamplesPerUsd:
        pass = o.value >= r.threshold;
        break;
      case Metric::EpochTime:
      case Metric::CostPerEpoch:
        pass = o.value <= r.threshold;
        break;
      case Metric::Walls:
        pass = (o.walls & ~r.walls) == 0;
        break;
      case Metric::Memory:
        if (o.unmodelled != 0 || o.accepted != 0)
          die("an unmodelled stage was held against fits_in_memory", std::to_string(o.unmodelled | o.accepted));
        // With a term unknown, what is counted can only grow: a batch that fits is not a pass.
        if (o.memory_unknown) pass = o.value <= r.threshold;
        break;
    }
    // A stage not modelled and not accepted by the plan, or a term of the memory unknown, leaves a
    // met threshold unverified; a step measured on another accelerator or used outside the batch
    // sizes it was measured at (not accepted), a preset's figure measured for another model,
    // accelerator or data, or simulate's disagreement leaves any value unverified.
    if (o.elsewhere && r.metric == Metric::Memory) die("a foreign step was held against fits_in_memory", "");
    if (o.extrapolated && r.metric == Metric::Memory) die("an extrapolated step was held against fits_in_memory", "");
    if (o.memory_unknown && r.metric != Metric::Memory) die("a memory term was held against another requirement", "");
    const bool foreign = (o.elsewhere && !o.elsewhere_accepted) || (o.extrapolated && !o.extrapolated_accepted) ||
                         !o.foreign.empty() || o.disagreement;
    const Verdict expected = foreign                                 ? Verdict::Unverified
                             : !pass                                 ? Verdict::Fail
                             : o.unmodelled != 0 || o.memory_unknown ? Verdict::Unverified
                                                                     : Verdict::Pass;
    if ((o.unmodelled & o.accepted) != 0) die("a stage both refused and accepted", std::to_string(o.unmodelled));
    if (expected != o.verdict)
      die("a requirement's verdict disagrees with its value", std::string(requirement_key(r.metric)));
  }
  const Verdict plan = failures ? Verdict::Fail : unverified ? Verdict::Unverified : Verdict::Pass;
  if (failures != outcome.failures || unverified != outcome.unverified || outcome.verdict != plan ||
      outcome.pass != (plan == Verdict::Pass))
    die("a plan's verdict disagrees with its requirements", std::to_string(failures));
}

inline void exercise(const LoadedScenario& given) {
  // Names and descriptions are the user's words, echoed (and escaped) as given: replace
  // them so that any "inf" or "nan" left in the output is pipesim's own.
  LoadedScenario s = given;
  s.name = "fuzzed scenario";
  s.description.clear();
  try {
    const Diagnosis d = with_origins(s, [&] { return diagnose_with_assumptions(s.scenario); });
    const Result& r = d.result;
    if (!(r.utilization > 0 && r.utilization <= 1)) die("utilization outside (0, 1]", std::to_string(r.utilization));
    const auto clean = [](Format format, const Report& report) {
      expect_clean(render(format, report), format_name(format));
    };
    constexpr Format kPeople[] = {Format::Table, Format::Json, Format::Csv, Format::Markdown};
    for (Format f : kPeople) clean(f, DiagnosisReport{s, d});
    // Wrapped to a narrow terminal and to the piped width: the same words in the same order.
    const auto words = [](const std::string& text) {
      std::vector<std::string> out;
      std::string word;
      for (char c : text + "\n") {
        if (c == ' ' || c == '\n') {
          if (!word.empty()) out.push_back(std::move(word));
          word.clear();
        } else {
          word += c;
        }
      }
      return out;
    };
    const auto flat = words(render(Format::Table, DiagnosisReport{s, d}));
    for (std::size_t columns : {std::size_t{40}, std::size_t{100}})
      if (words(render(Format::Table, DiagnosisReport{s, d}, columns)) != flat)
        die("wrapping changed the words", s.name);
    std::vector<PlanReport> reports{{"fuzz", &s, r, d.assumptions, {}, {}, {}}};
    if (!s.plan.requirements.empty()) {
      reports[0].outcome = check_plan(s.scenario, s.plan);
      expect_consistent(reports[0].outcome);
      for (Format f : {Format::Table, Format::Json, Format::Csv, Format::Markdown, Format::Junit})
        clean(f, CheckReport{reports});
    }
    // The simulation: its shortest run (a bound on time), every format, figures in range.
    SimOptions so;
    so.batches = min_batches(d.inputs);
    so.epochs = 1;
    so.trace_steps = 3;
    so.max_steps = 20000;
    so.max_work = 2e7;
    try {
      const Simulation sim = simulate(d.inputs, so);
      if (!(sim.utilization > 0 && sim.utilization <= 1 + 1e-9))
        die("simulated utilization outside (0, 1]", std::to_string(sim.utilization));
      for (Format f : kPeople) clean(f, SimulationReport{s, sim});
      expect_clean(chrome_trace(sim, s.name), "trace");
    } catch (const Error&) {
      // Too long to simulate: an error, fine.
    }
    reports.push_back(reports[0]);
    const auto rows = compare({r, r});
    for (Format f : kPeople) clean(f, CompareReport{reports, rows});
  } catch (const Error&) {
    // Bad input is reported as an error: fine.
  }
}

}  // namespace pipesim::fuzz
