#include "core/base/error.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/base/text.hpp"

namespace pipesim {

std::string Origin::label() const {
  switch (kind) {
    case SourceKind::None:
      return {};
    case SourceKind::Preset:
      return "preset:" + source;
    default:
      return source;
  }
}

std::string Origin::str() const {
  if (kind == SourceKind::None) return {};
  if (line <= 0) return label();
  return fmt::format("{}:{}:{}", label(), line, column);
}

std::string Error::line() const {
  std::string out = one_line();
  // All of them when they fit in kMaxErrorLines lines; otherwise the last line counts the rest.
  const std::size_t shown = more_.size() < kMaxErrorLines ? more_.size() : kMaxErrorLines - 2;
  for (std::size_t i = 0; i < shown; ++i) out += fmt::format("\n{}", more_[i].one_line());
  if (more_.size() > shown)
    out += fmt::format(
        "\n{}", Error(origin_.whole(), fmt::format("{} more errors not shown", more_.size() - shown)).one_line());
  return out;
}

void Error::add_more(std::vector<Error> more) {
  for (auto& e : more) {
    more_.push_back(Error(e.origin_, e.what()));
    for (auto& m : e.more_) more_.push_back(std::move(m));
  }
}

Error Error::suffixed(std::string_view suffix) const {
  Error out(origin_, what() + std::string(suffix));
  for (const auto& m : more_) out.more_.push_back(m.suffixed(suffix));
  return out;
}

std::string Error::one_line() const {
  // The last guard of what reaches a terminal: the message's own echoes of input are bounded
  // where they are made (echo()); here control characters are escaped and the whole line kept
  // to a screenful, whatever a message repeats.
  constexpr std::size_t kMaxLine = 2000;
  const std::string where = origin_.str();
  const std::string text = no_workflow_commands(
      printable(fmt::format("{}: error: {}", where.empty() ? std::string("pipesim") : echo(where, 200), what())));
  if (text.size() <= kMaxLine) return text;
  std::size_t cut = kMaxLine;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a whole code point
  return fmt::format("{}... ({} bytes more)", text.substr(0, cut), text.size() - cut);
}

}  // namespace pipesim
