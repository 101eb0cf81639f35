// Options every command shares, and the subcommand registrations. The files in cli/ only wire
// options to the core and a renderer.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "cli/emit.hpp"
#include "config/loader.hpp"

namespace pipesim {

struct CommonOptions {
  std::string scenario;           // file or preset; empty = default
  std::vector<std::string> sets;  // --set KEY=VALUE
  Format format = Format::Table;
};

// Registers [SCENARIO], --set and --format on a subcommand.
void add_common_options(CLI::App& cmd, CommonOptions& o, Output what);
// Registers --format alone: its value is parsed as it is read, against the formats `what` is
// written in (an error names them, and `command`, the subcommand's name when empty); `note`
// follows the list in help, in parentheses, without ": " (completions read the choices after
// the last one). `format` holds the default.
void add_format_option(CLI::App& cmd, Format& format, Output what, std::string_view command = {},
                       std::string_view note = {});

// Loads the scenario and applies --set in order.
LoadedScenario load_with_sets(const CommonOptions& o);

// Help that reads as the user types: value names without CLI11's C++ types ("N", not
// "UINT"; "FORMAT", not "TEXT") and a validator's range in the option's words. Walks every
// subcommand; main calls it once they are built.
void plain_help(CLI::App& app);

// Whole-number options, so that "-1" is refused rather than read as 2^64 - 1: a seed takes
// any 64-bit value, a simulation's steps (--batches) 1 to a billion.
inline const CLI::Validator kSeedRange{[](std::string& in) -> std::string {
                                         const std::string most =
                                             std::to_string(std::numeric_limits<std::uint64_t>::max());
                                         if (in.empty() || in.find_first_not_of("0123456789") != std::string::npos ||
                                             in.size() > most.size() || (in.size() == most.size() && in > most))
                                           return "Value " + in + " not in range 0 to " + most;
                                         return {};
                                       },
                                       "[0 - 18446744073709551615]"};
inline const CLI::Range kStepsRange{std::size_t{1}, std::size_t{1000000000}};

// The check of a --set or --require value: refused, with the form named, when it has no '='
// ("--set pipeline.batch_size 64" is two arguments).
CLI::Validator key_value(std::string_view form, std::string_view example);

// --plot FILE: registers the option (emit.hpp: how the file is checked and written).
void add_plot_option(CLI::App& cmd, std::string& path);

// The fields the user's own files, standard input and --set gave (not a preset's).
std::vector<Field> user_fields(const LoadedScenario& s);
// The scenario's own uses that change nothing (LoadedScenario::shadowed), as unused `use` keys,
// ahead of `keys`.
std::vector<UnusedKey> with_unused_uses(const LoadedScenario& s, std::vector<UnusedKey> keys);
// The labels of the plans named on the command line, one each and all different: a label two
// plans share (a/plan.toml, b/plan.toml) takes more of each path from its end until they differ
// (a/plan, b/plan); one named twice is told apart by its place ("plan (2)").
std::vector<std::string> plan_labels(const std::vector<std::string>& arguments);

void setup_diagnose(CLI::App& app);
void setup_sweep(CLI::App& app);
void setup_presets(CLI::App& app);
void setup_check(CLI::App& app);
void setup_compare(CLI::App& app);
void setup_simulate(CLI::App& app);
void setup_calibrate(CLI::App& app);
void setup_attribute(CLI::App& app);
// An attribute command line in a spelling from before its modes were subcommands ("attribute
// --observed ...", "attribute --log FILE", "attribute --batch ... --full R") rewritten to the
// subcommand it meant; true when it was (the command then notes the new spelling on success).
bool attribute_old_spelling(std::vector<std::string>& args);
void setup_completions(CLI::App& app);
void setup_init(CLI::App& app);

}  // namespace pipesim
