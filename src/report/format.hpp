// Output formats: the enum every command holds once --format is parsed, and what each command
// writes. Names and the choice of a renderer live in formats.cpp alone.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

enum class Format : std::uint8_t { Table, Json, Csv, Markdown, Junit, Github, Toml };

// What a command writes: the five results of the renderers, and three outputs of their own
// (attribute's, calibrate's, presets').
enum class Output : std::uint8_t {
  Diagnosis,
  Sweep,
  Check,
  Compare,
  Simulation,
  Attribution,
  StepLog,
  Calibration,
  PresetList,
};

// The formats `what` is written in, in the order help lists them.
std::vector<Format> formats_of(Output what);
// "table, json, csv or markdown": the formats of `what` for help and errors.
std::string format_names(Output what);
// The name --format takes ("markdown" also answers to "md").
std::string_view format_name(Format f);
// --format's value for a command that writes `what`; throws Error naming the formats it writes.
// `command` names the command in that error ("calibrate writes toml or json, not csv").
Format parse_format(std::string_view name, Output what, std::string_view command);

}  // namespace pipesim
