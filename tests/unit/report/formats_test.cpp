#include <doctest/doctest.h>

#include "core/base/error.hpp"
#include "report/renderer.hpp"
#include "report/writers.hpp"

using namespace pipesim;

namespace {

constexpr Output kRendered[] = {Output::Diagnosis, Output::Sweep, Output::Check, Output::Compare, Output::Simulation};

// Whether a writer is there (doctest cannot print a function pointer).
template <class Writer>
bool has(Writer w) {
  return w != nullptr;
}

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
  CHECK(format_names(Output::Calibration) == "toml or json");
  CHECK(format_names(Output::PresetList) == "table, json or markdown");
}

TEST_CASE("a name parses to its format once, against what the command writes") {
  for (Output what : kRendered)
    for (Format f : formats_of(what)) CHECK(parse_format(format_name(f), what, "x") == f);
  CHECK(parse_format("md", Output::Diagnosis, "diagnose") == Format::Markdown);
  CHECK(parse_format("toml", Output::Calibration, "calibrate") == Format::Toml);
  CHECK(parse_error("xml", Output::Diagnosis, "diagnose") ==
        "pipesim: error: --format: unknown format 'xml' (table, json, csv or markdown)");
  CHECK(parse_error("junit", Output::Compare, "compare") ==
        "--format junit: error: compare writes table, json, csv or markdown, not junit");
  CHECK(parse_error("csv", Output::Calibration, "calibrate") ==
        "--format csv: error: calibrate writes toml or json, not csv");
  CHECK(parse_error("Table", Output::Diagnosis, "diagnose") != "accepted");  // names are exact
  CHECK(parse_error("\x1b[31m", Output::Diagnosis, "diagnose").find('\x1b') == std::string::npos);
}

TEST_CASE("every format a command accepts has the renderer it needs") {
  for (Format f : formats_of(Output::Diagnosis)) CHECK(diagnosis_renderer(f, 80) != nullptr);
  for (Format f : formats_of(Output::Sweep)) CHECK(sweep_renderer(f) != nullptr);
  for (Format f : formats_of(Output::Check)) CHECK(check_renderer(f) != nullptr);
  for (Format f : formats_of(Output::Compare)) CHECK(compare_renderer(f) != nullptr);
  for (Format f : formats_of(Output::Simulation)) CHECK(simulation_renderer(f) != nullptr);
  // JUnit and GitHub write a check alone.
  CHECK_THROWS_AS((void)diagnosis_renderer(Format::Junit), Error);
  CHECK_THROWS_AS((void)sweep_renderer(Format::Github), Error);
}

TEST_CASE("every format attribute, calibrate and presets accept has the writers it needs") {
  for (Format f : formats_of(Output::Attribution)) {
    CAPTURE(format_name(f));
    CHECK(has(text_writers(f).attribution));
    CHECK(has(text_writers(f).solution));
    CHECK(has(text_writers(f).step_log) == (f != Format::Toml));  // a log gives figures, not keys
  }
  for (Format f : formats_of(Output::Calibration)) {
    CAPTURE(format_name(f));
    CHECK(has(text_writers(f).decode));
    CHECK(has(text_writers(f).storage));
    CHECK(has(text_writers(f).memory));
  }
  for (Format f : formats_of(Output::PresetList)) {
    CAPTURE(format_name(f));
    CHECK(has(text_writers(f).preset_list));
    CHECK(has(text_writers(f).keys));
    CHECK(has(text_writers(f).preset));
  }
  CHECK_FALSE(has(text_writers(Format::Csv).attribution));
}
