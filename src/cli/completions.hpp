// The description of pipesim's command line that completion scripts are written from.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "report/completions.hpp"

namespace pipesim {

// The words an option's help lists as its values ("Output format: table, json or csv" gives
// table, json, csv; parenthesised remarks are skipped); empty when it lists none.
std::vector<std::string> help_choices(const std::string& help);
// A command and everything below it, as the completion scripts need it.
CommandCompletion command_completion(const CLI::App& app);
// pipesim's whole command line (built with every subcommand), presets, field and requirement keys.
CompletionData completion_data(const CLI::App& root);

}  // namespace pipesim
