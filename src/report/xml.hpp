// Text for XML documents (JUnit, SVG).
#pragma once

#include <string>
#include <string_view>

namespace pipesim {

// Escapes markup, and keeps the document well-formed whatever the text holds: valid UTF-8, and
// the control characters XML 1.0 forbids (all below U+0020 but tab, newline and return) shown
// as "\xNN".
std::string xml_escape(std::string_view text);

}  // namespace pipesim
