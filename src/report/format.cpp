#include "report/format.hpp"

#include "core/error.hpp"

namespace pipesim {

Format parse_format(std::string_view name) {
  if (name == "table") return Format::Table;
  if (name == "json") return Format::Json;
  if (name == "csv") return Format::Csv;
  if (name == "markdown" || name == "md") return Format::Markdown;
  throw Error(fmt::format("--format: unknown format '{}' (table, json, csv or markdown)", name));
}

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

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string json_number(double v) {
  // Integral values print without a fraction ("256"), others in shortest round-trip form.
  return fmt::format("{}", v);
}

std::string percent(double ratio) { return fmt::format("{:.1f}%", ratio * 100); }

}  // namespace pipesim
