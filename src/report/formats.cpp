// The one place that names output formats and picks their renderers and writers. Adding a
// format: an enumerator in format.hpp, a file that defines its renderer class and
// `<name>_renderers()` (renderers_of<Class>()), and a row in kFormats with its writers of whole
// outputs (writers.hpp), if it has any. Table and markdown share text_report.cpp.
#include <fmt/format.h>
#include <array>

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "report/renderer.hpp"
#include "report/writers.hpp"

namespace pipesim {

FormatRenderers table_renderers();
FormatRenderers markdown_renderers();
FormatRenderers json_renderers();
FormatRenderers csv_renderers();
FormatRenderers junit_renderers();
FormatRenderers github_renderers();

namespace {

// One preset in table or markdown: its TOML as it is.
void preset_toml(Out& o, const PresetEntry&, const LoadedScenario&, std::string_view toml) { o.write(toml); }

// The writers of whole outputs, by format.
constexpr TextWriters kTableWriters = {
    .attribution = attribution_table,
    .solution = solution_table,
    .step_log = step_log_table,
    .decode = nullptr,
    .storage = nullptr,
    .memory = nullptr,
    .loop = nullptr,
    .preset_list = [](Out& o, const std::vector<PresetEntry>& presets) { text_presets(o, presets, false); },
    .keys = [](Out& o, std::string_view filter) { text_keys(o, false, filter); },
    .preset = preset_toml,
};
constexpr TextWriters kMarkdownWriters = {
    .attribution = nullptr,
    .solution = nullptr,
    .step_log = nullptr,
    .decode = nullptr,
    .storage = nullptr,
    .memory = nullptr,
    .loop = nullptr,
    .preset_list = [](Out& o, const std::vector<PresetEntry>& presets) { text_presets(o, presets, true); },
    .keys = [](Out& o, std::string_view filter) { text_keys(o, true, filter); },
    .preset = preset_toml,
};
constexpr TextWriters kJsonWriters = {
    .attribution = attribution_json,
    .solution = solution_json,
    .step_log = step_log_json,
    .decode = decode_json,
    .storage = storage_json,
    .memory = memory_json,
    .loop = loop_json,
    .preset_list = json_presets,
    .keys = json_keys,
    .preset = json_preset,
};
constexpr TextWriters kTomlWriters = {
    .attribution = attribution_toml,
    .solution = solution_toml,
    .step_log = nullptr,
    .decode = decode_toml,
    .storage = storage_toml,
    .memory = memory_toml,
    .loop = loop_toml,
    .preset_list = nullptr,
    .keys = nullptr,
    .preset = nullptr,
};
constexpr TextWriters kNoWriters = {};

struct FormatEntry {
  Format format;
  std::string_view name;
  FormatRenderers (*renderers)();  // null: no renderer (toml writes only whole outputs)
  const TextWriters* writers;
};

// In the order help lists them.
constexpr std::array kFormats = {
    FormatEntry{Format::Table, "table", table_renderers, &kTableWriters},
    FormatEntry{Format::Toml, "toml", nullptr, &kTomlWriters},
    FormatEntry{Format::Json, "json", json_renderers, &kJsonWriters},
    FormatEntry{Format::Csv, "csv", csv_renderers, &kNoWriters},
    FormatEntry{Format::Markdown, "markdown", markdown_renderers, &kMarkdownWriters},
    FormatEntry{Format::Junit, "junit", junit_renderers, &kNoWriters},
    FormatEntry{Format::Github, "github", github_renderers, &kNoWriters},
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

// Whether format f writes `what`: through a renderer, or with a writer of the whole output.
bool writes(Format f, Output what) {
  const FormatRenderers r = renderers(f);
  const TextWriters& w = *entry(f).writers;
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
    case Output::Attribution:
      return w.attribution != nullptr;
    case Output::StepLog:
      return w.step_log != nullptr;
    case Output::Calibration:
      return w.decode != nullptr;
    case Output::PresetList:
      return w.preset_list != nullptr;
  }
  return false;
}

// A maker the caller's format must have: parse_format let it through only if it has.
template <class Maker>
Maker need(Maker make, Format f) {
  if (make == nullptr) throw Error(fmt::format("internal: {} has no renderer for this output", format_name(f)));
  return make;
}

}  // namespace

std::vector<Format> formats_of(Output what) {
  std::vector<Format> out;
  for (const auto& e : kFormats)
    if (writes(e.format, what)) out.push_back(e.format);
  return out;
}

const TextWriters& text_writers(Format f) { return *entry(f).writers; }

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
