#include "config/toml_gate.hpp"

#include <fmt/format.h>

#include "core/base/text.hpp"

namespace pipesim {

namespace {

enum class State { Normal, Comment, Basic, Literal, MultiBasic, MultiLiteral };

}  // namespace

void gate_toml_text(std::string_view s, const Origin& doc) {
  int line = 1, column = 1;
  const auto fail = [&](const std::string& why) { throw Error(doc.at(line, column), why); };
  State state = State::Normal;
  bool after_line_end_backslash = false;  // in MultiBasic, trimming white space
  // Where a string may begin, as toml++ reads it: only where a key or a value begins. Inside
  // a bare token (`31$[c["x`) every character up to the token's end belongs to the token,
  // and toml++ scans it code point by code point, so a quote there opens nothing.
  bool value_context = false;  // after `=` (and inside arrays), until the line or entry ends
  bool in_bare = false;        // inside a bare key or bare value token
  bool bare_is_value = false;
  std::string nesting;  // '[' for arrays, '{' for inline tables
  // Dotted parts of the key being read (a [table] header's or a key's): toml++ builds one
  // nested table per part, recursively, so a key of 200,000 parts overflows the stack.
  int key_parts = 1;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = decode_utf8(s, i).second;
    if (n == 0) fail("the file is not valid UTF-8 here");
    const char c = s[i];
    const bool ascii = n == 1;
    const auto starts = [&](std::string_view t) { return s.substr(i, t.size()) == t; };
    std::size_t step = n;
    switch (state) {
      case State::Normal: {
        if (!ascii)
          fail(
              "a non-ASCII character outside a string or comment (TOML keys and syntax are ASCII; "
              "quote the text)");
        if (c == '#' || c == '\n' || c == ' ' || c == '\t' || c == '\r') in_bare = false;
        if (in_bare) {
          // A bare value ends at white space, `,`, `]`, `}` or `#`; a bare key also at `=` and `.`.
          const bool ends = c == ',' || c == ']' || c == '}' || (!bare_is_value && (c == '=' || c == '.'));
          if (!ends) break;
          in_bare = false;
        }
        if (c == '.' && !value_context && ++key_parts > kMaxKeyParts)
          fail(fmt::format("a key of more than {} dotted parts (pipesim's keys have two to four)", kMaxKeyParts));
        if (c == '\n' || c == '=' || c == '{' || c == ',' || (c == '[' && !value_context)) key_parts = 1;
        if (c == '#') {
          state = State::Comment;
        } else if (c == '\n') {
          if (nesting.empty()) value_context = false;
        } else if (c == '"' || c == '\'') {
          if (starts("\"\"\""))
            state = State::MultiBasic, step = 3;
          else if (starts("\'\'\'"))
            state = State::MultiLiteral, step = 3;
          else
            state = c == '"' ? State::Basic : State::Literal;
        } else if (c == '=') {
          value_context = true;
        } else if (c == '[') {
          if (value_context) nesting += '[';  // an array; otherwise a [table] header
        } else if (c == '{') {
          nesting += '{';
          value_context = false;
        } else if (c == ']') {
          if (!nesting.empty() && nesting.back() == '[') nesting.pop_back();
        } else if (c == '}') {
          if (!nesting.empty() && nesting.back() == '{') nesting.pop_back();
          value_context = true;
        } else if (c == ',') {
          if (!nesting.empty() && nesting.back() == '{') value_context = false;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '.') {
          in_bare = true;
          bare_is_value = value_context;
        }
        break;
      }
      case State::Comment:
        if (c == '\n') {
          state = State::Normal;
          if (nesting.empty()) value_context = false;
        }
        break;
      case State::Basic:
        // An escape takes the next code point with it (a malformed one fails next round).
        if (c == '\\' && i + 1 < s.size() && s[i + 1] != '\n') {
          std::size_t j = i + 1;
          while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
          if (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x80) {
            column += static_cast<int>(j - i);
            fail("a backslash before a non-ASCII character is not a TOML escape");
          }
          step = 1 + decode_utf8(s, i + 1).second;
        } else if (c == '"' || c == '\n')
          state = State::Normal;  // unterminated: toml++ reports it
        break;
      case State::Literal:
        if (c == '\'' || c == '\n') state = State::Normal;
        break;
      case State::MultiBasic:
        if (after_line_end_backslash) {
          if (c == ' ' || c == '\t' || c == '\n' || c == '\r') break;
          after_line_end_backslash = false;
          if (!ascii)
            fail(
                "a non-ASCII character first on a line after a line-ending backslash in a \"\"\" string: "
                "toml++ 3.3 cannot read it (put the character on the previous line or drop the backslash)");
        }
        if (c == '\\') {
          // A line-ending backslash: only white space up to the end of the line.
          std::size_t j = i + 1;
          while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r')) ++j;
          if (j < s.size() && s[j] == '\n') {
            after_line_end_backslash = true;
          } else if (i + 1 < s.size()) {
            // toml++ 3.3 asks of every code point after the backslash and its white space
            // whether it is white space: UB for some non-ASCII ones (fuzz: "\\\t\t<U+FCFF>").
            if (static_cast<unsigned char>(s[j < s.size() ? j : i + 1]) >= 0x80) {
              column += static_cast<int>(j - i);
              fail("a backslash before a non-ASCII character is not a TOML escape");
            }
            step = 1 + decode_utf8(s, i + 1).second;
          }
        } else if (starts("\"\"\"")) {
          // Up to two more quotes may belong to the string ("""a""""" ends with two quotes).
          std::size_t q = 3;
          while (q < 5 && i + q < s.size() && s[i + q] == '"') ++q;
          step = q;
          state = State::Normal;
        }
        break;
      case State::MultiLiteral:
        if (starts("'''")) {
          std::size_t q = 3;
          while (q < 5 && i + q < s.size() && s[i + q] == '\'') ++q;
          step = q;
          state = State::Normal;
        }
        break;
    }
    // Advance, keeping line and column (in code points) for messages.
    for (std::size_t k = 0; k < step && i < s.size();) {
      const std::size_t len = std::max<std::size_t>(decode_utf8(s, i).second, 1);
      if (s[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
      i += len;
      k += len;
    }
  }
}

}  // namespace pipesim
