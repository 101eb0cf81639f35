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

#include "config/loader.hpp"
#include "report/renderer.hpp"

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

// Writes a finished result to stdout in one piece; throws Error when it cannot be written.
void write_stdout(const std::string& text);
// As write_stdout, for the `table` format: coloured when colour is wanted on stdout.
void write_table_stdout(const std::string& text, Format format);
// Whether stdout gets colour: never with NO_COLOR set (non-empty); always with CLICOLOR_FORCE
// set and not "0"; otherwise when stdout is a terminal and TERM is not "dumb".
bool colour_wanted();
// The width a diagnosis's prose wraps to: the terminal's (at least 40 columns), or 100 when
// standard output is not a terminal.
std::size_t output_columns();
// Writes `text` to the file `path` whole or not at all (a temporary file beside it, renamed over
// it); a device or pipe is written in place. Throws Error "cannot write PATH: ..." naming `option`.
void write_file(const std::string& path, const std::string& text, std::string_view option);
// Refuses an output path that is one of the input files, or (unless the output is TOML itself)
// that names a TOML file (a plan swallowed as the option's value: `check --junit a.toml b.toml`),
// or that cannot be written: a directory, or a file in a folder that is not there or not writable.
void refuse_input_as_output(const std::string& path, const std::vector<std::string>& inputs, std::string_view option,
                            bool toml_output = false);
// A path made absolute, with its links resolved as far as it exists (it need not exist yet).
std::filesystem::path resolved_path(const std::string& path);
// Two outputs of one run on one path (simulate --trace out.html --plot out.html): the second
// would replace the first. Throws naming the second option.
void refuse_same_output(const std::string& a, std::string_view a_option, const std::string& b,
                        std::string_view b_option);

// --plot FILE: registers the option; `check_plot` refuses a name pipesim cannot write (before
// any work); FILE.svg is the figure (FILE.png and FILE.pdf the same, converted by rsvg-convert),
// FILE.html the report (`plot_is_html`).
void add_plot_option(CLI::App& cmd, std::string& path);
void check_plot(const std::string& path, const std::vector<std::string>& inputs);
bool plot_is_html(const std::string& path);
// FILE.png or FILE.pdf: the SVG figure converted by rsvg-convert.
bool converted_plot(const std::string& path);
// Writes `text` whole to `path`, converted to PNG or PDF where its name says so.
void write_plot(const std::string& path, const std::string& text);
// The one way a command writes its --plot: the figure `svg`, or for FILE.html the report `page()`
// makes around it (made only then). Nothing for an empty path.
template <class Page>
void write_figure(const std::string& path, const std::string& svg, Page page) {
  if (!path.empty()) write_plot(path, plot_is_html(path) ? page() : svg);
}
// The words of an HTML report: the output as the table renderer prints it, which is `text` when
// the format is the table and is rendered again with `render(out)` otherwise.
template <class Render>
std::string table_words(Format format, const std::string& text, Render render) {
  if (format == Format::Table) return text;
  std::string words;
  Out out(words);
  render(out);
  return words;
}

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
