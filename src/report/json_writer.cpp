#include "report/json_writer.hpp"

namespace pipesim {

namespace {

bool needs_escape(char c) { return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20; }

// Appends s as a JSON string literal: runs without escapes in one piece.
template <class Sink>
void append_json_string(Sink&& append, std::string_view s) {
  append(std::string_view("\""));
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!needs_escape(c)) continue;
    append(s.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"':
        append(std::string_view("\\\""));
        break;
      case '\\':
        append(std::string_view("\\\\"));
        break;
      case '\n':
        append(std::string_view("\\n"));
        break;
      case '\r':
        append(std::string_view("\\r"));
        break;
      case '\t':
        append(std::string_view("\\t"));
        break;
      default: {
        const std::string u = fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        append(std::string_view(u));
      }
    }
  }
  append(s.substr(run));
  append(std::string_view("\""));
}

}  // namespace

std::string json_string(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  append_json_string([&](std::string_view part) { out.append(part); }, s);
  return out;
}

std::string json_number(double v) {
  // Integral values print without a fraction ("256"), others in shortest round-trip form.
  return fmt::format("{}", v);
}

JsonWriter& JsonWriter::open(char c, bool lines) {
  before_value();
  o_.put(c);
  levels_.push_back({c == '{' ? '}' : ']', lines});
  return *this;
}

JsonWriter& JsonWriter::end() {
  const Level l = levels_.back();
  levels_.pop_back();
  if (l.lines && !l.empty) o_.put('\n');
  o_.put(l.close);
  return *this;
}

JsonWriter& JsonWriter::str(std::string_view v) {
  before_value();
  append_json_string([&](std::string_view part) { o_.write(part); }, v);
  return *this;
}

}  // namespace pipesim
