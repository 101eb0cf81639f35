#include "config/steplog.hpp"

#include <doctest/doctest.h>

#include <string>

#include "core/base/error.hpp"

using namespace pipesim;

TEST_CASE("parse_step_log: text lines take time as a word, not the end of data_time") {
  const StepLog log = parse_step_log(
      "Epoch [1][10/50] lr: 0.1, time: 0.500, data_time: 0.200, loss: 6.9\n"
      "Epoch [1][20/50] lr: 0.1, data_time: 0.300, loss: 6.8\n"
      "Epoch [1][30/50] data_time: 0.100 lr: 0.1 time: 0.400\n",
      Origin::file("train.log"), StepLogFormat::Auto);
  CHECK(log.format == StepLogFormat::Text);
  REQUIRE(log.records.size() == 2);
  CHECK(log.records[0].data_time_s == 0.2);
  CHECK(log.records[0].time_s == 0.5);
  CHECK(log.records[1].line == 3);
  CHECK(log.skipped == 1);
}

TEST_CASE("parse_step_log: JSON lines skip other modes and records without both figures") {
  const StepLog log = parse_step_log(
      "{\"env_info\": \"x\"}\n{\"mode\": \"val\", \"data_time\": 0.1, \"time\": 0.2}\n"
      "{\"mode\": \"train\", \"data_time\": 0.1, \"time\": 0.2}\n[1, 2]\n",
      Origin::file("log.json"), StepLogFormat::Auto);
  CHECK(log.format == StepLogFormat::JsonLines);
  CHECK(log.records.size() == 1);
  CHECK(log.skipped == 3);
  CHECK_THROWS_WITH_AS(parse_step_log("{\"x\": 1}\n", Origin::file("log.json"), StepLogFormat::JsonLines),
                       doctest::Contains("no record with both data_time and time"), Error);
}

TEST_CASE("parse_step_log: CSV cells that are not numbers are errors at their column") {
  try {
    parse_step_log("step,data_time,time\n1,0.1,fast\n", Origin::file("m.csv"), StepLogFormat::Auto);
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.origin().line == 2);
    CHECK(e.origin().column == 7);
  }
  CHECK_THROWS_AS(parse_step_log("a,b\n", Origin::file("m.csv"), StepLogFormat::Csv), Error);
  CHECK_THROWS_AS(parse_step_log("step,data_time,time\n1,-0.1,0.5\n", Origin::file("m.csv"), StepLogFormat::Csv),
                  Error);
  CHECK_THROWS_AS(parse_step_log("time: 1 data_time: 0.5\n\xff\n", Origin::file("t.log"), StepLogFormat::Text), Error);
}

TEST_CASE("parse_step_log: a JSON number beyond a double's range is an error at its line, not a crash") {
  // Found by the steplog fuzzer: nlohmann's parser throws out_of_range (no byte position) for
  // 3e453, which is not a parse_error.
  try {
    parse_step_log("{\"data_time\": 0.1, \"time\": 0.2}\n  {\"data_time\": 3e453, \"time\": 1}\n",
                   Origin::file("log.json"), StepLogFormat::JsonLines);
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.origin().line == 2);
    CHECK(e.origin().column == 3);
    CHECK(std::string(e.what()).find("out of range") != std::string::npos);
  }
  CHECK_THROWS_AS(parse_step_log("3e453ess\bs\n3.\r3=ss\n", Origin::file("fuzz.log"), StepLogFormat::Auto), Error);
}
