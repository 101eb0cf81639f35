// A strict well-formedness check of XML 1.0 for tests and fuzzers (the JUnit that CI systems
// read): valid UTF-8, only characters XML allows, one root element, tags that nest and close
// by name, quoted attributes, and `&` and `<` only as markup or known entities. No DTD.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pipesim::test {

class XmlCheck {
 public:
  bool parse(std::string_view text) {
    s_ = text;
    i_ = 0;
    error.clear();
    std::vector<std::string_view> open;
    bool root_seen = false;
    if (!chars_allowed()) return false;
    if (s_.substr(0, 5) == "<?xml") {
      const auto end = s_.find("?>");
      if (end == std::string_view::npos) return fail("unclosed XML declaration");
      i_ = end + 2;
    }
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '<') {
        if (s_.substr(i_, 4) == "<!--") {
          const auto end = s_.find("-->", i_ + 4);
          if (end == std::string_view::npos) return fail("unclosed comment");
          i_ = end + 3;
        } else if (s_.substr(i_, 9) == "<![CDATA[") {
          if (open.empty()) return fail("CDATA outside the root");
          const auto end = s_.find("]]>", i_ + 9);
          if (end == std::string_view::npos) return fail("unclosed CDATA");
          i_ = end + 3;
        } else if (s_.substr(i_, 2) == "</") {
          i_ += 2;
          const auto name = read_name();
          if (name.empty()) return fail("a closing tag without a name");
          skip_space();
          if (i_ >= s_.size() || s_[i_] != '>') return fail("a closing tag not ended by >");
          ++i_;
          if (open.empty() || open.back() != name) return fail("a closing tag that does not match");
          open.pop_back();
        } else {
          ++i_;
          const auto name = read_name();
          if (name.empty()) return fail("a tag without a name");
          if (open.empty() && root_seen) return fail("a second root element");
          root_seen = true;
          std::vector<std::string_view> attributes;
          while (true) {
            const bool spaced = skip_space();
            if (i_ >= s_.size()) return fail("an unclosed tag");
            if (s_[i_] == '>') {
              ++i_;
              open.push_back(name);
              break;
            }
            if (s_.substr(i_, 2) == "/>") {
              i_ += 2;
              break;
            }
            if (!spaced) return fail("attributes not separated by space");
            const auto attribute = read_name();
            if (attribute.empty()) return fail("a bad attribute name");
            for (auto a : attributes)
              if (a == attribute) return fail("a repeated attribute");
            attributes.push_back(attribute);
            skip_space();
            if (i_ >= s_.size() || s_[i_] != '=') return fail("an attribute without =");
            ++i_;
            skip_space();
            if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) return fail("an unquoted attribute");
            const char quote = s_[i_++];
            while (i_ < s_.size() && s_[i_] != quote) {
              if (s_[i_] == '<') return fail("< in an attribute value");
              if (s_[i_] != '&')
                ++i_;
              else if (!entity())
                return false;
            }
            if (i_ >= s_.size()) return fail("an unclosed attribute value");
            ++i_;
          }
        }
      } else if (c == '&') {
        if (open.empty()) return fail("text outside the root");
        if (!entity()) return false;
      } else {
        if (open.empty() && c != ' ' && c != '\n' && c != '\r' && c != '\t') return fail("text outside the root");
        ++i_;
      }
    }
    if (!open.empty()) return fail("an element left open");
    if (!root_seen) return fail("no root element");
    return true;
  }

  std::string error;

 private:
  std::string_view s_;
  std::size_t i_ = 0;

  bool fail(const char* why) {
    error = std::string(why) + " at offset " + std::to_string(i_);
    return false;
  }
  bool skip_space() {
    const std::size_t from = i_;
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
    return i_ > from;
  }
  std::string_view read_name() {
    const std::size_t from = i_;
    while (i_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80 ||
                      (i_ > from && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
      if (!ok) break;
      ++i_;
    }
    return s_.substr(from, i_ - from);
  }
  // At '&': a predefined entity or a character reference to an allowed character.
  bool entity() {
    const auto end = s_.find(';', i_);
    if (end == std::string_view::npos || end - i_ > 12) return fail("a bare &");
    const auto name = s_.substr(i_ + 1, end - i_ - 1);
    if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos") {
      i_ = end + 1;
      return true;
    }
    if (name.size() < 2 || name[0] != '#') return fail("an unknown entity");
    unsigned long cp = 0;
    const bool hex = name[1] == 'x';
    const auto digits = name.substr(hex ? 2 : 1);
    if (digits.empty()) return fail("an empty character reference");
    for (char d : digits) {
      unsigned v = 0;
      if (d >= '0' && d <= '9')
        v = static_cast<unsigned>(d - '0');
      else if (hex && d >= 'a' && d <= 'f')
        v = static_cast<unsigned>(d - 'a' + 10);
      else if (hex && d >= 'A' && d <= 'F')
        v = static_cast<unsigned>(d - 'A' + 10);
      else
        return fail("a bad character reference");
      cp = cp * (hex ? 16 : 10) + v;
      if (cp > 0x10FFFF) return fail("a character reference past U+10FFFF");
    }
    if (!allowed(static_cast<char32_t>(cp))) return fail("a character reference XML forbids");
    i_ = end + 1;
    return true;
  }
  static bool allowed(char32_t cp) {
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
           (cp >= 0x10000 && cp <= 0x10FFFF);
  }
  // Valid UTF-8 holding only characters XML 1.0 allows. Its own decoder, not core/base/text's: a
  // bug there must not hide here.
  bool chars_allowed() {
    for (i_ = 0; i_ < s_.size();) {
      const auto b = static_cast<unsigned char>(s_[i_]);
      std::size_t n = 1;
      char32_t cp = b;
      if (b >= 0x80) {
        if ((b & 0xE0) == 0xC0)
          n = 2, cp = b & 0x1Fu;
        else if ((b & 0xF0) == 0xE0)
          n = 3, cp = b & 0x0Fu;
        else if ((b & 0xF8) == 0xF0)
          n = 4, cp = b & 0x07u;
        else
          return fail("invalid UTF-8");
        if (i_ + n > s_.size()) return fail("truncated UTF-8");
        for (std::size_t k = 1; k < n; ++k) {
          const auto c = static_cast<unsigned char>(s_[i_ + k]);
          if ((c & 0xC0) != 0x80) return fail("invalid UTF-8");
          cp = (cp << 6) | (c & 0x3Fu);
        }
        if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return fail("overlong UTF-8");
      }
      if (!allowed(cp)) return fail("a character XML forbids");
      i_ += n;
    }
    i_ = 0;
    return true;
  }
};

}  // namespace pipesim::test
