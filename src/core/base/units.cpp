#include "core/base/units.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/text.hpp"

namespace pipesim {

namespace {

struct Unit {
  std::string_view name;
  Dim dim;
  double factor;  // multiply to get SI base units
};

constexpr double K = 1e3, M = 1e6, G = 1e9, T = 1e12, P = 1e15;
constexpr double Ki = 1024.0, Mi = Ki * 1024, Gi = Mi * 1024, Ti = Gi * 1024, Pi = Ti * 1024;

// Case matters: "FLOPS" is a rate, "FLOPs" a count; "Gbps" is bits.
constexpr std::array kUnits = {
    Unit{"%", Dim::Number, 0.01},
    Unit{"B", Dim::Size, 1},
    Unit{"byte", Dim::Size, 1},
    Unit{"bytes", Dim::Size, 1},
    Unit{"KB", Dim::Size, K},
    Unit{"kB", Dim::Size, K},
    Unit{"MB", Dim::Size, M},
    Unit{"GB", Dim::Size, G},
    Unit{"TB", Dim::Size, T},
    Unit{"PB", Dim::Size, P},
    Unit{"KiB", Dim::Size, Ki},
    Unit{"MiB", Dim::Size, Mi},
    Unit{"GiB", Dim::Size, Gi},
    Unit{"TiB", Dim::Size, Ti},
    Unit{"PiB", Dim::Size, Pi},
    Unit{"B/s", Dim::Rate, 1},
    Unit{"KB/s", Dim::Rate, K},
    Unit{"kB/s", Dim::Rate, K},
    Unit{"MB/s", Dim::Rate, M},
    Unit{"GB/s", Dim::Rate, G},
    Unit{"TB/s", Dim::Rate, T},
    Unit{"PB/s", Dim::Rate, P},
    Unit{"KiB/s", Dim::Rate, Ki},
    Unit{"MiB/s", Dim::Rate, Mi},
    Unit{"GiB/s", Dim::Rate, Gi},
    Unit{"TiB/s", Dim::Rate, Ti},
    Unit{"bit/s", Dim::Rate, 1.0 / 8},
    Unit{"Kbit/s", Dim::Rate, K / 8},
    Unit{"Mbit/s", Dim::Rate, M / 8},
    Unit{"Gbit/s", Dim::Rate, G / 8},
    Unit{"Tbit/s", Dim::Rate, T / 8},
    // "Gb/s" is bits too, as network links are quoted.
    Unit{"b/s", Dim::Rate, 1.0 / 8},
    Unit{"Kb/s", Dim::Rate, K / 8},
    Unit{"kb/s", Dim::Rate, K / 8},
    Unit{"Mb/s", Dim::Rate, M / 8},
    Unit{"Gb/s", Dim::Rate, G / 8},
    Unit{"Tb/s", Dim::Rate, T / 8},
    Unit{"bps", Dim::Rate, 1.0 / 8},
    Unit{"kbps", Dim::Rate, K / 8},
    Unit{"Kbps", Dim::Rate, K / 8},
    Unit{"Mbps", Dim::Rate, M / 8},
    Unit{"Gbps", Dim::Rate, G / 8},
    Unit{"Tbps", Dim::Rate, T / 8},
    Unit{"ns", Dim::Duration, 1e-9},
    Unit{"us", Dim::Duration, 1e-6},
    Unit{"\xC2\xB5s", Dim::Duration, 1e-6},
    Unit{"\xCE\xBCs", Dim::Duration, 1e-6},
    Unit{"ms", Dim::Duration, 1e-3},
    Unit{"s", Dim::Duration, 1},
    Unit{"min", Dim::Duration, 60},
    Unit{"h", Dim::Duration, 3600},
    Unit{"d", Dim::Duration, 86400},
    Unit{"day", Dim::Duration, 86400},
    Unit{"days", Dim::Duration, 86400},
    Unit{"week", Dim::Duration, 7 * 86400},
    Unit{"weeks", Dim::Duration, 7 * 86400},
    Unit{"year", Dim::Duration, 365 * 86400},
    Unit{"years", Dim::Duration, 365 * 86400},
    // Prices are held in USD per hour, the unit they are quoted in.
    Unit{"USD", Dim::Money, 1},
    Unit{"USD/h", Dim::MoneyRate, 1},
    Unit{"USD/hour", Dim::MoneyRate, 1},
    Unit{"USD/hr", Dim::MoneyRate, 1},
    Unit{"USD/day", Dim::MoneyRate, 1.0 / 24},
    Unit{"USD/month", Dim::MoneyRate, 12.0 / (365 * 24)},
    Unit{"USD/year", Dim::MoneyRate, 1.0 / (365 * 24)},
    Unit{"FLOP", Dim::Flop, 1},
    Unit{"KFLOP", Dim::Flop, K},
    Unit{"MFLOP", Dim::Flop, M},
    Unit{"GFLOP", Dim::Flop, G},
    Unit{"TFLOP", Dim::Flop, T},
    Unit{"PFLOP", Dim::Flop, P},
    Unit{"FLOPs", Dim::Flop, 1},
    Unit{"KFLOPs", Dim::Flop, K},
    Unit{"MFLOPs", Dim::Flop, M},
    Unit{"GFLOPs", Dim::Flop, G},
    Unit{"TFLOPs", Dim::Flop, T},
    Unit{"PFLOPs", Dim::Flop, P},
    // A multiply-accumulate is two FLOPs: torchvision's and most papers' "GFLOPS" per image
    // count MACs ("17.56 GMAC" is 35.12 GFLOP).
    Unit{"MAC", Dim::Flop, 2},
    Unit{"KMAC", Dim::Flop, 2 * K},
    Unit{"MMAC", Dim::Flop, 2 * M},
    Unit{"GMAC", Dim::Flop, 2 * G},
    Unit{"TMAC", Dim::Flop, 2 * T},
    Unit{"MACs", Dim::Flop, 2},
    Unit{"KMACs", Dim::Flop, 2 * K},
    Unit{"MMACs", Dim::Flop, 2 * M},
    Unit{"GMACs", Dim::Flop, 2 * G},
    Unit{"TMACs", Dim::Flop, 2 * T},
    Unit{"FLOPS", Dim::FlopRate, 1},
    Unit{"KFLOPS", Dim::FlopRate, K},
    Unit{"MFLOPS", Dim::FlopRate, M},
    Unit{"GFLOPS", Dim::FlopRate, G},
    Unit{"TFLOPS", Dim::FlopRate, T},
    Unit{"PFLOPS", Dim::FlopRate, P},
    Unit{"FLOP/s", Dim::FlopRate, 1},
    Unit{"GFLOP/s", Dim::FlopRate, G},
    Unit{"TFLOP/s", Dim::FlopRate, T},
    Unit{"PFLOP/s", Dim::FlopRate, P},
    Unit{"samples/s", Dim::SampleRate, 1},
    Unit{"sample/s", Dim::SampleRate, 1},
    Unit{"samples/sec", Dim::SampleRate, 1},
    Unit{"sample/sec", Dim::SampleRate, 1},
    Unit{"samples/second", Dim::SampleRate, 1},
    Unit{"it/s", Dim::StepRate, 1},
    Unit{"its/s", Dim::StepRate, 1},
    Unit{"steps/s", Dim::StepRate, 1},
    Unit{"step/s", Dim::StepRate, 1},
    Unit{"batches/s", Dim::StepRate, 1},
    Unit{"batch/s", Dim::StepRate, 1},
    Unit{"img/s", Dim::SampleRate, 1},
    Unit{"imgs/s", Dim::SampleRate, 1},
    Unit{"images/s", Dim::SampleRate, 1},
    Unit{"image/s", Dim::SampleRate, 1},
    Unit{"img/sec", Dim::SampleRate, 1},
    Unit{"images/sec", Dim::SampleRate, 1},
    Unit{"frames/s", Dim::FrameRate, 1},
    Unit{"frame/s", Dim::FrameRate, 1},
    Unit{"fps", Dim::FrameRate, 1},
};

// A count written with a suffix: "1.28M" samples, "12k samples/s".
struct CountSuffix {
  char letter;
  double factor;
};
constexpr std::array kCountSuffixes = {CountSuffix{'k', K}, CountSuffix{'K', K}, CountSuffix{'M', M},
                                       CountSuffix{'G', G}};

std::string_view example(Dim d) {
  switch (d) {
    case Dim::Number:
      return "8";
    case Dim::Size:
      return "\"500 KB\"";
    case Dim::Rate:
      return "\"2 GB/s\"";
    case Dim::Duration:
      return "\"11.74 ms\"";
    case Dim::Flop:
      return "\"4.1 GFLOP\"";
    case Dim::FlopRate:
      return "\"312 TFLOPS\"";
    case Dim::SampleRate:
      return "\"1200 samples/s\"";
    case Dim::Bool:
      return "true";
    case Dim::Money:
      return "\"$250000\"";
    case Dim::MoneyRate:
      return "\"$32.77/h\"";
    case Dim::Choice:
      return "\"bf16\"";
    case Dim::StepRate:
      return "\"3.45 it/s\"";
    case Dim::FrameRate:
      return "\"1000 frames/s\"";
  }
  return "";
}

}  // namespace

std::string_view dim_name(Dim d) {
  switch (d) {
    case Dim::Number:
      return "a plain number";
    case Dim::Size:
      return "a size";
    case Dim::Rate:
      return "a rate";
    case Dim::Duration:
      return "a duration";
    case Dim::Flop:
      return "a FLOP count";
    case Dim::FlopRate:
      return "a FLOP rate";
    case Dim::SampleRate:
      return "a sample rate";
    case Dim::Bool:
      return "true or false";
    case Dim::Money:
      return "an amount of money";
    case Dim::MoneyRate:
      return "a price per hour";
    case Dim::Choice:
      return "a name";
    case Dim::StepRate:
      return "a rate per step";
    case Dim::FrameRate:
      return "a frame rate";
  }
  return "a value";
}

std::string describe_dims(DimSet set) {
  std::string names, examples;
  for (unsigned i = 0; i < kDimCount; ++i) {
    const auto d = static_cast<Dim>(i);
    if (!has(set, d)) continue;
    if (!names.empty()) {
      names += " or ";
      examples += ", ";
    }
    names += dim_name(d);
    examples += example(d);
  }
  return fmt::format("{} (e.g. {})", names, examples);
}

namespace {

// parse_quantity, with a count suffix (k, M, G) taken only where `suffix` is true: once after
// the number, never again after it ("1 k k" is no quantity).
Quantity parse_quantity_in(std::string_view text, bool suffix) {
  const std::string_view s = trim(text);
  if (s.empty()) throw Error("expected a value, got nothing");
  if (s.front() == '$') {
    // "$32.77/h" is "32.77 USD/h", "$250000" is "250000 USD".
    const std::string_view rest = s.substr(1);
    std::size_t end = 0;
    while (end < rest.size() && rest[end] != '/') ++end;
    const std::string_view unit = rest.substr(end);
    const std::string usd = fmt::format("{} USD{}", rest.substr(0, end), unit);
    if (rest.substr(0, end).find_first_of("$ ") != std::string_view::npos || rest.empty())
      throw Error(fmt::format("\"{}\" is not an amount of money (e.g. \"$250000\" or \"$32.77/h\")", s));
    try {
      return parse_quantity_in(usd, suffix);
    } catch (const Error&) {
      throw Error(fmt::format("\"{}\" is not an amount of money (e.g. \"$250000\" or \"$32.77/h\")", s));
    }
  }
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (*first == '+') ++first;
  double number = 0;
  const auto [ptr, ec] = std::from_chars(first, last, number);
  if (ec == std::errc::result_out_of_range) throw Error(fmt::format("the number in \"{}\" is out of range", echo(s)));
  if (ec != std::errc() || ptr == first) throw Error(fmt::format("\"{}\" does not start with a number", echo(s)));
  if (!std::isfinite(number)) throw Error(fmt::format("\"{}\" is not a finite number", echo(s)));
  std::string_view unit = trim(std::string_view(ptr, static_cast<std::size_t>(last - ptr)));
  // k, M or G on its own after the number multiplies a count or a sample rate: "1.28M", "12k samples/s".
  for (const auto& c : kCountSuffixes)
    if (suffix && !unit.empty() && unit.front() == c.letter && (unit.size() == 1 || unit[1] == ' ')) {
      const std::string_view rest = trim(unit.substr(1));
      Quantity q;
      try {
        q = parse_quantity_in(fmt::format("{:.15g} {}", number * c.factor, rest), false);
      } catch (const Error&) {
        throw Error(
            fmt::format("\"{}\" is not a count or a sample rate (e.g. \"1.28M\" or \"12k samples/s\")", echo(s)));
      }
      if (q.dim != Dim::Number && q.dim != Dim::SampleRate && q.dim != Dim::StepRate)
        throw Error(fmt::format("\"{}\": {} multiplies a count or samples/s; write it as one unit (e.g. {}B)", echo(s),
                                c.letter, c.letter == 'k' ? 'K' : c.letter));
      return q;
    }
  Quantity q{number, Dim::Number};
  if (!unit.empty()) {
    const Unit* found = nullptr;
    for (const auto& u : kUnits)
      if (u.name == unit) found = &u;
    if (found == nullptr) {
      std::vector<std::string_view> names;
      for (const auto& u : kUnits) names.push_back(u.name);
      const std::string hint = did_you_mean(unit, names);
      throw Error(fmt::format(
          "unknown unit \"{}\" in \"{}\"{} (sizes: B KB MB GB KiB MiB GiB; rates: MB/s GB/s "
          "Gbps Gb/s; durations: ns us ms s min h; FLOP, GFLOP; TFLOPS; samples/s img/s; frames/s; counts: 12k 1.28M)",
          echo(unit), echo(s), hint));
    }
    q.value = number * found->factor;
    q.dim = found->dim;
    // 4.1 x 1e9 is 4099999999.9999995 in binary; the user meant 4.1e9. Round the product
    // to 15 significant digits, below the precision anyone writes a quantity with.
    if (q.value != 0 && std::isfinite(q.value)) {
      const std::string rounded = fmt::format("{:.15g}", q.value);
      std::from_chars(rounded.data(), rounded.data() + rounded.size(), q.value);
    }
  }
  const double mag = std::fabs(q.value);
  if (mag != 0 && (mag > kMaxMagnitude || mag < kMinMagnitude))
    throw Error(fmt::format("\"{}\" is out of the accepted range (1e-21 to 1e21 in base units)", echo(s)));
  return q;
}

}  // namespace

Quantity parse_quantity(std::string_view text) { return parse_quantity_in(text, true); }

bool is_unit_name(std::string_view word) {
  // The names of units other than "%", sorted once at compile time: a binary search, since the
  // wrapping of every printed line asks this of each word after a number.
  static constexpr auto kSorted = [] {
    constexpr auto count = static_cast<std::size_t>(
        std::count_if(kUnits.begin(), kUnits.end(), [](const Unit& u) { return u.dim != Dim::Number; }));
    std::array<std::string_view, count> names{};
    std::size_t i = 0;
    for (const auto& u : kUnits)
      if (u.dim != Dim::Number) names[i++] = u.name;
    std::sort(names.begin(), names.end());
    return names;
  }();
  return std::binary_search(kSorted.begin(), kSorted.end(), word);
}

std::vector<std::string_view> unit_names(Dim d) {
  std::vector<std::string_view> out;
  for (const auto& u : kUnits)
    if (u.dim == d) out.push_back(u.name);
  return out;
}

Quantity parse_quantity_as(std::string_view text, DimSet accepted) {
  const Quantity q = parse_quantity(text);
  if (!has(accepted, q.dim)) {
    if (q.dim == Dim::Number)
      throw Error(fmt::format("expected {}, got \"{}\" with no unit", describe_dims(accepted), echo(trim(text))));
    throw Error(fmt::format("expected {}, got {} \"{}\"", describe_dims(accepted), dim_name(q.dim), echo(trim(text))));
  }
  return q;
}

namespace {

struct Scaled {
  double value;
  std::string_view unit;
};

Scaled scale_si(double v, std::array<std::string_view, 6> units) {
  const double a = std::fabs(v);
  std::size_t i = 0;
  double f = 1;
  while (i + 1 < units.size() && a >= f * 1000 * (1 - 5e-7)) {
    f *= 1000;
    ++i;
  }
  return {v / f, units[i]};
}

Scaled scale(double v, Dim dim) {
  switch (dim) {
    case Dim::Size:
      return scale_si(v, {"B", "KB", "MB", "GB", "TB", "PB"});
    case Dim::Rate:
      return scale_si(v, {"B/s", "KB/s", "MB/s", "GB/s", "TB/s", "PB/s"});
    case Dim::Flop:
      return scale_si(v, {"FLOP", "KFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP"});
    case Dim::FlopRate:
      return scale_si(v, {"FLOPS", "KFLOPS", "MFLOPS", "GFLOPS", "TFLOPS", "PFLOPS"});
    case Dim::Duration: {
      const double a = std::fabs(v);
      if (a == 0) return {0, "s"};
      if (a < 1e-6 * (1 - 5e-7)) return {v * 1e9, "ns"};
      if (a < 1e-3 * (1 - 5e-7)) return {v * 1e6, "us"};
      if (a < 1 * (1 - 5e-7)) return {v * 1e3, "ms"};
      if (a < 120) return {v, "s"};
      if (a < 7200) return {v / 60, "min"};
      return {v / 3600, "h"};
    }
    case Dim::SampleRate:
      return {v, "samples/s"};
    case Dim::Money:
      return {v, "USD"};
    case Dim::MoneyRate:
      return {v, "USD/h"};
    case Dim::StepRate:
      return {v, "it/s"};
    case Dim::FrameRate:
      return {v, "frames/s"};
    case Dim::Number:
    case Dim::Bool:
    case Dim::Choice:
      break;
  }
  return {v, ""};
}

}  // namespace

void append_grouped(std::string& out, std::string_view digits) {
  const std::size_t start = !digits.empty() && (digits[0] == '-' || digits[0] == '+') ? 1 : 0;
  std::size_t end = digits.find('.');
  if (end == std::string_view::npos) end = digits.size();
  const std::size_t whole = end - start;
  const std::size_t commas = whole > 0 ? (whole - 1) / 3 : 0;
  if (commas == 0) {  // up to three digits before the point: nothing to insert
    out.append(digits);
    return;
  }
  const std::size_t at = out.size();
  out.resize(at + digits.size() + commas, ',');
  char* p = std::copy(digits.begin(), digits.begin() + static_cast<std::ptrdiff_t>(start), out.data() + at);
  // The first group holds 1-3 digits, every later one 3, each after a comma.
  std::size_t first = whole - commas * 3;
  p = std::copy_n(digits.data() + start, first, p);
  for (std::size_t i = start + first; i < end; i += 3) p = std::copy_n(digits.data() + i, 3, p + 1);
  std::copy(digits.begin() + static_cast<std::ptrdiff_t>(end), digits.end(), p);
}

std::string group_thousands(std::string_view digits) {
  std::string out;
  append_grouped(out, digits);
  return out;
}

namespace {

// 10^0 .. 10^22, each exact in a double.
constexpr std::array<double, 23> kPowersOfTen = [] {
  std::array<double, 23> p{};
  double v = 1;
  for (double& x : p) {
    x = v;
    v *= 10;
  }
  return p;
}();

// A non-negative value times an exact power of ten, computed with one rounding, rounded to the
// nearest integer as the exact product rounds: nullopt when it lies so near a half that the one
// rounding may have carried it across (a tie of the exact product among them), and from 2^52 up.
// Then fmt, which works from the exact binary value, decides.
std::optional<std::uint64_t> round_scaled(double scaled) {
  if (!(scaled >= 0 && scaled < 0x1p52)) return std::nullopt;
  const double whole = std::floor(scaled);
  // Exact where it matters: the fraction always is, and so is its difference from 0.5 when it
  // lies within a factor of two of it (Sterbenz).
  const double off = scaled - whole - 0.5;
  // The rounding moved the product by at most scaled * 2^-53; twice that leaves no doubt.
  if (std::fabs(off) <= scaled * 0x1p-52) return std::nullopt;
  return static_cast<std::uint64_t>(whole) + (off > 0 ? 1 : 0);
}

// n's digits with a decimal point before the last `decimals`, zeros leading where n is shorter:
// 52 at 1 is "5.2", 5 at 2 "0.05".
void append_scaled(std::string& out, std::uint64_t n, int decimals) {
  char text[48];
  char* p = text + sizeof text;
  int written = 0;
  do {
    *--p = static_cast<char>('0' + n % 10);
    n /= 10;
    if (++written == decimals) *--p = '.';
  } while (n > 0 || written <= decimals);
  out.append(p, static_cast<std::size_t>(text + sizeof text - p));
}

}  // namespace

void append_fixed(std::string& out, double value, int decimals) {
  // Most of what people read (percentages, durations, rates at four digits) takes a few
  // decimals of a modest value: the nearest integer to value * 10^decimals gives its digits,
  // written directly, unless it is too near a half to be sure how fmt rounds.
  if (decimals >= 0 && decimals <= 15 && !std::signbit(value))
    if (const auto n = round_scaled(value * kPowersOfTen[static_cast<std::size_t>(decimals)])) {
      append_scaled(out, *n, decimals);
      return;
    }
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("{:.{}f}"), value, decimals);
}

