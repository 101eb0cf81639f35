// A strict CSV reader (RFC 4180) for tests and fuzzers: splits text into rows of fields,
// quoted fields holding commas, quotes ("") and newlines; rejects a quote inside a bare field
// and an unclosed quote.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pipesim::test {

class CsvCheck {
 public:
  // True when `text` is CSV whose every row is as wide as the first, ending in a newline.
  bool parse(std::string_view text) {
    rows.clear();
    error.clear();
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, was_quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (quoted) {
        if (c != '"') {
          field += c;
        } else if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
        continue;
      }
      if (c == '"') {
        if (!field.empty() || was_quoted) return fail("a quote inside a bare field", i);
        quoted = was_quoted = true;
      } else if (c == ',') {
        row.push_back(std::move(field));
        field.clear();
        was_quoted = false;
      } else if (c == '\n') {
        if (!field.empty() && field.back() == '\r') field.pop_back();
        row.push_back(std::move(field));
        field.clear();
        was_quoted = false;
        if (!rows.empty() && row.size() != rows.front().size()) return fail("a row of another width", i);
        rows.push_back(std::move(row));
        row.clear();
      } else {
        if (was_quoted) return fail("text after a closing quote", i);
        field += c;
      }
    }
    if (quoted) return fail("an unclosed quote", text.size());
    if (!field.empty() || !row.empty() || was_quoted) return fail("no newline after the last row", text.size());
    if (rows.empty()) return fail("no rows", 0);
    return true;
  }

  std::vector<std::vector<std::string>> rows;
  std::string error;

 private:
  bool fail(const char* why, std::size_t at) {
    error = std::string(why) + " at offset " + std::to_string(at);
    return false;
  }
};

}  // namespace pipesim::test
