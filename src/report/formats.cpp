// The one place that names output formats and picks their renderers. Adding a format: an
// enumerator in format.hpp, a file that defines its renderer class and `<name>_renderers()`
// (renderers_of<Class>()), and a row in kFormats. Table and markdown share text_report.cpp.
#include <fmt/format.h>
#include <array>

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "report/renderer.hpp"

namespace pipesim {

FormatRenderers table_renderers();
FormatRenderers markdown_renderers();
FormatRenderers json_renderers();
FormatRenderers csv_renderers();
FormatRenderers junit_renderers();
FormatRenderers github_renderers();

namespace {

struct FormatEntry {
  Format format;
  std::string_view name;
  FormatRenderers (*renderers)();  // null: no renderer (toml: attribute's and calibrate's own)
};

// In the order help lists them.
constexpr std::array kFormats = {
    FormatEntry{Format::Table, "table", table_renderers}, FormatEntry{Format::Json, "json", json_renderers},
    FormatEntry{Format::Csv, "csv", csv_renderers},       FormatEntry{Format::Markdown, "markdown", markdown_renderers},
    FormatEntry{Format::Junit, "junit", junit_renderers}, FormatEntry{Format::Github, "github", github_renderers},
    FormatEntry{Format::Toml, "toml", nullptr},
};
constexpr std::string_view kMarkdownAlias = "md";

const FormatEntry& entry(Format f) {
  for (const auto& e : kFormats)
    if (e.format == f) return e;
  throw Error("internal: a format without a row in kFormats");
}

FormatRenderers renderers(Format f) {
  const FormatEntry& e = entry(f);
  return e.renderers == nullptr ? FormatRenderers{} : e.renderers();
}

// Whether format f writes `what` through a renderer.
bool renders(const FormatRenderers& r, Output what) {
  switch (what) {
    case Output::Diagnosis:
      return r.diagnosis != nullptr;
    case Output::Sweep:
      return r.sweep != nullptr;
    case Output::Check:
      return r.check != nullptr;
    case Output::Compare:
      return r.compare != nullptr;
    case Output::Simulation:
      return r.simulation != nullptr;
    default:
      return false;
  }
}

// A maker the caller's format must have: parse_format let it through only if it has.
template <class Maker>
Maker need(Maker make, Format f) {
  if (make == nullptr) throw Error(fmt::format("internal: {} has no renderer for this output", format_name(f)));
  return make;
}

}  // namespace

std::vector<Format> formats_of(Output what) {
  switch (what) {
    case Output::Attribution:
      return {Format::Table, Format::Toml, Format::Json};
    case Output::Calibration:
      return {Format::Toml, Format::Json};
    case Output::PresetList:
      return {Format::Table, Format::Markdown, Format::Json};
    default:
      break;
  }
  std::vector<Format> out;
  for (const auto& e : kFormats)
    if (renders(renderers(e.format), what)) out.push_back(e.format);
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
  for (Format f : formats_of(what))
    if (f == found->format) return f;
  throw Error(Origin::argument(fmt::format("--format {}", echo(name))),
              fmt::format("{} writes {}, not {}", command, format_names(what), echo(name)));
}

std::unique_ptr<DiagnosisRenderer> diagnosis_renderer(Format format, std::size_t columns) {
  return need(renderers(format).diagnosis, format)(columns);
}
std::unique_ptr<SweepRenderer> sweep_renderer(Format format) { return need(renderers(format).sweep, format)(); }
std::unique_ptr<CheckRenderer> check_renderer(Format format, std::size_t columns) {
  return need(renderers(format).check, format)(columns);
}
std::unique_ptr<CompareRenderer> compare_renderer(Format format, std::size_t columns) {
  return need(renderers(format).compare, format)(columns);
}
std::unique_ptr<SimulationRenderer> simulation_renderer(Format format) {
  return need(renderers(format).simulation, format)();
}

}  // namespace pipesim