std::string format_fixed(double value, int decimals) {
  std::string out;
  append_fixed(out, value, decimals);
  return out;
}

namespace {

struct FourDigits {
  std::uint64_t digits;  // 1000..9999
  int exponent;          // of the rounded value: digits / 1000 * 10^exponent
};

// a (positive) rounded to four significant digits as "{:.3e}" rounds it, when the rounded
// value's exponent is one the plain form shows (-4..6) and doubles decide the rounding.
std::optional<FourDigits> four_digits(double a) {
  if (!(a >= 1e-4 && a < 1e7)) return std::nullopt;
  // a in units of 10^(e-3), one rounding; 1000 and 10000 are exact and rounding is monotonic,
  // so comparing with them finds the exponent exactly (-4..6 in this range).
  const auto scaled_at = [&](int x) {
    return x <= 3 ? a * kPowersOfTen[static_cast<std::size_t>(3 - x)]
                  : a / kPowersOfTen[static_cast<std::size_t>(x - 3)];
  };
  int e = 3;
  double scaled = a;
  while (scaled < 1000) scaled = scaled_at(--e);
  while (scaled >= 10000) scaled = scaled_at(++e);
  const auto n = round_scaled(scaled);
  if (!n) return std::nullopt;
  FourDigits r = *n == 10000 ? FourDigits{1000, e + 1} : FourDigits{*n, e};
  if (r.exponent < -4 || r.exponent > 6) return std::nullopt;
  return r;
}

}  // namespace

