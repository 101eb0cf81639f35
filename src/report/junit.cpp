// JUnit XML for `check`: one test case per plan and requirement, so CI systems show a plan's
// failed requirements as failed tests.
#include "core/base/text.hpp"
#include "report/check_words.hpp"
#include "report/output.hpp"
#include "report/xml.hpp"

namespace pipesim {

namespace {

class JunitRenderer final {
 public:
  void check(Out& o, const std::vector<PlanReport>& plans) const {
    std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
    for (const auto& p : plans) {
      tests += p.error ? 1 : p.outcome.outcomes.size();
      failures += p.outcome.failures + (p.outcome.unused_failures ? 1 : 0);
      tests += p.outcome.unused_failures ? 1 : 0;
      skipped += p.outcome.unverified;
      if (p.error) ++errors;
    }
    o.print(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"pipesim check\" tests=\"{}\" "
        "failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n",
        tests, failures, errors, skipped);
    for (const auto& p : plans) {
      if (p.error) {
        // A plan that could not be evaluated is one test case in error.
        o.print("  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"1\">\n", xml_escape(p.label));
        o.print("    <testcase classname=\"pipesim.check.{}\" name=\"load\">\n", xml_escape(p.label));
        o.print("      <error message=\"{}\">{}</error>\n    </testcase>\n  </testsuite>\n",
                xml_escape(p.error->what()), xml_escape(p.error->line()));
        continue;
      }
      const bool ranged = p.loaded->plan.batch_sizes.has_value();
      const std::size_t strict = p.outcome.unused_failures ? 1 : 0;
      o.print("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n", xml_escape(p.label),
              p.outcome.outcomes.size() + strict, p.outcome.failures + strict, p.outcome.unverified);
      for (const auto& oc : p.outcome.outcomes) {
        const OutcomeLine l = outcome_line(oc, ranged);
        o.print("    <testcase classname=\"pipesim.check.{}\" name=\"{}\"", xml_escape(p.label), l.key);
        if (oc.pass) {
          o.write("/>\n");
          continue;
        }
        const std::string msg = fmt::format("{}: reached {}, required {}{}", l.key, l.reached, l.required,
                                            l.where.empty() ? "" : " (" + l.where + ")");
        // Not verified is not a failure: the plan is incomplete, not the hardware short.
        const bool failed = oc.verdict == Verdict::Fail;
        o.print(">\n      <{} message=\"{}\">{}</{}>\n    </testcase>\n", failed ? "failure" : "skipped",
                xml_escape(msg),
                xml_escape(fmt::format("{}\nplan: {} ({})", msg, p.loaded->name, p.loaded->source.label())),
                failed ? "failure" : "skipped");
      }
      // Keys the plan set that change nothing: said beside the verdicts, and with --strict a
      // failing test case of their own.
      if (strict) {
        std::string said;
        for (const auto& u : p.unused) said += fmt::format("{} ({})\n", unused_key_name(u), u.reason);
        o.print(
            "    <testcase classname=\"pipesim.check.{}\" name=\"unused\">\n      <failure message=\"{}\">{}"
            "</failure>\n    </testcase>\n",
            xml_escape(p.label), xml_escape(verdict(p.outcome)), xml_escape(said));
      }
      if (!p.unused.empty()) {
        std::string said;
        for (const auto& u : p.unused) said += fmt::format("unused: {} ({})\n", unused_key_name(u), u.reason);
        o.print("    <system-out>{}</system-out>\n", xml_escape(said));
      }
      o.write("  </testsuite>\n");
    }
    o.write("</testsuites>\n");
  }
};

}  // namespace

std::vector<Writer> junit_writers() {
  return {writer<CheckReport>([](Out& o, const CheckReport& r, std::size_t) { JunitRenderer().check(o, r.plans); })};
}

}  // namespace pipesim
