// Fuzzes the quantity parser and every field's value parser ("2 GB/s", "$32.77/h", ...).
#include <cmath>
#include <cstdint>

#include "exercise.hpp"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const Quantity q = parse_quantity(text);
    if (!std::isfinite(q.value)) fuzz::die("non-finite quantity", std::string(text));
    fuzz::expect_clean(format_human(q.value, q.dim), "text");
    fuzz::expect_clean(format_compact(q.value, q.dim), "text");
  } catch (const Error&) {
  }
  for (const auto& f : all_fields()) {
    try {
      const Quantity q = parse_field_value(f, text);
      if (!std::isfinite(q.value)) fuzz::die("non-finite field value", std::string(text));
    } catch (const Error&) {
    }
  }
  return 0;
}
