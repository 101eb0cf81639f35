#include <doctest/doctest.h>

#include <algorithm>

#include "core/base/error.hpp"
#include "report/output.hpp"

using namespace pipesim;

namespace {

constexpr Output kRendered[] = {Output::Diagnosis, Output::Sweep, Output::Check, Output::Compare, Output::Simulation};

std::string parse_error(std::string_view name, Output what, std::string_view command) {
  try {
    (void)parse_format(name, what, command);
  } catch (const Error& e) {
    return e.line();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("each command's formats, in help's order") {
  CHECK(format_names(Output::Diagnosis) == "table, json, csv or markdown");
  CHECK(format_names(Output::Sweep) == "table, json, csv or markdown");
  CHECK(format_names(Output::Check) == "table, json, csv, markdown, junit or github");
  CHECK(format_names(Output::Attribution) == "table, toml or json");
  CHECK(format_names(Output::Solution) == "table, toml or json");
  CHECK(format_names(Output::StepLog) == "table or json");  // a log gives figures, not keys
  for (Output what : {Output::Decode, Output::Storage, Output::Memory, Output::Loop})
    CHECK(format_names(what) == "toml or json");
  CHECK(format_names(Output::PresetList) == "table, json or markdown");
}

TEST_CASE("a name parses to its format once, against what the command writes") {
  for (Output what : kRendered)
    for (Format f : formats_of(what)) CHECK(parse_format(format_name(f), what, "x") == f);
  CHECK(parse_format("md", Output::Diagnosis, "diagnose") == Format::Markdown);
  CHECK(parse_format("toml", Output::Decode, "calibrate") == Format::Toml);
  CHECK(parse_error("xml", Output::Diagnosis, "diagnose") ==
        "pipesim: error: --format: unknown format 'xml' (table, json, csv or markdown)");
  CHECK(parse_error("junit", Output::Compare, "compare") ==
        "--format junit: error: compare writes table, json, csv or markdown, not junit");
  CHECK(parse_error("csv", Output::Loop, "calibrate") == "--format csv: error: calibrate writes toml or json, not csv");
  CHECK(parse_error("Table", Output::Diagnosis, "diagnose") != "accepted");  // names are exact
  CHECK(parse_error("\x1b[31m", Output::Diagnosis, "diagnose").find('\x1b') == std::string::npos);
}

TEST_CASE("every format a command accepts writes what it needs") {
  for (Format f : formats_of(Output::Sweep)) CHECK(sweep_renderer(f) != nullptr);
  CHECK_THROWS_AS((void)sweep_renderer(Format::Github), Error);
  // presets takes one --format for the list, the keys and one preset: each format writes all three.
  CHECK(formats_of(Output::Keys) == formats_of(Output::PresetList));
  CHECK(formats_of(Output::Preset) == formats_of(Output::PresetList));
  // JUnit and GitHub write a check alone.
  for (Format f : {Format::Junit, Format::Github})
    for (int i = 0; i <= static_cast<int>(Output::Preset); ++i) {
      const auto what = static_cast<Output>(i);
      const std::vector<Format> formats = formats_of(what);
      CHECK((std::find(formats.begin(), formats.end(), f) != formats.end()) == (what == Output::Check));
    }
}

TEST_CASE("a result is written in a format that writes it, and refused in one place otherwise") {
  const std::vector<PresetEntry> presets{{"a", "configs/a.toml", "scenario", "one", true}};
  const std::string json = render(Format::Json, PresetListReport{presets});
  CHECK(json.find("\"a\"") != std::string::npos);
  CHECK(output_of(PresetListReport{presets}) == Output::PresetList);
  CHECK_THROWS_AS((void)render(Format::Csv, PresetListReport{presets}), Error);
  CHECK_THROWS_AS((void)render(Format::Toml, KeysReport{""}), Error);
}
