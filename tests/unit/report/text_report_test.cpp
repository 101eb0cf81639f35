// The text report: the diagnosis's prose wrapped to the width asked for with each continuation
// hanging under its text, markdown's headings and bullets for the same words, and a sweep
// table whose refused rows say why with a dash in every figure cell.
#include "report/text_report.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "report/diagnosis_words.hpp"
#include "report/words.hpp"

using namespace pipesim;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

LoadedScenario rich() {
  LoadedScenario s = load_scenario("p4d-resnet50-nfs");
  apply_assignment(s, "node.page_cache=100 GB");
  return s;
}

}  // namespace

TEST_CASE("a diagnosis's prose wraps to the width, each continuation under its text") {
  const LoadedScenario s = rich();
  const Diagnosis d = diagnose_with_assumptions(s.scenario);
  for (std::size_t columns : {60u, 80u, 100u}) {
    CAPTURE(columns);
    std::string text;
    {
      Out o(text);
      text_diagnosis(o, s, d, false, columns);
    }
    const auto lines = lines_of(text);
    // Every line but the stage table's (its rows are fixed columns) fits the width.
    const auto table =
        std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("stage "); });
    const auto table_end = std::find(table, lines.end(), std::string());
    REQUIRE(table_end != lines.end());
    for (auto it = lines.begin(); it != table; ++it) CHECK(it->size() <= columns);  // the title and inputs
    for (auto it = table_end; it != lines.end(); ++it) {
      CAPTURE(*it);
      CHECK(it->size() <= columns);
      if (it->empty() || !it->starts_with(' ') || it->starts_with("  - ")) continue;
      // A continuation: under a key-value's value (15 columns in) or a bullet's text (4 in).
      CHECK((it->starts_with(std::string(15, ' ')) || it->starts_with(std::string(4, ' '))));
    }
  }
  // Unwrapped, the same words on fewer lines.
  std::string wide, narrow;
  {
    Out a(wide), b(narrow);
    text_diagnosis(a, s, d, false, 0);
    text_diagnosis(b, s, d, false, 60);
  }
  CHECK(lines_of(wide).size() < lines_of(narrow).size());
  const auto words = [](const std::string& t) {
    std::vector<std::string> w;
    std::istringstream in(t);
    for (std::string x; in >> x;) w.push_back(x);
    return w;
  };
  CHECK(words(wide) == words(narrow));
}

TEST_CASE("markdown says the same figures with headings and bullets") {
  const LoadedScenario s = rich();
  const Diagnosis d = diagnose_with_assumptions(s.scenario);
  std::string md, plain;
  {
    Out a(md), b(plain);
    text_diagnosis(a, s, d, true, 60);  // markdown is never wrapped
    text_diagnosis(b, s, d, false, 0);
  }
  CHECK(md.starts_with("## "));
  CHECK(md.find("### What moves the wall\n") != std::string::npos);
  CHECK(md.find("- **utilization**: " + percent(d.result.utilization)) != std::string::npos);
  CHECK(plain.find("utilization    " + percent(d.result.utilization)) != std::string::npos);
  CHECK(plain.find("\nWhat moves the wall\n") != std::string::npos);
  for (const Fix& f : d.fixes) {
    CAPTURE(fix_key(f.kind));
    CHECK(md.find("- " + describe_fix(d, f) + "\n") != std::string::npos);
    CHECK(plain.find("  - " + describe_fix(d, f) + "\n") != std::string::npos);
  }
}

TEST_CASE("a sweep table's refused row: its inputs, a dash in each figure, and why") {
  const LoadedScenario s = load_scenario("reference");
  const Result r = evaluate(resolve(s.scenario));
  SweepLayout layout;
  layout.inputs = {Field::BatchSize};
  layout.stages = {Stage::Transform, Stage::Compute};
  layout.cost = true;
  const TextTable table = sweep_table(layout, false);
  std::string text;
  {
    Out o(text);
    const SweepPoint good{s.scenario, r, nullptr, std::nullopt, {}, nullptr};
    const Result none{};
    const SweepPoint bad{s.scenario, none, nullptr, std::nullopt, "the model refuses it", nullptr};
    text_sweep_row(o, table, layout, good, true);
    text_sweep_row(o, table, layout, bad, false);
  }
  const auto lines = lines_of(text);
  REQUIRE(lines.size() == 3);  // the header once, then the two rows
  CHECK(lines[0].find("utilization") != std::string::npos);
  CHECK(lines[1].find(percent(r.utilization)) != std::string::npos);
  CHECK(lines[2].find("<- invalid: the model refuses it") != std::string::npos);
  CHECK(lines[2].find("invalid") < lines[2].find("<-"));  // the binding column says it too
  std::istringstream cells(lines[2].substr(0, lines[2].find("<-")));
  std::vector<std::string> c;
  for (std::string x; cells >> x;) c.push_back(x);
  // batch, transform, compute, step, binding, utilization, throughput, cost/epoch, samples/USD
  REQUIRE(c.size() == 9);
  CHECK(c[0] == count(s.scenario.get(Field::BatchSize)));
  for (std::size_t i = 1; i < c.size(); ++i)
    if (i != 4) CHECK(c[i] == "-");
  CHECK(c[4] == "invalid");
}
