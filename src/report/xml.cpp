#include "report/xml.hpp"

#include <fmt/format.h>

#include "core/base/text.hpp"

namespace pipesim {

std::string xml_escape(std::string_view text) {
  const std::string s = valid_utf8(text);
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(u));
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters; drop them.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

}  // namespace pipesim
