#include "core/base/range.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "core/base/error.hpp"
#include "core/base/text.hpp"

namespace pipesim {

Range Range::list(std::vector<double> values, Dim dim) {
  Range r;
  r.values_ = std::move(values);
  r.dim_ = dim;
  return r;
}

namespace {

// Digits after the decimal point in the shortest text that reads back as x: 0.1 -> 1,
// 2.5e-3 -> 4, 100000 -> 0; 99 when it has too many to round on (1/3).
int decimals(double x) {
  const std::string s = fmt::format("{}", x);
  const auto e = s.find_first_of("eE");
  const std::string mantissa = s.substr(0, e);
  const auto dot = mantissa.find('.');
  int digits = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  if (e != std::string::npos) digits -= std::stoi(s.substr(e + 1));
  return std::max(digits, 0);
}

}  // namespace

Range Range::linear(double start, double step, std::size_t count, Dim dim) {
  Range r;
  const int places = std::max(decimals(start), decimals(step));
  const double last = std::fabs(start) + static_cast<double>(count) * std::fabs(step);
  // Rounding is exact only while value * 10^places stays an integer a double holds.
  if (places > 0 && places <= 15 && last * std::pow(10.0, places) < 0x1p52) r.grid_ = std::pow(10.0, places);
  r.linear_ = true;
  r.start_ = start;
  r.step_ = step;
  r.count_ = count;
  r.dim_ = dim;
  return r;
}

namespace {

// Relative slack so that 0.1 steps and x1.1 factors land on their end point.
constexpr double kSlack = 1e-9;

// Whether text is a number with nothing after it ("60", "2.5e3").
bool bare_number(std::string_view text) {
  if (text.empty()) return false;
  const std::string_view t = text.substr(text.front() == '+' ? 1 : 0);
  double v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && ptr == t.data() + t.size();
}

// The unit after a range's last number ("samples/s" in "60..200:+20 samples/s"); empty when the
// last number has none or the field takes names.
std::string shared_unit(std::string_view t, const FieldSpec& field) {
  if (!field.choices.empty() || field.accepts == dims(Dim::Bool) || field.shape) return {};
  const std::size_t digit = t.find_last_of("0123456789");
  if (digit == std::string_view::npos) return {};
  std::string_view tail = t.substr(digit + 1);
  if (tail.find_first_of(",.:") != std::string_view::npos) return {};
  tail = trim(tail);
  return std::string(tail);
}

}  // namespace

namespace {

// One range's text for one field, and its three forms. A unit written once, after the last
// number, is the unit of every number written without one: "60..200:+20 samples/s",
// "8,16,32 GB", "1..8:x2 GB/s" (a factor has none).
struct RangeText {
  const FieldSpec& field;
  std::string_view text;  // as written, for errors
  std::string unit;

  [[nodiscard]] Error fail(std::string_view why) const {
    return Error(
        fmt::format("{}: bad range \"{}\": {} (forms: 32..1024 doubles, 1..16:+1 steps, "
                    "32..1024:x4 multiplies, 8,16,32 lists)",
                    field.key, echo(text), why));
  }
  [[nodiscard]] std::string with_unit(std::string_view s) const {
    return bare_number(trim(s)) && !unit.empty() ? fmt::format("{} {}", trim(s), unit) : std::string(trim(s));
  }
  [[nodiscard]] Quantity value(std::string_view s) const { return parse_field_value(field, with_unit(s)); }

  // "8,16,32"
  [[nodiscard]] Range list(std::string_view t) const {
    std::vector<double> values;
    Dim dim = Dim::Number;
    std::size_t pos = 0;
    while (true) {
      const auto comma = t.find(',', pos);
      const auto item = t.substr(pos, comma == std::string_view::npos ? t.npos : comma - pos);
      if (trim(item).empty()) throw fail("empty list item");
      const Quantity q = value(item);
      values.push_back(q.value);
      dim = q.dim;
      if (comma == std::string_view::npos) break;
      pos = comma + 1;
    }
    return Range::list(std::move(values), dim);
  }

