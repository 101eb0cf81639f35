// The one place that picks an output format by name. Adding a format: a file that defines its
// Renderer and make_<name>_renderer(), one line in kFormats, and the file in CMakeLists.txt.
#include <fmt/format.h>
#include <array>

#include "core/error.hpp"
#include "report/renderer.hpp"

namespace pipesim {

std::unique_ptr<Renderer> make_table_renderer();
std::unique_ptr<Renderer> make_markdown_renderer();
std::unique_ptr<Renderer> make_json_renderer();
std::unique_ptr<Renderer> make_csv_renderer();
std::unique_ptr<Renderer> make_junit_renderer();
std::unique_ptr<Renderer> make_github_renderer();

namespace {

struct FormatEntry {
  std::string_view name;
  std::unique_ptr<Renderer> (*make)();
  bool alias = false;  // not listed in help
};

constexpr std::array kFormats = {
    FormatEntry{"table", make_table_renderer},       FormatEntry{"json", make_json_renderer},
    FormatEntry{"csv", make_csv_renderer},           FormatEntry{"markdown", make_markdown_renderer},
    FormatEntry{"md", make_markdown_renderer, true}, FormatEntry{"junit", make_junit_renderer},
    FormatEntry{"github", make_github_renderer},
};

}  // namespace

std::string format_names(Output what) {
  std::vector<std::string_view> names;
  for (const auto& f : kFormats)
    if (!f.alias && f.make()->renders(what)) names.push_back(f.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == names.size() ? " or " : ", ", names[i]);
  return out;
}

std::unique_ptr<Renderer> make_renderer(std::string_view format, Output what) {
  for (const auto& f : kFormats) {
    if (f.name != format) continue;
    auto r = f.make();
    if (!r->renders(what))
      throw Error(Origin{fmt::format("--format {}", format)},
                  fmt::format("this command writes {}, not {}", format_names(what), format));
    return r;
  }
  throw Error(fmt::format("--format: unknown format '{}' ({})", format, format_names(what)));
}

}  // namespace pipesim