void append_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out.append(value != value ? "nan" : (value > 0 ? "inf" : "-inf"));
    return;
  }
  if (value == 0) {
    out.push_back('0');
    return;
  }
  // Four significant digits, rounded first: the exponent of the rounded value decides the
  // decimals, so 999.96 reads "1,000", not "1000.0". The digits and that exponent are those of
  // fmt's "{:.3e}" ("-1.235e+03"); the plain form is laid out from them.
  const bool negative = std::signbit(value);
  char digits[4];
  int exponent = 0;
  if (const auto rounded = four_digits(std::fabs(value))) {
    exponent = rounded->exponent;
    for (std::size_t i = 4, n = rounded->digits; i-- > 0; n /= 10) digits[i] = static_cast<char>('0' + n % 10);
  } else {
    char sci[32];
    const char* end = fmt::format_to(sci, FMT_COMPILE("{:.3e}"), value);
    const char* m = sci + (negative ? 1 : 0);
    digits[0] = m[0];
    std::copy_n(m + 2, 3, digits + 1);
    std::from_chars(m + 6 + (m[6] == '+' ? 1 : 0), end, exponent);
    if (exponent >= 7 || exponent < -4) {
      out.append(sci, static_cast<std::size_t>(end - sci));
      return;
    }
  }
  if (negative) out.push_back('-');
  if (exponent >= 3) {  // four digits and up to three zeros, grouped
    const char whole[8] = {digits[0], digits[1], digits[2], digits[3], '0', '0', '0', '0'};
    append_grouped(out, std::string_view(whole, static_cast<std::size_t>(exponent + 1)));
    return;
  }
  if (exponent >= 0) {
    const auto ints = static_cast<std::size_t>(exponent + 1);
    out.append(digits, ints);
    if (ints < 4) out.append(1, '.').append(digits + ints, 4 - ints);
    return;
  }
  out.append("0.").append(static_cast<std::size_t>(-exponent - 1), '0').append(digits, 4);
}

