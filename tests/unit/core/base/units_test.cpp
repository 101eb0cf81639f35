#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/error.hpp"
#include "core/base/units.hpp"

using namespace pipesim;

namespace {
std::string error_of(const char* text, DimSet accepted) {
  try {
    parse_quantity_as(text, accepted);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("SI prefixes are powers of 1000, IEC of 1024") {
  CHECK(parse_quantity("500 KB").value == 500e3);
  CHECK(parse_quantity("500KB").value == 500e3);
  CHECK(parse_quantity("1 KiB").value == 1024);
  CHECK(parse_quantity("1.5 MiB").value == 1.5 * 1024 * 1024);
  CHECK(parse_quantity("2 GiB/s").value == 2.0 * 1024 * 1024 * 1024);
  CHECK(parse_quantity("2 GB/s").value == 2e9);
  CHECK(parse_quantity("2 GB/s").dim == Dim::Rate);
  CHECK(parse_quantity("10 Gbps").value == 1.25e9);
  CHECK(parse_quantity("25 Gbit/s").value == 3.125e9);
}

TEST_CASE("durations, FLOP counts, FLOP rates, sample rates, plain numbers") {
  CHECK(parse_quantity("11.74 ms").value == 11.74e-3);
  CHECK(parse_quantity("11.74 ms").dim == Dim::Duration);
  CHECK(parse_quantity("15 us").value == 15e-6);
  CHECK(parse_quantity("2 min").value == 120);
  CHECK(parse_quantity("4.1 GFLOP").value == 4.1e9);
  CHECK(parse_quantity("4.1 GFLOPs").dim == Dim::Flop);
  CHECK(parse_quantity("312 TFLOPS").value == 312e12);
  CHECK(parse_quantity("312 TFLOPS").dim == Dim::FlopRate);
  CHECK(parse_quantity("1200 samples/s").value == 1200);
  CHECK(parse_quantity("1200 samples/s").dim == Dim::SampleRate);
  CHECK(parse_quantity("25.6e6").value == 25.6e6);
  CHECK(parse_quantity("25.6e6").dim == Dim::Number);
  CHECK(parse_quantity("50%").value == 0.5);
  CHECK(parse_quantity("  8 ").value == 8);
}

TEST_CASE("SI products are exact to the digits written") {
  // 4.1 * 1e9 is 4099999999.9999995 in binary arithmetic.
  CHECK(parse_quantity("4.1 GFLOP").value == 4100000000.0);
  CHECK(parse_quantity("0.015 ms").value == 1.5e-5);
}

TEST_CASE("a quantity of the wrong kind names both kinds") {
  CHECK(error_of("2 GB", dims(Dim::Rate)) == "expected a rate (e.g. \"2 GB/s\"), got a size \"2 GB\"");
  CHECK(error_of("2", dims(Dim::Rate)) == "expected a rate (e.g. \"2 GB/s\"), got \"2\" with no unit");
  CHECK(error_of("3 ms", Dim::Rate | Dim::SampleRate) ==
        "expected a rate or a sample rate (e.g. \"2 GB/s\", \"1200 samples/s\"), got a duration \"3 ms\"");
}

TEST_CASE("units people type: images and samples per second, bits, counts with k and M, per hour") {
  for (const char* t :
       {"1200 img/s", "1200 images/s", "1200 samples/sec", "1.2k samples/s", "1.2k img/s", "1200 image/s"}) {
    CAPTURE(t);
    CHECK(parse_quantity(t).value == 1200);
    CHECK(parse_quantity(t).dim == Dim::SampleRate);
  }
  CHECK(parse_quantity("100 Gb/s").value == 12.5e9);  // bits, as links are quoted
  CHECK(parse_quantity("100 Gbps").value == 12.5e9);
  CHECK(parse_quantity("100 Gb/s").dim == Dim::Rate);
  CHECK(parse_quantity("1.28M").value == 1280000);
  CHECK(parse_quantity("1.28M").dim == Dim::Number);
  CHECK(parse_quantity("12k").value == 12000);
  CHECK(parse_quantity("2 G").value == 2e9);
  CHECK(parse_quantity("$32.77/hr").value == 32.77);
  CHECK(parse_quantity("$32.77/hr").dim == Dim::MoneyRate);
  // k and M multiply counts and sample rates, not sizes or times.
  CHECK_THROWS_AS(parse_quantity("2 k GB"), Error);
  CHECK_THROWS_AS(parse_quantity("2 k ms"), Error);
  CHECK_THROWS_AS(parse_quantity("2 M nonsense"), Error);
  // Once: a second suffix is no multiplier of the first, and a value of any length is read in one pass.
  CHECK_THROWS_AS(parse_quantity("1 k k"), Error);
  CHECK_THROWS_AS(parse_quantity("1k M"), Error);
  std::string many = "0";
  for (int i = 0; i < 30000; ++i) many += " k";
  CHECK_THROWS_AS(parse_quantity(many), Error);
}

TEST_CASE("malformed quantities are errors") {
  CHECK_THROWS_AS(parse_quantity(""), Error);
  CHECK_THROWS_AS(parse_quantity("GB"), Error);
  CHECK_THROWS_AS(parse_quantity("2 GBs"), Error);
  CHECK_THROWS_AS(parse_quantity("2 gb/s"), Error);
  CHECK_THROWS_AS(parse_quantity("inf"), Error);
  CHECK_THROWS_AS(parse_quantity("nan"), Error);
  CHECK_THROWS_AS(parse_quantity("1e400"), Error);
  CHECK_THROWS_AS(parse_quantity("1e30 GB"), Error);  // above 1e21 base units
  CHECK_THROWS_AS(parse_quantity("1e-30 s"), Error);  // below 1e-21
  CHECK(parse_quantity("0 B").value == 0);            // zero parses; fields reject it
  // Rates per step, as tqdm prints them: a kind of their own until multiplied by a batch size.
  CHECK(parse_quantity("3.45 it/s").dim == Dim::StepRate);
  CHECK(parse_quantity("3.45 it/s").value == 3.45);
  CHECK(parse_quantity("2 steps/s").dim == Dim::StepRate);
  CHECK(parse_quantity("1.5k batches/s").value == 1500);
  CHECK(format_compact(3.45, Dim::StepRate) == "3.45 it/s");
}

TEST_CASE("formatting for people picks a readable unit") {
  // Four significant digits in the unit chosen for reading.
  CHECK(format_human(0.011743, Dim::Duration) == "11.74 ms");
  CHECK(format_human(0.064, Dim::Duration) == "64.00 ms");
  CHECK(format_human(1.5, Dim::Duration) == "1.500 s");
  CHECK(format_human(300, Dim::Duration) == "5.000 min");
  CHECK(format_human(15e-6, Dim::Duration) == "15.00 us");
  CHECK(format_human(166.66e-6, Dim::Duration) == "166.7 us");
  CHECK(format_human(146.58e6, Dim::Size) == "146.6 MB");
  CHECK(format_human(22.049e6, Dim::Rate) == "22.05 MB/s");
  CHECK(format_human(10.9e9, Dim::Rate) == "10.90 GB/s");
  CHECK(format_human(999.9999999e6, Dim::Rate) == "1.000 GB/s");
  CHECK(format_human(0, Dim::Duration) == "0 s");
  CHECK(format_human(-0.0, Dim::Number) == "0");
  // Sample rates have no larger unit: thousands are separated, rounded to four digits.
  CHECK(format_human(21799.8, Dim::SampleRate) == "21,800 samples/s");
  CHECK(format_human(4000, Dim::SampleRate) == "4,000 samples/s");
  CHECK(format_human(999.96, Dim::SampleRate) == "1,000 samples/s");  // rounds up a digit
  CHECK(format_human(156.25, Dim::SampleRate) == "156.2 samples/s");  // ties to even, as printf
  CHECK(format_human(0.0123, Dim::SampleRate) == "0.01230 samples/s");
  // Huge and tiny values in scientific notation; money keeps its cents.
  CHECK(format_human(1.2345e21, Dim::SampleRate) == "1.234e+21 samples/s");
  CHECK(format_human(3e22, Dim::Rate) == "3.000e+07 PB/s");
  CHECK(format_human(9999499, Dim::SampleRate) == "9,999,000 samples/s");
  CHECK(format_human(9999500, Dim::SampleRate) == "1.000e+07 samples/s");
  CHECK(format_human(2e-5, Dim::SampleRate) == "2.000e-05 samples/s");
  CHECK(format_human(1234.5, Dim::Money) == "$1,234.50");
  CHECK(format_human(-1234.5, Dim::Money) == "-$1,234.50");
  CHECK(format_human(-0.001, Dim::Money) == "$0.00");
  CHECK(format_human(2e16, Dim::MoneyRate) == "$2.000e+16/h");
  CHECK(format_number(-12345.6) == "-12,350");
  CHECK(format_number(1.13225) == "1.132");
  CHECK(format_number(0.001) == "0.001000");
  CHECK(format_number(1e-4) == "0.0001000");
  CHECK(format_number(9.99951) == "10.00");
  CHECK(format_number(-0.5) == "-0.5000");
  CHECK(group_thousands("1281167") == "1,281,167");
  CHECK(group_thousands("-12345.5") == "-12,345.5");
  CHECK(group_thousands("999") == "999");
  CHECK(group_thousands("-999.25") == "-999.25");
  CHECK(group_thousands("") == "");
  CHECK(format_compact(500e3, Dim::Size) == "500 KB");
  CHECK(format_compact(2e9, Dim::Rate) == "2 GB/s");
  CHECK(format_compact(1.5e-5, Dim::Duration) == "15 us");
  CHECK(format_compact(312e12, Dim::FlopRate) == "312 TFLOPS");
  CHECK(format_compact(1, Dim::Bool) == "true");
  CHECK(format_significant(1.0 / 3.45 / 256, Dim::Duration, 7) == "1.132246 ms");
  CHECK(format_significant(14.757e9, Dim::Rate, 7) == "14.757 GB/s");
  CHECK(parse_quantity(format_significant(1.0 / 3.45 / 256, Dim::Duration, 7)).value ==
        doctest::Approx(1.0 / 3.45 / 256).epsilon(1e-7));
}

TEST_CASE("fixed decimals round as printf rounds the exact value") {
  CHECK(format_fixed(0.125, 2) == "0.12");  // exactly 0.125: a half, to even
  CHECK(format_fixed(2.675, 2) == "2.67");  // 2.67499999...
  CHECK(format_fixed(-0.04, 1) == "-0.0");
  CHECK(format_fixed(99.96, 1) == "100.0");
  CHECK(format_fixed(-0.0, 1) == "-0.0");
  CHECK(format_fixed(1e15, 0) == "1000000000000000");
  CHECK(format_fixed(0.05, 1) == "0.1");  // 0.05000000000000000277: above the half
  CHECK(format_fixed(0.15, 1) == "0.1");  // 0.14999999999999999445: below it
  CHECK(format_fixed(5, 2) == "5.00");
  CHECK(format_fixed(0.004, 2) == "0.00");
  CHECK(format_fixed(1234.5, 0) == "1234");  // exactly a half, to even
}

TEST_CASE("fixed decimals are fmt's \"{:.Nf}\" for any value") {
  // append_fixed writes most values itself (the nearest integer to value * 10^N) and leaves to
  // fmt those too near a half to be sure: values of every magnitude, and decimal ones (their
  // halves are the hard cases), against fmt itself.
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift
    const int decimals = static_cast<int>(x % 7);
    const double unit = static_cast<double>(x >> 11) / 9007199254740992.0;
    double v = i % 2 ? std::pow(10.0, -8 + 24 * unit)
                     : static_cast<double>(x % 2000000) / std::pow(10.0, static_cast<double>((x >> 59) % 8));
    if (i % 5 == 0) v = -v;
    CAPTURE(v);
    CAPTURE(decimals);
    REQUIRE(format_fixed(v, decimals) == fmt::format("{:.{}f}", v, decimals));
  }
}

TEST_CASE("the append forms add the same text after what a string holds") {
  for (double v : {0.0, -0.0, 1e-7, 0.00012345, 1.5, 999.96, 1234.5, 99995.0, 1234567.0, 1.2345e7, -8.5e21,
                   std::numeric_limits<double>::infinity(), std::nan("")}) {
    CAPTURE(v);
    std::string s = "x";
    append_number(s, v);
    CHECK(s == "x" + format_number(v));
    s = "x";
    append_fixed(s, v, 2);
    CHECK(s == "x" + format_fixed(v, 2));
    s = "x";
    append_human(s, v, Dim::Rate);
    CHECK(s == "x" + format_human(v, Dim::Rate));
  }
  std::string s = "x";
  append_grouped(s, "-12345.5");
  CHECK(s == "x-12,345.5");
  s = "x";
  append_human(s, 21.96, Dim::MoneyRate);
  CHECK(s == "x$21.96/h");
}

TEST_CASE("format_number writes the rounded value's own digits, as printing it would") {
  // format_number builds the plain form from "{:.3e}" without parsing it back; it must be the
  // text of printing the rounded value with 3 - exponent decimals (grouped from 1,000 up).
  const auto reference = [](double v) {
    const std::string sci = fmt::format("{:.3e}", v);
    const double rounded = std::stod(sci);
    const int e = std::stoi(sci.substr(sci.find('e') + 1));
    if (e >= 7 || e < -4) return sci;
    if (e >= 3) return group_thousands(fmt::format("{:.0f}", rounded));
    return fmt::format("{:.{}f}", rounded, 3 - e);
  };
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift
    const double unit = static_cast<double>(x >> 11) / 9007199254740992.0;
    const double v = (i % 2 ? -1 : 1) * std::pow(10.0, -6 + 15 * unit);
    CAPTURE(v);
    REQUIRE(format_number(v) == reference(v));
    // A decimal value, whose fifth digit may be a 5: the rounding's hard case.
    const double decimal = static_cast<double>(x % 2000000) / std::pow(10.0, static_cast<double>((x >> 59) % 12));
    CAPTURE(decimal);
    REQUIRE(format_number(decimal) == (decimal == 0 ? "0" : reference(decimal)));
  }
  for (double v : {1e-4, 1e-3, 0.01,   0.1,    1.0,    10.0,   100.0,   1e3,      1e4,       1e5,
                   1e6,  1e7,  9.9995, 99.995, 999.95, 9999.5, 99995.0, 999950.0, 9999500.0, 0.00099995})
    CHECK(format_number(v) == reference(v));
}

TEST_CASE("an exact value reads back exactly, in binary units when it is a round number of them") {
  CHECK(format_exact(1152.0 * 1024 * 1024 * 1024, Dim::Size) == "1.125 TiB");  // not "1.236950581248 TB"
  CHECK(format_exact(1.5 * 1024 * 1024, Dim::Rate) == "1.5 MiB/s");
  CHECK(format_exact(7.45e9, Dim::Rate) == "7.45 GB/s");
  CHECK(format_exact(500e3, Dim::Size) == "500 KB");
  for (const double v : {1152.0 * 1024 * 1024 * 1024, 123456789.0, 3.0 * 1024}) {
    CAPTURE(v);
    CHECK(parse_quantity(format_exact(v, Dim::Size)).value == v);
  }
}

TEST_CASE("a multiply-accumulate count is two FLOPs per MAC") {
  CHECK(parse_quantity("17.56 GMAC").value == 35.12e9);  // torchvision's ViT-B/16 "GFLOPS"
  CHECK(parse_quantity("17.56 GMAC").dim == Dim::Flop);
  CHECK(parse_quantity("4.09 GMACs").value == 8.18e9);
  CHECK(parse_quantity("1 MAC").value == 2);
}
