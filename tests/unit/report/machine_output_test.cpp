// JUnit and CSV stay well-formed whatever a plan's name holds, checked with the strict readers
// the fuzzers use (tests/support); the readers themselves reject what they must.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../../support/csv_check.hpp"
#include "../../support/xml_check.hpp"
#include "config/loader.hpp"
#include "report/output.hpp"

using namespace pipesim;

namespace {

std::string render_check(Format format, const std::string& name) {
  LoadedScenario s = load_scenario("p4d-resnet50-nvme");
  s.name = name;
  apply_requirement(s, "min_utilization=99%");
  const Result r = evaluate(resolve(s.scenario));
  const std::vector<PlanReport> reports{{name, &s, r, {}, {}, check_plan(s.scenario, s.plan), {}}};
  return render(format, CheckReport{reports});
}

}  // namespace

TEST_CASE("JUnit and CSV are well-formed whatever the names hold") {
  for (const std::string& name : {std::string("plain"), std::string("a<b>&\"c'"), std::string("]]>\x01\x1b[31m\x7f"),
                                  std::string("bad \xff\xfe bytes \xed\xa0\x80"), std::string("\xef\xbf\xbe\r\n,\"")}) {
    CAPTURE(name);
    test::XmlCheck x;
    CHECK_MESSAGE(x.parse(render_check(Format::Junit, name)), x.error);
    test::CsvCheck c;
    CHECK_MESSAGE(c.parse(render_check(Format::Csv, name)), c.error);
    CHECK(c.rows.size() >= 2);
  }
}

TEST_CASE("the strict XML reader rejects what XML forbids") {
  test::XmlCheck x;
  CHECK(x.parse("<?xml version=\"1.0\"?>\n<a b=\"1\"><c/>text &amp; &#x41;</a>\n"));
  for (const char* bad : {"<a>", "<a></b>", "<a>&</a>", "<a>x\x01</a>", "<a b=1/>", "<a b=\"<\"/>", "<a/><b/>", "text",
                          "<a>&#0;</a>", "<a b=\"1\" b=\"2\"/>", "<a>\xff</a>", "<a>&bogus;</a>"}) {
    CAPTURE(bad);
    CHECK_FALSE(x.parse(bad));
  }
}

TEST_CASE("the strict CSV reader rejects ragged rows and bad quoting") {
  test::CsvCheck c;
  CHECK(c.parse("a,b\n\"x,\"\"y\"\"\",2\n\"multi\nline\",3\n"));
  CHECK(c.rows.size() == 3);
  CHECK(c.rows[1][0] == "x,\"y\"");
  for (const char* bad : {"a,b\n1\n", "a,b\n1,2", "a\n\"open\n", "a\nx\"y\n", "a\n\"q\"z\n", ""}) {
    CAPTURE(bad);
    CHECK_FALSE(c.parse(bad));
  }
}
