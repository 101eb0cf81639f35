#include "report/words.hpp"

#include <doctest/doctest.h>

#include "report/check_words.hpp"
#include "report/simulation_words.hpp"

using namespace pipesim;

TEST_CASE("words: figures for people, in the one number style") {
  CHECK(dur(0.01174) == "11.74 ms");
  CHECK(rate(10.9e9) == "10.90 GB/s");
  CHECK(samples(4000) == "4,000 samples/s");
  CHECK(count(1281167) == "1,281,167");
  CHECK(percent(0.183) == "18.3%");
  CHECK(plural(1, "worker", "workers") == "1 worker");
  CHECK(plural(8, "worker", "workers") == "8 workers");
  CHECK(cpus(1) == "1 CPU");
  CHECK(cpus(1.5) == "1.5 CPUs");
  CHECK(cpus(96) == "96 CPUs");
  CHECK(ratio_text(0.2734) == "0.2734x");
  CHECK(compare_value_text(CompareMetric::Utilization, 0.557) == "55.7%");
}

TEST_CASE("words: appended figures go after what the text holds, as the strings read") {
  std::string s = "now ";
  append_count(s, 1281167);
  s += " | ";
  append_count(s, 1234.6);  // not a whole number: rounded, then grouped
  s += " | ";
  append_count(s, 1e20);  // past a long long's digits
  s += " | ";
  append_percent(s, 0.183);
  s += " | ";
  append_samples(s, 37258.832652112374);
  s += " | ";
  append_samples(s, 156.26);
  CHECK(s == "now 1,281,167 | 1,235 | 100,000,000,000,000,000,000 | 18.3% | 37,260 samples/s | 156.3 samples/s");
  CHECK(count(-4500) == "-4,500");
  for (double v : {0.0, -0.0, 1.0, 7.0, 10.0, 20.0, 99.0, 100.0, 999.0, 999.4, 999.5, 1000.0, 123456789.0, 0.5, 2.5,
                   -7.0, -1e16, 3e15})
    CHECK(count(v) == group_thousands(format_fixed(v, 0)));
}

TEST_CASE("words: stages and walls by name, in stage order") {
  const unsigned both = stage_bit(Stage::Compute) | stage_bit(Stage::Transform);
  CHECK(walls_text(both) == "transform+compute");
  CHECK(walls_text(both, ", ") == "transform, compute");
  CHECK(walls_text(0).empty());
  CHECK(stage_list(stage_bit(Stage::Storage) | stage_bit(Stage::Transfer), " / ",
                   [](Stage s) { return stage_name(s); }) == "storage fetch / host-to-device transfer");
}

TEST_CASE("check words: an outcome's key, value, threshold and where; the verdict counts") {
  const Requirement req{Metric::Utilization, 0.9, 0, Origin::file("plan.toml", 3, 1), false};
  Outcome o;
  o.requirement = &req;
  o.pass = false;
  o.value = 0.557;
  o.at_batch = 64;
  const OutcomeLine one = outcome_line(o, false);
  CHECK(one.key == "min_utilization");
  CHECK(one.reached == "55.7%");
  CHECK(one.required == ">= 90.0%");
  CHECK(one.where.empty());
  CHECK(outcome_line(o, true).where.find("64") != std::string::npos);  // a range: at which batch
  PlanOutcome plan;
  plan.outcomes = {o, o};
  plan.outcomes[1].pass = true;
  plan.pass = false;
  plan.failures = 1;
  plan.verdict = Verdict::Fail;
  CHECK(verdict(plan) == "FAIL (1 of 2 requirements failed)");
  plan.unverified = 1;
  CHECK(verdict(plan) == "FAIL (1 of 2 requirements failed, 1 not verified)");
  plan.failures = 0;
  plan.verdict = Verdict::Unverified;
  CHECK(verdict(plan) == "UNVERIFIED (1 of 2 requirements not verified: a stage it rests on is not modelled)");
  plan.unverified = 2;
  CHECK(verdict(plan) == "UNVERIFIED (2 of 2 requirements not verified: a stage they rest on is not modelled)");
  plan.pass = true;
  plan.unverified = 0;
  plan.verdict = Verdict::Pass;
  CHECK(verdict(plan) == "PASS (2 of 2 requirements met)");
  plan.outcomes.pop_back();
  CHECK(verdict(plan) == "PASS (1 of 1 requirement met)");
  CHECK(verdict_word(Verdict::Unverified) == "UNVERIFIED");
  CHECK(verdict_key(Verdict::Unverified) == "unverified");
}

TEST_CASE("check words: a threshold echoed as typed, a value at it with the digits that show its side") {
  Requirement req{Metric::Utilization, 0.557, 0, Origin::file("plan.toml", 3, 1), false};
  req.typed = "55.7%";
  Outcome o;
  o.requirement = &req;
  o.value = 0.55672;  // shown as 55.7%, like the threshold: one more digit tells them apart
  CHECK(outcome_line(o, false).reached == "55.67%");
  CHECK(outcome_line(o, false).required == ">= 55.7%");
  o.value = 0.5569999;  // rounds to 55.70% too: digits until the two differ
  CHECK(outcome_line(o, false).reached == "55.69999%");
  o.value = 0.557;  // equal: shown as usual
  CHECK(outcome_line(o, false).reached == "55.7%");
  o.value = 0.6;  // far from it: shown as usual
  CHECK(outcome_line(o, false).reached == "60.0%");
  Requirement cost{Metric::CostPerEpoch, 0.71, 0, Origin::file("plan.toml", 4, 1), false};
  cost.typed = "$0.71";
  o.requirement = &cost;
  o.value = 0.71049;
  CHECK(outcome_line(o, false).reached == "$0.7105");
  CHECK(outcome_line(o, false).required == "<= $0.71");
  cost.typed.clear();  // not typed (the implicit memory line, say): the threshold's figure
  CHECK(outcome_line(o, false).required == "<= $0.71");
}

TEST_CASE("simulation words: every cause has words, 'prefetch window' only for the prefetch") {
  for (std::size_t i = 0; i < kCauseCount; ++i) CHECK_FALSE(cause_words(static_cast<Cause>(i)).empty());
  CHECK(cause_words(Cause::Workers) == "workers");
  CHECK(cause_words(Cause::Prefetch) == "prefetch window");
  CHECK(cause_words(Cause::None) == "not held up");
}

TEST_CASE("shown: a name as printable text, and in Markdown with no markup or raw HTML") {
  CHECK(shown("a <b> *c*", false) == "a <b> *c*");
  CHECK(shown("a <b> *c*", true) == "a \\<b\\> \\*c\\*");
  CHECK(shown("[x](y) `z` & #1 ~_\\", true) == "\\[x\\](y) \\`z\\` \\& \\#1 \\~\\_\\\\");
  CHECK(shown("plain-name.toml", true) == "plain-name.toml");
  CHECK(shown("\x1b[31m", true) == "\\\\x1b\\[31m");  // escaped for the terminal, then for Markdown
}
