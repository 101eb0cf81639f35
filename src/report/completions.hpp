// Shell completion scripts for bash, zsh and fish, written from a description of pipesim's
// command line (cli/completions.cpp takes it from the CLI11 tree itself, with the preset names
// and field keys), so the scripts never go stale. Layout only: what completes is decided by the
// description.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

// What a word after an option, or a positional word, completes to.
enum class Completes : std::uint8_t {
  Nothing,      // a flag (no value), or a value with no candidates (a number, a range)
  Text,         // a value with no candidates
  File,         // any file
  Dir,          // a folder
  Scenario,     // a preset name (also after `+`), a TOML file, `-`
  Preset,       // a preset name
  KeyAssign,    // a field key followed by `=` (--set, --vary)
  Key,          // a field key (--solve)
  Requirement,  // a requirement key followed by `=` (--require)
  Choice,       // one of `choices`
};

struct OptionCompletion {
  std::vector<std::string> names;  // "--format", "-o"
  std::string help;                // its first sentence
  Completes value = Completes::Nothing;
  std::vector<std::string> choices;
  bool repeatable = false;
};

struct CommandCompletion {
  std::string name;  // "" for pipesim itself
  std::string help;
  std::vector<OptionCompletion> options;
  Completes positional = Completes::Nothing;
  std::vector<std::string> positional_choices;
  bool positional_many = false;
  std::vector<CommandCompletion> subcommands;
};

struct CompletionData {
  std::string version;
  CommandCompletion root;
  std::vector<std::string> presets;
  std::vector<std::string> field_keys;
  std::vector<std::string> requirement_keys;
};

// The shells pipesim writes completions for, and the script for one of them ("" when unknown).
std::vector<std::string_view> completion_shells();
std::string completion_script(std::string_view shell, const CompletionData& data);

}  // namespace pipesim