std::string format_number(double value) {
  std::string out;
  append_number(out, value);
  return out;
}

void append_human(std::string& out, double value, Dim dim) {
  if (dim == Dim::Bool || dim == Dim::Money || dim == Dim::MoneyRate) {
    out += format_human(value, dim);
    return;
  }
  const Scaled s = scale(value, dim);
  append_number(out, s.value);
  if (!s.unit.empty()) out.append(1, ' ').append(s.unit);
}

std::string format_human(double value, Dim dim) {
  if (dim == Dim::Bool) return value != 0 ? "true" : "false";
  if (dim == Dim::Money || dim == Dim::MoneyRate) {
    std::string money =
        std::fabs(value) >= 1e15 ? fmt::format("{:.3e}", value) : group_thousands(fmt::format("{:.2f}", value));
    if (money == "-0.00") money = "0.00";
    const bool negative = money[0] == '-';
    return fmt::format("{}${}{}", negative ? "-" : "", negative ? money.substr(1) : money,
                       dim == Dim::MoneyRate ? "/h" : "");
  }
  std::string out;
  append_human(out, value, dim);
  return out;
}

std::string format_compact(double value, Dim dim) {
  if (dim == Dim::Bool) return value != 0 ? "true" : "false";
  if (dim == Dim::Money || dim == Dim::MoneyRate) return format_human(value, dim);
  const Scaled s = scale(value, dim);
  std::string num = format_fixed(s.value, 4);
  if (num.find('.') != std::string::npos) {
    while (num.back() == '0') num.pop_back();
    if (num.back() == '.') num.pop_back();
  }
  if (num == "-0") num = "0";
  if (s.unit.empty()) return num;
  return num.append(1, ' ').append(s.unit);
}

