// A strict JSON reader for tests and fuzzers: checks that text is one JSON value and
// collects every number, so callers can assert they are finite and compare them.
#pragma once

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim::test {

class JsonCheck {
 public:
  // True when `text` is exactly one JSON value (surrounding white space allowed).
  bool parse(std::string_view text) {
    s_ = text;
    i_ = 0;
    numbers.clear();
    error.clear();
    ws();
    if (!value(0)) return false;
    ws();
    if (i_ != s_.size()) return fail("trailing characters");
    return true;
  }

  std::vector<double> numbers;  // in document order
  std::string error;

 private:
  std::string_view s_;
  std::size_t i_ = 0;

  bool fail(const char* why) {
    error = std::string(why) + " at offset " + std::to_string(i_);
    return false;
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  bool lit(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return fail("bad literal");
    i_ += word.size();
    return true;
  }
  bool string() {
    ++i_;  // opening quote
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
      if (c == '\\') {
        if (i_ >= s_.size()) return fail("bad escape");
        const char e = s_[i_++];
        if (e == 'u') {
          for (int k = 0; k < 4; ++k, ++i_)
            if (i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_]))) return fail("bad \\u escape");
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return fail("bad escape");
        }
      }
    }
    return fail("unterminated string");
  }
  bool number() {
    const std::size_t start = i_;
    if (s_[i_] == '-') ++i_;
    if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return fail("bad number");
    if (s_[i_] == '0')
      ++i_;
    else
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return fail("bad fraction");
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return fail("bad exponent");
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    double v = 0;
    const auto r = std::from_chars(s_.data() + start, s_.data() + i_, v);
    if (r.ec != std::errc() || !std::isfinite(v)) return fail("number out of range");
    numbers.push_back(v);
    return true;
  }
  bool value(int depth) {
    if (depth > 64) return fail("nested too deep");
    if (i_ >= s_.size()) return fail("unexpected end");
    const char c = s_[i_];
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++i_;
      ws();
      if (i_ < s_.size() && s_[i_] == close) {
        ++i_;
        return true;
      }
      while (true) {
        ws();
        if (c == '{') {
          if (i_ >= s_.size() || s_[i_] != '"') return fail("expected a key");
          if (!string()) return false;
          ws();
          if (i_ >= s_.size() || s_[i_] != ':') return fail("expected ':'");
          ++i_;
          ws();
        }
        if (!value(depth + 1)) return false;
        ws();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == close) {
          ++i_;
          return true;
        }
        return fail("expected ',' or a closing bracket");
      }
    }
    if (c == '"') return string();
    if (c == 't') return lit("true");
    if (c == 'f') return lit("false");
    if (c == 'n') return lit("null");
    return number();
  }
};

// True when `text` holds "inf" or "nan" as a word (any case).
inline bool has_non_finite_word(std::string_view text) {
  const auto word = [&](std::size_t i) { return i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])); };
  for (std::size_t i = 0; i + 3 <= text.size(); ++i) {
    std::string w;
    for (std::size_t k = 0; k < 3; ++k) w += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + k])));
    if ((w == "inf" || w == "nan") && !(i > 0 && word(i - 1)) && !word(i + 3)) return true;
  }
  return false;
}

}  // namespace pipesim::test
