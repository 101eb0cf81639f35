#include "report/json_writer.hpp"

#include <stdexcept>

#include "core/text.hpp"

namespace pipesim {

namespace {

bool needs_escape(char c) { return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20; }

// Writes s as a JSON string literal: runs without escapes in one piece.
void write_json_string(Out& o, std::string_view text) {
  // One look tells both what the string needs: most (pipesim's own keys and words) are printable
  // ASCII and go out in one append.
  bool ascii = true;
  bool escapes = false;
  for (const char c : text) {
    ascii = ascii && static_cast<unsigned char>(c) < 0x80;
    escapes = escapes || needs_escape(c);
  }
  if (ascii && !escapes) {
    o.write_parts("\"", text, "\"");
    return;
  }
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

JsonWriter& JsonWriter::stamp() {
  return kv_str("pipesim_version", PIPESIM_VERSION).kv("schema_version", kJsonSchemaVersion);
}

}  // namespace pipesim
