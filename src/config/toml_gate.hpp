// A scan of TOML text before toml++ 3.3 parses it, rejecting input that makes that
// version's parser reach undefined behaviour (marzer/tomlplusplus issues #190 and #295:
// a non-ASCII code point where the parser looks for whitespace reaches TOML_UNREACHABLE;
// fixed upstream in 2026, after the 3.3.0 that Debian 12 ships).
#pragma once

#include <string>
#include <string_view>

#include "core/base/error.hpp"

namespace pipesim {

// Throws Error at source:line:column for: malformed UTF-8; a non-ASCII character outside
// strings and comments (never valid TOML 1.0); a non-ASCII character first after a
// line-ending backslash in a multi-line basic string (valid TOML that toml++ 3.3
// mishandles); a key or [table] header of more than kMaxKeyParts dotted parts (toml++
// nests a table per part, recursively: 200,000 parts overflow the stack). Columns count
// code points, as toml++ does.
inline constexpr int kMaxKeyParts = 32;
void gate_toml_text(std::string_view text, const Origin& doc);

}  // namespace pipesim
