// A streaming JSON writer: values are written as they come, separators and nesting are kept
// right by the writer. Numbers in shortest round-trip form; strings escaped.
//
// Why not nlohmann-json: building a DOM per sweep row and dumping it cost 16-20 us per row
// (measured: 200,000 rows of the reference case), against a budget of 2 us for the whole row.
// The tests parse what this writes with nlohmann-json.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "report/out.hpp"

namespace pipesim {

// A JSON number: shortest text that reads back as the same double.
std::string json_number(double v);

// The version of the layout of pipesim's JSON output: raised when a key changes meaning or goes
// (new keys do not raise it). Every JSON document carries it beside "pipesim_version".
constexpr int kJsonSchemaVersion = 1;

class JsonWriter {
 public:
  explicit JsonWriter(Out& o) : o_(o) {}
  // `lines`: each element of this object or array starts on a line of its own.
  JsonWriter& object(bool lines = false) { return open('{', lines); }
  JsonWriter& array(bool lines = false) { return open('[', lines); }
  JsonWriter& end();
  // Keys are pipesim's own names (field keys, stage names, stable result keys): plain ASCII
  // that needs no escaping, written as given. The calls below are the hot path of JSON
  // sweeps (a hundred per row): inline, and a member (separator, key and value) is gathered on
  // the stack and appended in one piece.
  JsonWriter& key(std::string_view k) {
    if (k.size() > kKeyMax) return long_key(k);
    char gathered[kKeyMax + 8];
    const char* end = member(gathered, k);
    o_.append(gathered, static_cast<std::size_t>(end - gathered));
    after_key_ = true;
    return *this;
  }
  JsonWriter& str(std::string_view v);
  JsonWriter& num(double v) {
    char gathered[2 + Out::kNumberMax];
    const char* end = Out::number(v, lead(gathered));
    o_.append(gathered, static_cast<std::size_t>(end - gathered));
    return *this;
  }
  JsonWriter& null() {
    before_value();
    o_.write("null");
    return *this;
  }
  JsonWriter& boolean(bool v) {
    before_value();
    o_.write(v ? "true" : "false");
    return *this;
  }
  // key and value in one call.
  JsonWriter& kv(std::string_view k, double v) {
    if (k.size() > kKeyMax) return long_key(k).num(v);
    char gathered[kKeyMax + 8 + Out::kNumberMax];
    const char* end = Out::number(v, member(gathered, k));
    o_.append(gathered, static_cast<std::size_t>(end - gathered));
    return *this;
  }
  JsonWriter& kv_str(std::string_view k, std::string_view v);
  JsonWriter& kv_bool(std::string_view k, bool v) {
    if (k.size() > kKeyMax) return long_key(k).boolean(v);
    char gathered[kKeyMax + 8 + 5];
    char* end = member(gathered, k);
    const std::string_view word = v ? "true" : "false";
    end = std::copy(word.begin(), word.end(), end);
    o_.append(gathered, static_cast<std::size_t>(end - gathered));
    return *this;
  }
  // A member already written as JSON text (`"key": value`), as one more member of this object.
  JsonWriter& raw_member(std::string_view text) {
    before_value();
    o_.write(text);
    return *this;
  }
  // "pipesim_version" and "schema_version": the first members of every JSON document.
  JsonWriter& stamp();
  // Ends the document with a newline.
  void finish() { o_.put('\n'); }

 private:
  struct Level {
    char close;
    bool lines;
    bool empty = true;
  };
  // The longest key written in one piece (pipesim's are far shorter); longer ones go the slow way.
  static constexpr std::size_t kKeyMax = 96;
  JsonWriter& open(char c, bool lines);
  JsonWriter& long_key(std::string_view k);
  // Writes at p what comes before the next value here (", ", ",\n" or "\n"; nothing after a key
  // or at the top) and returns the end.
  char* lead(char* p) {
    if (after_key_) {
      after_key_ = false;
      return p;
    }
    if (depth_ == 0) return p;
    Level& l = levels_[depth_ - 1];
    if (!l.empty) {
      *p++ = ',';
      *p++ = l.lines ? '\n' : ' ';
    } else if (l.lines) {
      *p++ = '\n';
    }
    l.empty = false;
    return p;
  }
  void before_value() {
    char gathered[2];
    const char* end = lead(gathered);
    if (end != gathered) o_.append(gathered, static_cast<std::size_t>(end - gathered));
  }
  // Writes the lead and `"k": ` at p (room for kKeyMax + 8) and returns the end.
  char* member(char* p, std::string_view k) {
    p = lead(p);
    *p++ = '"';
    p = std::copy(k.begin(), k.end(), p);
    *p++ = '"';
    *p++ = ':';
    *p++ = ' ';
    return p;
  }
  // Deeper than any of pipesim's documents nest; open() throws std::logic_error past it. Inline,
  // because a sweep makes a writer per row, and a vector would allocate for each.
  static constexpr std::size_t kMaxDepth = 16;
  Out& o_;
  std::array<Level, kMaxDepth> levels_{};
  std::size_t depth_ = 0;
  bool after_key_ = false;
};

}  // namespace pipesim
