// Options every command shares, and the subcommand registrations. The files in cli/ only wire
// options to the core and a renderer.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "report/renderer.hpp"

namespace pipesim {

struct CommonOptions {
  std::string scenario;           // file or preset; empty = default
  std::vector<std::string> sets;  // --set KEY=VALUE
  std::string format = "table";
};

// Registers [SCENARIO], --set and --format on a subcommand.
void add_common_options(CLI::App& cmd, CommonOptions& o, Output what);
// Registers --format alone.
void add_format_option(CLI::App& cmd, std::string& format, Output what);

// Loads the scenario and applies --set in order.
LoadedScenario load_with_sets(const CommonOptions& o);

// Writes a finished result to stdout in one piece.
void write_stdout(const std::string& text);

// The label of a loaded plan: its file stem or preset name.
std::string plan_label(const LoadedScenario& s);

void setup_diagnose(CLI::App& app);
void setup_sweep(CLI::App& app);
void setup_presets(CLI::App& app);
void setup_check(CLI::App& app);
void setup_compare(CLI::App& app);

}  // namespace pipesim
