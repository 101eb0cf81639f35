#include "report/out.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/base/error.hpp"

namespace pipesim {

void fail_write(std::FILE* file) {
  const int err = errno;
  throw Error(fmt::format("cannot write {}: {}", file == stdout ? "standard output" : "the output",
                          err ? std::strerror(err) : "the write failed"));
}

namespace {

// fmt's "{}" for a double, written from the shortest digits (fmt's Dragonbox, the search "{}"
// makes) without fmt's general writer, which weighs format specifications, locales and grouping
// a plain number never has: the digits with the point where it falls ("0.00125", "1234.5",
// "1500000"), or one digit, the rest after a point and an exponent of at least two digits
// ("1.5e-05", "1e+16") when the decimal exponent is below -4 or from 16 up. Zero, infinities and
// NaN go to fmt itself. tests/unit/report/json_test.cpp compares the two over random doubles.
char* write_shortest(double v, char* p) {
  if (!std::isfinite(v) || v == 0) return fmt::format_to(p, FMT_COMPILE("{}"), v);
  const auto decimal = fmt::detail::dragonbox::to_decimal(std::fabs(v));
  // The significand's digits (at most 17), two at a time from the end.
  static constexpr char kPairs[] =
      "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
      "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";
  char digits[20];
  char* d = digits + sizeof digits;
  std::uint64_t wide = decimal.significand;
  // The last eight digits in 32-bit arithmetic (a 64-bit division by 100 costs more), then the
  // rest, at most nine, the same way.
  if (wide >= 100000000) {
    auto low = static_cast<std::uint32_t>(wide % 100000000);
    wide /= 100000000;
    for (int i = 0; i < 4; ++i, low /= 100) std::memcpy(d -= 2, kPairs + 2 * (low % 100), 2);
  }
  auto s = static_cast<std::uint32_t>(wide);
  for (; s >= 100; s /= 100) std::memcpy(d -= 2, kPairs + 2 * (s % 100), 2);
  if (s >= 10)
    std::memcpy(d -= 2, kPairs + 2 * s, 2);
  else
    *--d = static_cast<char>('0' + s);
  const auto n = static_cast<std::size_t>(digits + sizeof digits - d);
  const int exponent = decimal.exponent;                 // of the last digit
  const int first = exponent + static_cast<int>(n) - 1;  // of the first digit
  if (std::signbit(v)) *p++ = '-';
  if (first < -4 || first >= 16) {
    *p++ = d[0];
    if (n > 1) {
      *p++ = '.';
      std::memcpy(p, d + 1, n - 1);
      p += n - 1;
    }
    *p++ = 'e';
    *p++ = first < 0 ? '-' : '+';
    const int e = first < 0 ? -first : first;
    if (e >= 100) *p++ = static_cast<char>('0' + e / 100);
    std::memcpy(p, kPairs + 2 * (e % 100), 2);
    return p + 2;
  }
  if (exponent >= 0) {
    std::memcpy(p, d, n);
    return std::fill_n(p + n, exponent, '0');
  }
  if (first >= 0) {
    const auto whole = static_cast<std::size_t>(first + 1);
    std::memcpy(p, d, whole);
    p[whole] = '.';
    std::memcpy(p + whole + 1, d + whole, n - whole);
    return p + n + 1;
  }
  *p++ = '0';
  *p++ = '.';
  p = std::fill_n(p, -first - 1, '0');
  std::memcpy(p, d, n);
  return p + n;
}

}  // namespace

// The shortest text is a search (Dragonbox) that costs more than the rest of writing a number.
// A sweep writes the same values again and again (a row repeats most figures of the row before
// it), so each thread keeps the last texts it wrote, looked up by the value's bits: a repeated
// value is copied, not searched for again. A slot holds one value; another value with the same
// hash takes its place.
char* Out::shortest(double v, char* p) {
  struct Slot {
    std::uint64_t bits;
    std::uint8_t size;  // 0: empty (a number's text is never empty)
    char text[kNumberMax];
  };
  static constexpr unsigned kSlotBits = 8;
  static thread_local Slot slots[1u << kSlotBits];
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  Slot& slot = slots[(bits * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits)];
  if (slot.size != 0 && slot.bits == bits) {
    std::memcpy(p, slot.text, kNumberMax);
    return p + slot.size;
  }
  char* end = write_shortest(v, p);
  slot.bits = bits;
  slot.size = static_cast<std::uint8_t>(end - p);
  std::memcpy(slot.text, p, slot.size);
  return end;
}

}  // namespace pipesim