  // "1..16:+1", the step after the "+".
  [[nodiscard]] Range linear(const Quantity& start, const Quantity& end, std::string_view step_text) const {
    Quantity step;
    try {
      step = parse_quantity_as(with_unit(step_text), dims(start.dim));
    } catch (const Error& e) {
      throw fail(fmt::format("step: {}", e.what()));
    }
    if (!(step.value > 0)) throw fail("the step must be greater than zero");
    if (field.integer && step.value != std::floor(step.value))
      throw fail("the step must be a whole number for this field");
    const double n = std::floor((end.value - start.value) / step.value * (1 + kSlack) + kSlack) + 1;
    if (n > static_cast<double>(kMaxRangeValues))
      throw fail(fmt::format("{:.0f} values, more than the limit of {}", n, kMaxRangeValues));
    const auto count = static_cast<std::size_t>(n);
    // Monotone: checking the last value checks them all.
    Range r = Range::linear(start.value, step.value, count, start.dim);
    check_value(field, {r.at(count - 1), start.dim});
    return r;
  }

  // "32..1024:x4" (or "*4"; empty: doubles).
  [[nodiscard]] Range multiplying(const Quantity& start, const Quantity& end, std::string_view step_text) const {
    double factor = 2;
    if (!step_text.empty()) {
      if (step_text.front() != 'x' && step_text.front() != '*') throw fail("the step must be +STEP or xFACTOR");
      Quantity f;
      try {
        f = parse_quantity_as(step_text.substr(1), dims(Dim::Number));
      } catch (const Error& e) {
        throw fail(fmt::format("factor: {}", e.what()));
      }
      if (!(f.value > 1)) throw fail("the factor must be greater than 1");
      factor = f.value;
    }
    if (!(start.value > 0)) throw fail("a multiplying range cannot start at 0: use 0..16:+1 or a list");
    // Counted before anything is built: x1.0000001 from 1 KB to 1e15 B would be 2e8 values.
    const double count = std::floor(std::log(end.value * (1 + kSlack) / start.value) / std::log(factor)) + 1;
    if (!(count <= static_cast<double>(kMaxRangeValues)))
      throw fail(fmt::format("about {:.3g} values, more than the limit of {}", count, kMaxRangeValues));
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(count) + 1);
    for (double v = start.value; v <= end.value * (1 + kSlack); v *= factor) {
      if (values.size() >= kMaxRangeValues)
        throw fail(fmt::format("more than the limit of {} values", kMaxRangeValues));
      // To 12 significant digits, so 0.3..3:x3 gives 0.9 and 2.7, not 0.8999999999999999.
      const double shown = std::stod(fmt::format("{:.12g}", v));
      check_value(field, {shown, start.dim});
      values.push_back(shown);
    }
    return Range::list(std::move(values), start.dim);
  }
};

}  // namespace

Range parse_range(std::string_view text, const FieldSpec& field) {
  RangeText r{field, text, {}};
  std::string_view t = trim(text);
  if (t.empty()) throw r.fail("empty range");
  r.unit = shared_unit(t, field);
  if (!r.unit.empty()) t = trim(t.substr(0, t.size() - r.unit.size()));

  const auto dots = t.find("..");
  if (dots != std::string_view::npos && t.find(',') != std::string_view::npos)
    throw r.fail("a list and a range cannot be mixed: write a list (8,16,32) or a range (8..32)");
  if (dots != std::string_view::npos && (!field.choices.empty() || field.accepts == dims(Dim::Bool))) {
    const std::string names = field.choices.empty() ? std::string("true,false") : choice_names(field, ",");
    throw r.fail(fmt::format("this field takes a list of names, e.g. {}", names));
  }
  if (dots == std::string_view::npos) return r.list(t);

  const std::string_view start_text = t.substr(0, dots);
  std::string_view rest = t.substr(dots + 2);
  std::string_view step_text;
  const auto colon = rest.find(':');
  if (colon != std::string_view::npos) {
    step_text = trim(rest.substr(colon + 1));
    rest = rest.substr(0, colon);
  }
  if (trim(start_text).empty() || trim(rest).empty()) throw r.fail("missing start or end");
  const Quantity start = r.value(start_text);
  const Quantity end = r.value(rest);
  if (end.value < start.value) throw r.fail("the end is below the start");
  if (!step_text.empty() && step_text.front() == '+') return r.linear(start, end, step_text.substr(1));
  return r.multiplying(start, end, step_text);
}

}  // namespace pipesim
