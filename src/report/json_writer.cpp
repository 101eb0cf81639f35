#include "report/json_writer.hpp"

#include <cstring>
#include <stdexcept>

#include "core/base/text.hpp"

namespace pipesim {

namespace {

bool needs_escape(char c) { return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20; }

// Whether text is printable ASCII without a quote or a backslash: written as it is. Most strings
// (pipesim's own keys and words, a recommendation's sentence) are. Every byte is looked at, with
// no early exit: a loop the compiler turns into one over 16 bytes at a time.
bool plain(std::string_view text) {
  unsigned char bad = 0;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    bad |= static_cast<unsigned char>((c < 0x20) | (c >= 0x80) | (c == '"') | (c == '\\'));
  }
  return bad == 0;
}

}  // namespace

std::string json_number(double v) {
  // Integral values print without a fraction ("256"), others in shortest round-trip form.
  return fmt::format("{}", v);
}

JsonWriter& JsonWriter::open(char c, bool lines) {
  if (depth_ == kMaxDepth) throw std::logic_error("JsonWriter: nested deeper than kMaxDepth");
  char* p = lead(room(3));
  *p++ = c;
  commit(p);
  levels_[depth_++] = {c == '{' ? '}' : ']', lines};
  return *this;
}

JsonWriter& JsonWriter::end() {
  const Level l = levels_[--depth_];
  char* p = room(2);
  if (l.lines && !l.empty) *p++ = '\n';
  *p++ = l.close;
  commit(p);
  return *this;
}

// Writes text as a JSON string literal: runs without escapes in one piece.
void JsonWriter::write_string(std::string_view text) {
  if (plain(text) && text.size() + 2 <= kStage / 2) {
    char* p = room(text.size() + 2);
    *p++ = '"';
    if (!text.empty()) std::memcpy(p, text.data(), text.size());
    p += text.size();
    *p++ = '"';
    commit(p);
    return;
  }
  bool ascii = true;
  for (const char c : text) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  // Valid UTF-8 whatever the input held (names and file names come from the user).
  std::string owned;
  std::string_view s = text;
  if (!ascii) {
    owned = valid_utf8(text);
    s = owned;
  }
  put("\"");
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!needs_escape(c)) continue;
    put(s.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"':
        put("\\\"");
        break;
      case '\\':
        put("\\\\");
        break;
      case '\n':
        put("\\n");
        break;
      case '\r':
        put("\\r");
        break;
      case '\t':
        put("\\t");
        break;
      default: {
        char* p = room(6);
        commit(fmt::format_to(p, FMT_COMPILE("\\u{:04x}"), static_cast<unsigned>(static_cast<unsigned char>(c))));
      }
    }
  }
  put(s.substr(run));
  put("\"");
}

JsonWriter& JsonWriter::str(std::string_view v) {
  before_value();
  write_string(v);
  return *this;
}

JsonWriter& JsonWriter::kv_str(std::string_view k, std::string_view v) {
  // A short plain value goes out with its key in one piece (a stage's name, a limit, a kind).
  constexpr std::size_t kValueMax = 64;
  if (k.size() > kKeyMax || v.size() > kValueMax || !plain(v)) return key(k).str(v);
  char* p = member(room(kKeyMax + 8 + kValueMax + 2), k);
  *p++ = '"';
  p = copy_short(p, v.data(), v.size());
  *p++ = '"';
  commit(p);
  return *this;
}

JsonWriter& JsonWriter::long_key(std::string_view k) {
  before_value();
  put("\"");
  put(k);
  put("\": ");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::stamp() {
  return kv_str("pipesim_version", PIPESIM_VERSION).kv("schema_version", kJsonSchemaVersion);
}

}  // namespace pipesim
