#include "config/toml_gate.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "core/base/text.hpp"

namespace pipesim {

namespace {

// The scan: a lexer whose state is where in the TOML text it stands (outside strings, in a
// comment, in one of the four kinds of string). Each state has its own step, which reads the
// code point at `i` and says how many bytes it consumed.
class Gate {
 public:
  Gate(std::string_view s, const Origin& doc) : s_(s), doc_(doc) {}

  void run() {
    for (i_ = 0; i_ < s_.size();) {
      n_ = decode_utf8(s_, i_).second;
      if (n_ == 0) fail("the file is not valid UTF-8 here");
      std::size_t step = n_;
      switch (state_) {
        case State::Normal:
          step = normal();
          break;
        case State::Comment:
          comment();
          break;
        case State::Basic:
          step = basic();
          break;
        case State::Literal:
          if (c() == '\'' || c() == '\n') state_ = State::Normal;
          break;
        case State::MultiBasic:
          step = multi_basic();
          break;
        case State::MultiLiteral:
          step = multi_literal();
          break;
      }
      advance(step);
    }
  }

 private:
  enum class State { Normal, Comment, Basic, Literal, MultiBasic, MultiLiteral };

  [[noreturn]] void fail(const std::string& why) const { throw Error(doc_.at(line_, column_), why); }
  char c() const { return s_[i_]; }
  bool starts(std::string_view t) const { return s_.substr(i_, t.size()) == t; }

  // Outside strings and comments: keys, values, brackets and where strings may begin.
  std::size_t normal() {
    const char ch = c();
    if (n_ != 1)
      fail(
          "a non-ASCII character outside a string or comment (TOML keys and syntax are ASCII; "
          "quote the text)");
    if (ch == '#' || ch == '\n' || ch == ' ' || ch == '\t' || ch == '\r') in_bare_ = false;
    if (in_bare_) {
      // A bare value ends at white space, `,`, `]`, `}` or `#`; a bare key also at `=` and `.`.
      const bool ends = ch == ',' || ch == ']' || ch == '}' || (!bare_is_value_ && (ch == '=' || ch == '.'));
      if (!ends) return n_;
      in_bare_ = false;
    }
    if (ch == '.' && !value_context_ && ++key_parts_ > kMaxKeyParts)
      fail(fmt::format("a key of more than {} dotted parts (pipesim's keys have two to four)", kMaxKeyParts));
    if (ch == '\n' || ch == '=' || ch == '{' || ch == ',' || (ch == '[' && !value_context_)) key_parts_ = 1;
    if (ch == '#') {
      state_ = State::Comment;
    } else if (ch == '\n') {
      if (nesting_.empty()) value_context_ = false;
    } else if (ch == '"' || ch == '\'') {
      if (starts("\"\"\"")) {
        state_ = State::MultiBasic;
        return 3;
      }
      if (starts("\'\'\'")) {
        state_ = State::MultiLiteral;
        return 3;
      }
      state_ = ch == '"' ? State::Basic : State::Literal;
    } else if (ch == '=') {
      value_context_ = true;
    } else if (ch == '[') {
      if (value_context_) nesting_ += '[';  // an array; otherwise a [table] header
    } else if (ch == '{') {
      nesting_ += '{';
      value_context_ = false;
    } else if (ch == ']') {
      if (!nesting_.empty() && nesting_.back() == '[') nesting_.pop_back();
    } else if (ch == '}') {
      if (!nesting_.empty() && nesting_.back() == '{') nesting_.pop_back();
      value_context_ = true;
    } else if (ch == ',') {
      if (!nesting_.empty() && nesting_.back() == '{') value_context_ = false;
    } else if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '.') {
      in_bare_ = true;
      bare_is_value_ = value_context_;
    }
    return n_;
  }

  void comment() {
    if (c() != '\n') return;
    state_ = State::Normal;
    if (nesting_.empty()) value_context_ = false;
  }

