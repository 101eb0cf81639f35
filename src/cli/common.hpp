// Options every command shares, and the subcommand registrations.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "report/format.hpp"

namespace pipesim {

struct CommonOptions {
  std::string scenario;           // file or preset; empty = default
  std::vector<std::string> sets;  // --set KEY=VALUE
  std::string format = "table";
};

// Registers [SCENARIO], --set and --format on a subcommand.
void add_common_options(CLI::App& cmd, CommonOptions& o);

// Loads the scenario and applies --set in order.
LoadedScenario load_with_sets(const CommonOptions& o);

// Writes a finished result to stdout in one piece.
void write_stdout(const std::string& text);

void setup_diagnose(CLI::App& app);
void setup_sweep(CLI::App& app);
void setup_presets(CLI::App& app);
void setup_check(CLI::App& app);
void setup_compare(CLI::App& app);

}  // namespace pipesim