std::string format_exact(double value, Dim dim) {
  std::string compact = format_compact(value, dim);
  if (dim == Dim::Bool || dim == Dim::Money || dim == Dim::MoneyRate) return compact;
  try {
    if (parse_quantity(compact).value == value) return compact;
  } catch (const Error&) {
  }
  // A size or rate that is a round number of binary units reads as one: "1152 GiB", not
  // "1.236950581248 TB".
  if (dim == Dim::Size || dim == Dim::Rate)
    for (const auto& [unit, factor] : {std::pair{"TiB", Ti}, {"GiB", Gi}, {"MiB", Mi}, {"KiB", Ki}}) {
      const std::string text = fmt::format("{:.4g} {}{}", value / factor, unit, dim == Dim::Rate ? "/s" : "");
      if (value >= factor && parse_quantity(text).value == value) return text;
    }
  const Scaled s = scale(value, dim);
  if (s.unit.empty()) return fmt::format("{}", s.value);
  return fmt::format("{} {}", s.value, s.unit);
}

std::string format_significant(double value, Dim dim, int digits) {
  if (dim == Dim::Bool || dim == Dim::Money || dim == Dim::MoneyRate) return format_compact(value, dim);
  const Scaled s = scale(value, dim);
  const std::string num = fmt::format("{:.{}g}", s.value, digits);
  if (s.unit.empty()) return num;
  return fmt::format("{} {}", num, s.unit);
}

}  // namespace pipesim
