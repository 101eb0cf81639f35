#include <doctest/doctest.h>

#include <vector>

#include "core/base/error.hpp"
#include "core/base/range.hpp"

using namespace pipesim;

namespace {
std::vector<double> values(const char* text, Field f) {
  const Range r = parse_range(text, spec(f));
  std::vector<double> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(r.at(i));
  return out;
}
}  // namespace

TEST_CASE("32..1024 doubles") {
  CHECK(values("32..1024", Field::BatchSize) == std::vector<double>{32, 64, 128, 256, 512, 1024});
  // The end is included only when a step lands on it.
  CHECK(values("3..20", Field::BatchSize) == std::vector<double>{3, 6, 12});
}

TEST_CASE("linear steps, factors and lists") {
  CHECK(values("1..5:+1", Field::Workers) == std::vector<double>{1, 2, 3, 4, 5});
  CHECK(values("0..16:+8", Field::Workers) == std::vector<double>{0, 8, 16});
  CHECK(values("32..1024:x4", Field::BatchSize) == std::vector<double>{32, 128, 512});
  CHECK(values("8,16,32", Field::BatchSize) == std::vector<double>{8, 16, 32});
  CHECK(values("7", Field::BatchSize) == std::vector<double>{7});
  CHECK(values("0.1..0.3:+0.1", Field::CacheHit).size() == 3);
}

TEST_CASE("stepped values are the decimals they stand for") {
  // start + i * step drifts (0.1 + 2 * 0.1 is 0.30000000000000004); values are the decimals.
  CHECK(values("0.1..0.7:+0.1", Field::CacheHit) == std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7});
  CHECK(values("0.01..0.1:x3", Field::CacheHit) == std::vector<double>{0.01, 0.03, 0.09});
  // The end is reached within rounding and is the value given, inside a bounded interval.
  CHECK(values("0.7..1:+0.1", Field::Efficiency) == std::vector<double>{0.7, 0.8, 0.9, 1});
  CHECK(values("0.001..1:x10", Field::Efficiency) == std::vector<double>{0.001, 0.01, 0.1, 1});
  CHECK(values("70%..100%:+5%", Field::Efficiency).back() == 1);
  // Steps with many digits are left as computed.
  const auto third = values("0..0.9:+0.3333333333333333", Field::CacheHit);
  CHECK(third.size() == 3);
}

TEST_CASE("ranges with units") {
  CHECK(values("100KB..1MB", Field::SampleSize) == std::vector<double>{100e3, 200e3, 400e3, 800e3});
  CHECK(values("100KB..300KB:+100KB", Field::SampleSize) == std::vector<double>{100e3, 200e3, 300e3});
  CHECK(values("1GB/s,2GB/s", Field::ReadBandwidth) == std::vector<double>{1e9, 2e9});
  CHECK(parse_range("100KB..1MB", spec(Field::SampleSize)).dim() == Dim::Size);
}

TEST_CASE("a unit written once is the unit of every number written without one") {
  CHECK(values("60..200:+40 samples/s", Field::WorkerSampleRate) == std::vector<double>{60, 100, 140, 180});
  CHECK(values("100..300:+100 KB", Field::SampleSize) == std::vector<double>{100e3, 200e3, 300e3});
  CHECK(values("8,16,32 Gb/s", Field::ReadBandwidth) == std::vector<double>{1e9, 2e9, 4e9});
  CHECK(values("1..8:x2 GB/s", Field::ReadBandwidth) == std::vector<double>{1e9, 2e9, 4e9, 8e9});  // not the factor
  CHECK(values("100KB..1MB", Field::SampleSize).size() == 4);  // its own unit kept where written
  CHECK(values("10..30:+10%", Field::CacheHit) == std::vector<double>{0.1, 0.2, 0.3});
  CHECK(values("1k..4k:x2", Field::DatasetSamples) == std::vector<double>{1000, 2000, 4000});
  CHECK(values("8..32", Field::BatchSize) == std::vector<double>{8, 16, 32});
}

TEST_CASE("a long linear range costs no memory") {
  const Range r = parse_range("1..10000000:+1", spec(Field::BatchSize));
  CHECK(r.size() == 10000000);
  CHECK(r.at(9999999) == 10000000);
}

TEST_CASE("bad ranges are errors") {
  // Found by the range fuzzer: an empty step after '+' with a unit written once (read past the end).
  CHECK_THROWS_AS(parse_range(" 6..186.:+", spec(Field::BatchSize)), Error);
  CHECK_THROWS_AS(parse_range("100..300:+ KB", spec(Field::SampleSize)), Error);
  for (const char* bad : {"", "1024..32", "..32", "32..", "32..1024:x1", "32..1024:x0.5", "1..16:+0", "1..16:-1",
                          "1..16:+0.5", "0..16", "8,,16", "8,", "1.5..3:+1", "0", "32..1024:y2", "1..1e9:+1"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_range(bad, spec(Field::BatchSize)), Error);
  }
  CHECK_THROWS_AS(parse_range("1MB..2MB", spec(Field::ReadBandwidth)), Error);    // sizes for a rate
  CHECK_THROWS_AS(parse_range("100KB..1MB:+1", spec(Field::SampleSize)), Error);  // unitless step
}

TEST_CASE("choice and true/false fields sweep over lists") {
  const Range r = parse_range("cpu,decoder", spec(Field::TransformDevice));
  REQUIRE(r.size() == 2);
  CHECK(r.at(1) == static_cast<double>(TransformAt::Decoder));
  CHECK(r.dim() == Dim::Choice);
  try {
    parse_range("fp16..fp32", spec(Field::Precision));
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("this field takes a list of names, e.g. fp32,tf32,bf16,fp16,fp8") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(parse_range("true..false", spec(Field::LinkPinned)), Error);
}
