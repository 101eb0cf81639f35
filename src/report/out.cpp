#include "report/out.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/error.hpp"

namespace pipesim {

void fail_write(std::FILE* file) {
  const int err = errno;
  throw Error(fmt::format("cannot write {}: {}", file == stdout ? "standard output" : "the output",
                          err ? std::strerror(err) : "the write failed"));
}

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
  char* end = fmt::format_to(p, FMT_COMPILE("{}"), v);
  slot.bits = bits;
  slot.size = static_cast<std::uint8_t>(end - p);
  std::memcpy(slot.text, p, slot.size);
  return end;
}

}  // namespace pipesim
