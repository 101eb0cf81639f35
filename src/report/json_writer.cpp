#include "report/json_writer.hpp"

#include <stdexcept>

#include "core/text.hpp"

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

// Writes s as a JSON string literal: runs without escapes in one piece.
void write_json_string(Out& o, std::string_view text) {
  if (plain(text)) {
    o.write_parts("\"", text, "\"");
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
  o.put('"');
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!needs_escape(c)) continue;
    o.write(s.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"':
        o.write("\\\"");
        break;
      case '\\':
        o.write("\\\\");
        break;
      case '\n':
        o.write("\\n");
        break;
      case '\r':
        o.write("\\r");
        break;
      case '\t':
        o.write("\\t");
        break;
      default:
        o.print("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    }
  }
  o.write(s.substr(run));
  o.put('"');
}

}  // namespace

std::string json_number(double v) {
  // Integral values print without a fraction ("256"), others in shortest round-trip form.
  return fmt::format("{}", v);
}

JsonWriter& JsonWriter::open(char c, bool lines) {
  if (depth_ == kMaxDepth) throw std::logic_error("JsonWriter: nested deeper than kMaxDepth");
  before_value();
  o_.put(c);
  levels_[depth_++] = {c == '{' ? '}' : ']', lines};
  return *this;
}

JsonWriter& JsonWriter::end() {
  const Level l = levels_[--depth_];
  if (l.lines && !l.empty) o_.put('\n');
  o_.put(l.close);
  return *this;
}

JsonWriter& JsonWriter::str(std::string_view v) {
  before_value();
  write_json_string(o_, v);
  return *this;
}

JsonWriter& JsonWriter::kv_str(std::string_view k, std::string_view v) {
  // A short plain value goes out with its key in one piece (a stage's name, a limit, a kind).
  constexpr std::size_t kValueMax = 64;
  if (k.size() > kKeyMax || v.size() > kValueMax || !plain(v)) return key(k).str(v);
  char gathered[kKeyMax + 8 + kValueMax + 2];
  char* end = member(gathered, k);
  *end++ = '"';
  end = std::copy(v.begin(), v.end(), end);
  *end++ = '"';
  o_.append(gathered, static_cast<std::size_t>(end - gathered));
  return *this;
}

JsonWriter& JsonWriter::long_key(std::string_view k) {
  before_value();
  o_.write_parts("\"", k, "\": ");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::stamp() {
  return kv_str("pipesim_version", PIPESIM_VERSION).kv("schema_version", kJsonSchemaVersion);
}

}  // namespace pipesim
