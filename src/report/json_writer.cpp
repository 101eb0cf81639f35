#include "report/json_writer.hpp"

namespace pipesim {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        else
          out += c;
    }
  }
  out += '"';
  return out;
}

std::string json_number(double v) {
  // Integral values print without a fraction ("256"), others in shortest round-trip form.
  return fmt::format("{}", v);
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& l = levels_.back();
  if (!l.empty) o_.write(l.lines ? ",\n" : ", ");
  else if (l.lines) o_.put('\n');
  l.empty = false;
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

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  o_.write(json_string(k));
  o_.write(": ");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::str(std::string_view v) {
  before_value();
  o_.write(json_string(v));
  return *this;
}

JsonWriter& JsonWriter::num(double v) {
  before_value();
  o_.print("{}", v);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool v) {
  before_value();
  o_.write(v ? "true" : "false");
  return *this;
}

}  // namespace pipesim