  // A "basic" string: an escape takes the next code point with it (a malformed one fails next
  // round).
  std::size_t basic() {
    if (c() == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] != '\n') {
      std::size_t j = i_ + 1;
      while (j < s_.size() && (s_[j] == ' ' || s_[j] == '\t')) ++j;
      if (j < s_.size() && static_cast<unsigned char>(s_[j]) >= 0x80) {
        column_ += static_cast<int>(j - i_);
        fail("a backslash before a non-ASCII character is not a TOML escape");
      }
      return 1 + decode_utf8(s_, i_ + 1).second;
    }
    if (c() == '"' || c() == '\n') state_ = State::Normal;  // unterminated: toml++ reports it
    return n_;
  }

  // A """multi-line basic""" string, with its line-ending backslashes.
  std::size_t multi_basic() {
    const char ch = c();
    if (after_line_end_backslash_) {
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') return n_;
      after_line_end_backslash_ = false;
      if (n_ != 1)
        fail(
            "a non-ASCII character first on a line after a line-ending backslash in a \"\"\" string: "
            "toml++ 3.3 cannot read it (put the character on the previous line or drop the backslash)");
    }
    if (ch == '\\') {
      // A line-ending backslash: only white space up to the end of the line.
      std::size_t j = i_ + 1;
      while (j < s_.size() && (s_[j] == ' ' || s_[j] == '\t' || s_[j] == '\r')) ++j;
      if (j < s_.size() && s_[j] == '\n') {
        after_line_end_backslash_ = true;
      } else if (i_ + 1 < s_.size()) {
        // toml++ 3.3 asks of every code point after the backslash and its white space
        // whether it is white space: UB for some non-ASCII ones (fuzz: "\\\t\t<U+FCFF>").
        if (static_cast<unsigned char>(s_[j < s_.size() ? j : i_ + 1]) >= 0x80) {
          column_ += static_cast<int>(j - i_);
          fail("a backslash before a non-ASCII character is not a TOML escape");
        }
        return 1 + decode_utf8(s_, i_ + 1).second;
      }
      return n_;
    }
    return starts("\"\"\"") ? closing('"') : n_;
  }

  std::size_t multi_literal() { return starts("'''") ? closing('\'') : n_; }

  // The end of a multi-line string: up to two more quotes belong to the string ("""a""""" ends
  // with two quotes).
  std::size_t closing(char quote) {
    std::size_t q = 3;
    while (q < 5 && i_ + q < s_.size() && s_[i_ + q] == quote) ++q;
    state_ = State::Normal;
    return q;
  }

  // Moves on `step` bytes, keeping line and column (in code points) for messages.
  void advance(std::size_t step) {
    for (std::size_t k = 0; k < step && i_ < s_.size();) {
      const std::size_t len = std::max<std::size_t>(decode_utf8(s_, i_).second, 1);
      if (s_[i_] == '\n') {
        ++line_;
        column_ = 1;
      } else {
        ++column_;
      }
      i_ += len;
      k += len;
    }
  }

  std::string_view s_;
  const Origin& doc_;
  std::size_t i_ = 0;
  std::size_t n_ = 0;  // bytes of the code point at i_
  int line_ = 1, column_ = 1;
  State state_ = State::Normal;
  bool after_line_end_backslash_ = false;  // in MultiBasic, trimming white space
  // Where a string may begin, as toml++ reads it: only where a key or a value begins. Inside
  // a bare token (`31$[c["x`) every character up to the token's end belongs to the token,
  // and toml++ scans it code point by code point, so a quote there opens nothing.
  bool value_context_ = false;  // after `=` (and inside arrays), until the line or entry ends
  bool in_bare_ = false;        // inside a bare key or bare value token
  bool bare_is_value_ = false;
  std::string nesting_;  // '[' for arrays, '{' for inline tables
  // Dotted parts of the key being read (a [table] header's or a key's): toml++ builds one
  // nested table per part, recursively, so a key of 200,000 parts overflows the stack.
  int key_parts_ = 1;
};

}  // namespace

void gate_toml_text(std::string_view s, const Origin& doc) { Gate(s, doc).run(); }

}  // namespace pipesim
