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
#include <cstring>
#include <string>
#include <string_view>

#include "report/out.hpp"

namespace pipesim {

// A JSON number: shortest text that reads back as the same double.
std::string json_number(double v);

// The version of the layout of pipesim's JSON output: raised when a key changes meaning or goes
// (new keys do not raise it). Every JSON document carries it beside "pipesim_version".
constexpr int kJsonSchemaVersion = 1;

// Copies n bytes (a key, a short value) inline rather than by a call to memcpy, whose cost was a
// good part of writing a member: eight bytes at a time, the last eight overlapping, never reading
// past s + n.
inline char* copy_short(char* p, const char* s, std::size_t n) {
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8) std::memcpy(p + i, s + i, 8);
    std::memcpy(p + n - 8, s + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(p, s, 4);
    std::memcpy(p + n - 4, s + n - 4, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) p[i] = s[i];
  }
  return p + n;
}

class JsonWriter {
 public:
  // How the writer hands its text to the Out. Direct: each piece as it is written, so the Out
  // may be written to between the writer's calls. Staged: gathered in a buffer of the writer's
  // own and handed on in blocks (when full, at flush() and when the writer goes): the hot path of
  // a JSON sweep, a hundred pieces a row, where each append to the Out cost more than writing
  // the piece. Nothing else may write to the Out while a staged writer holds text.
  enum class Mode : bool { Direct, Staged };
  explicit JsonWriter(Out& o, Mode mode = Mode::Direct) : o_(o), staged_(mode == Mode::Staged) {}
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  // A staged writer's text goes to the Out here unless flush() sent it (an error from the Out is
  // lost then: call flush() where the text must be whole).
  ~JsonWriter() {
    try {
      flush();
    } catch (...) {
    }
  }
  // Hands what a staged writer holds to the Out (nothing to do when direct).
  void flush() {
    if (cur_ != stage_) o_.append(stage_, static_cast<std::size_t>(cur_ - stage_));
    cur_ = stage_;
  }
  // `lines`: each element of this object or array starts on a line of its own.
  JsonWriter& object(bool lines = false) { return open('{', lines); }
  JsonWriter& array(bool lines = false) { return open('[', lines); }
  JsonWriter& end();
  // Keys are pipesim's own names (field keys, stage names, stable result keys): plain ASCII
  // that needs no escaping, written as given. The calls below are the hot path of JSON
  // sweeps (a hundred per row): inline, and a member (separator, key and value) is written in
  // one piece.
  JsonWriter& key(std::string_view k) {
    if (k.size() > kKeyMax) return long_key(k);
    commit(member(room(kKeyMax + 8), k));
    after_key_ = true;
    return *this;
  }
  JsonWriter& str(std::string_view v);
  JsonWriter& num(double v) {
    commit(Out::number(v, lead(room(2 + Out::kNumberMax))));
    return *this;
  }
  JsonWriter& null() { return word("null"); }
  JsonWriter& boolean(bool v) { return word(v ? "true" : "false"); }
  // key and value in one call.
  JsonWriter& kv(std::string_view k, double v) {
    if (k.size() > kKeyMax) return long_key(k).num(v);
    commit(Out::number(v, member(room(kKeyMax + 8 + Out::kNumberMax), k)));
    return *this;
  }
  JsonWriter& kv_str(std::string_view k, std::string_view v);
  JsonWriter& kv_bool(std::string_view k, bool v) {
    if (k.size() > kKeyMax) return long_key(k).boolean(v);
    char* p = member(room(kKeyMax + 8 + 5), k);
    const std::string_view text = v ? "true" : "false";
    commit(std::copy(text.begin(), text.end(), p));
    return *this;
  }
  // A member already written as JSON text (`"key": value`), as one more member of this object.
  JsonWriter& raw_member(std::string_view text) {
    before_value();
    put(text);
    return *this;
  }
  // "pipesim_version" and "schema_version": the first members of every JSON document.
  JsonWriter& stamp();
  // Ends the document with a newline.
  void finish() { put("\n"); }

 private:
  struct Level {
    char close;
    bool lines;
    bool empty = true;
  };
  // The longest key written in one piece (pipesim's are far shorter); longer ones go the slow way.
  static constexpr std::size_t kKeyMax = 96;
  // A staged writer's buffer (a direct writer gathers each piece there too).
  static constexpr std::size_t kStage = 8192;
  JsonWriter& open(char c, bool lines);
  JsonWriter& long_key(std::string_view k);
  JsonWriter& word(std::string_view w) {
    commit(std::copy(w.begin(), w.end(), lead(room(2 + 5))));
    return *this;
  }
  void write_string(std::string_view text);
  // Where to write a piece of at most n bytes (n <= kStage), ended by commit(end).
  char* room(std::size_t n) {
    if (!staged_) return stage_;
    if (static_cast<std::size_t>(stage_ + kStage - cur_) < n) flush();
    return cur_;
  }
  void commit(char* end) {
    if (staged_)
      cur_ = end;
    else
      o_.append(stage_, static_cast<std::size_t>(end - stage_));
  }
  // Text of any length, in order with the rest.
  void put(std::string_view text) {
    if (text.size() <= kStage / 2) {
      char* p = room(text.size());
      if (!text.empty()) std::memcpy(p, text.data(), text.size());
      commit(p + text.size());
      return;
    }
    flush();
    o_.write(text);
  }
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
  void before_value() { commit(lead(room(2))); }
  // Writes the lead and `"k": ` at p (room for kKeyMax + 8) and returns the end.
  char* member(char* p, std::string_view k) {
    p = lead(p);
    *p++ = '"';
    p = copy_short(p, k.data(), k.size());
    *p++ = '"';
    *p++ = ':';
    *p++ = ' ';
    return p;
  }
  // Deeper than any of pipesim's documents nest; open() throws std::logic_error past it. Inline,
  // because a sweep makes a writer per row, and a vector would allocate for each.
  static constexpr std::size_t kMaxDepth = 16;
  Out& o_;
  bool staged_;
  std::array<Level, kMaxDepth> levels_{};
  std::size_t depth_ = 0;
  bool after_key_ = false;
  char* cur_ = stage_;  // the end of a staged writer's text
  char stage_[kStage];  // left uninitialized: written before it is read
};

}  // namespace pipesim
