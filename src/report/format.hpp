// Output formats and outputs: the enum every command holds once --format is parsed, and every
// whole output pipesim writes. Names, and which format writes which output, live in formats.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

enum class Format : std::uint8_t { Table, Json, Csv, Markdown, Junit, Github, Toml };

// Every whole output: one kind of result each (output.hpp holds what each is made from).
enum class Output : std::uint8_t {
  Diagnosis,
  Sweep,
  Check,
  Compare,
  Simulation,
  Attribution,  // attribute caching
  Solution,     // attribute observed
  StepLog,      // attribute log
  Trace,        // attribute trace
  Decode,       // calibrate decode
  Storage,      // calibrate storage
  Memory,       // calibrate memory
  Loop,         // calibrate loop
  PresetList,   // presets
  Keys,         // presets --keys
  Preset,       // presets NAME
};

// The formats `what` is written in, in the order help lists them.
std::vector<Format> formats_of(Output what);
// "table, json, csv or markdown": the formats of `what` for help and errors.
std::string format_names(Output what);
// The name --format takes ("markdown" also answers to "md").
std::string_view format_name(Format f);
// --format's value for a command that writes `what`: the one place a format that does not write
// it is refused, with an Error naming the formats it is written in and `command` ("calibrate
// writes toml or json, not csv").
Format parse_format(std::string_view name, Output what, std::string_view command);

}  // namespace pipesim
