// The one place that names output formats and says what each writes. Adding a format: an
// enumerator in format.hpp, one file that defines `<name>_writers()` (a Writer for each output
// it writes) and, if it writes sweeps, `<name>_sweep()`, and one row in kFormats.
#include <fmt/format.h>
#include <array>

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "report/output.hpp"

namespace pipesim {

std::vector<Writer> table_writers();
std::vector<Writer> markdown_writers();
std::vector<Writer> json_writers();
std::vector<Writer> csv_writers();
std::vector<Writer> junit_writers();
std::vector<Writer> github_writers();
std::vector<Writer> toml_writers();
std::unique_ptr<SweepRenderer> table_sweep();
std::unique_ptr<SweepRenderer> markdown_sweep();
std::unique_ptr<SweepRenderer> json_sweep();
std::unique_ptr<SweepRenderer> csv_sweep();

namespace {

struct FormatEntry {
  Format format;
  std::string_view name;
  std::vector<Writer> (*writers)();           // the whole outputs it writes
  std::unique_ptr<SweepRenderer> (*sweep)();  // null: it writes no sweep
};

// In the order help lists them.
constexpr std::array kFormats = {
    FormatEntry{Format::Table, "table", table_writers, table_sweep},
    FormatEntry{Format::Toml, "toml", toml_writers, nullptr},
    FormatEntry{Format::Json, "json", json_writers, json_sweep},
    FormatEntry{Format::Csv, "csv", csv_writers, csv_sweep},
    FormatEntry{Format::Markdown, "markdown", markdown_writers, markdown_sweep},
    FormatEntry{Format::Junit, "junit", junit_writers, nullptr},
    FormatEntry{Format::Github, "github", github_writers, nullptr},
};
constexpr std::string_view kMarkdownAlias = "md";

const FormatEntry& entry(Format f) {
  for (const auto& e : kFormats)
    if (e.format == f) return e;
  throw Error("internal: a format without a row in kFormats");
}

// Each format's writers, made once.
const std::vector<Writer>& writers(Format f) {
  static const std::array<std::vector<Writer>, kFormats.size()> made = [] {
    std::array<std::vector<Writer>, kFormats.size()> out;
    for (std::size_t i = 0; i < kFormats.size(); ++i) out[i] = kFormats[i].writers();
    return out;
  }();
  for (std::size_t i = 0; i < kFormats.size(); ++i)
    if (kFormats[i].format == f) return made[i];
  throw Error("internal: a format without a row in kFormats");
}

const Writer* find_writer(Format f, Output what) {
  for (const Writer& w : writers(f))
    if (w.output == what) return &w;
  return nullptr;
}

bool writes(Format f, Output what) {
  return what == Output::Sweep ? entry(f).sweep != nullptr : find_writer(f, what) != nullptr;
}

}  // namespace

Output output_of(const Report& r) {
  return std::visit([](const auto& x) { return std::decay_t<decltype(x)>::kind; }, r);
}

std::vector<Format> formats_of(Output what) {
  std::vector<Format> out;
  for (const auto& e : kFormats)
    if (writes(e.format, what)) out.push_back(e.format);
  return out;
}

std::string format_names(Output what) {
  const std::vector<Format> formats = formats_of(what);
  std::string out;
  for (std::size_t i = 0; i < formats.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == formats.size() ? " or " : ", ", format_name(formats[i]));
  return out;
}

std::string_view format_name(Format f) { return entry(f).name; }

Format parse_format(std::string_view name, Output what, std::string_view command) {
  const FormatEntry* found = nullptr;
  for (const auto& e : kFormats)
    if (e.name == name) found = &e;
  if (name == kMarkdownAlias) found = &entry(Format::Markdown);
  if (found == nullptr) {
    std::vector<std::string_view> names;
    for (Format f : formats_of(what)) names.push_back(format_name(f));
    throw Error(
        fmt::format("--format: unknown format '{}'{} ({})", echo(name), did_you_mean(name, names), format_names(what)));
  }
  if (!writes(found->format, what))
    throw Error(Origin::argument(fmt::format("--format {}", echo(name))),
                fmt::format("{} writes {}, not {}", command, format_names(what), echo(name)));
  return found->format;
}

std::string render(Format format, const Report& r, std::size_t columns) {
  const Writer* w = find_writer(format, output_of(r));
  if (w == nullptr) throw Error(fmt::format("internal: {} does not write this output", format_name(format)));
  std::string text;
  {
    Out o(text);
    w->write(o, r, columns);
  }
  return text;
}

std::unique_ptr<SweepRenderer> sweep_renderer(Format format) {
  const FormatEntry& e = entry(format);
  if (e.sweep == nullptr) throw Error(fmt::format("internal: {} does not write sweeps", format_name(format)));
  return e.sweep();
}

}  // namespace pipesim
