#include "core/error.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace pipesim {

std::string Origin::str() const {
  if (source.empty()) return {};
  if (line <= 0) return source;
  return fmt::format("{}:{}:{}", source, line, column);
}

std::string Error::line() const {
  // The last guard of what reaches a terminal: the message's own echoes of input are bounded
  // where they are made (echo()); here control characters are escaped and the whole line kept
  // to a screenful, whatever a message repeats.
  constexpr std::size_t kMaxLine = 2000;
  const std::string where = origin_.str();
  const std::string text =
      printable(fmt::format("{}: error: {}", where.empty() ? std::string("pipesim") : echo(where, 200), what()));
  if (text.size() <= kMaxLine) return text;
  std::size_t cut = kMaxLine;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a whole code point
  return fmt::format("{}... ({} bytes more)", text.substr(0, cut), text.size() - cut);
}

}  // namespace pipesim
