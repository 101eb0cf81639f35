// Fuzzes the range parser: the first byte picks the field, the rest is the range text.
#include <cmath>
#include <cstdint>

#include "exercise.hpp"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const FieldSpec& field = all_fields()[data[0] % kFieldCount];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const Range r = parse_range(text, field);
    if (r.size() == 0) fuzz::die("empty range accepted", std::string(text));
    const std::size_t n = std::min<std::size_t>(r.size(), 4096);
    for (std::size_t i = 0; i < n; ++i) {
      const double v = r.at(i);
      if (!std::isfinite(v)) fuzz::die("non-finite range value", std::string(text));
      try {
        check_value(field, {v, r.dim()});
      } catch (const Error& e) {
        fuzz::die("range value fails its field's check", std::string(text) + " -> " + e.what());
      }
    }
    // The last value is checked too: linear ranges are validated at their ends.
    check_value(field, {r.at(r.size() - 1), r.dim()});
  } catch (const Error&) {
  }
  return 0;
}
