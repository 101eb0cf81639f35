// Where a command's output goes: one Destinations built from the options, checked before any
// work, and one emit that writes every destination. Commands make a result; emit writes it.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "report/output.hpp"

namespace pipesim {

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

// --plot FILE: `check_plot` refuses a name pipesim cannot write (before
// any work); FILE.svg is the figure (FILE.png and FILE.pdf the same, converted by rsvg-convert),
// FILE.html the report (`plot_is_html`).
void check_plot(const std::string& path, const std::vector<std::string>& inputs);
bool plot_is_html(const std::string& path);
// FILE.png or FILE.pdf: the SVG figure converted by rsvg-convert.
bool converted_plot(const std::string& path);
// Writes `text` whole to `path`, converted to PNG or PDF where its name says so.
void write_plot(const std::string& path, const std::string& text);

struct Destinations {
  Format format = Format::Table;  // what standard output (or -o) gets
  std::string output;             // -o FILE in place of standard output ("" or "-": standard output)
  std::string plot;               // --plot FILE.svg, .png, .pdf (the figure) or .html (the report)
  std::string junit;              // --junit FILE: the result as JUnit XML as well
  std::string trace;              // --trace FILE: Chrome trace-event JSON as well
};

// Refuses, before any work, a destination that cannot be written: one of `inputs`, a plot name
// pipesim cannot write, a folder that is not there, two outputs on one path.
void check_destinations(const Destinations& d, const std::vector<std::string>& inputs);

// A command's figure, made only when --plot asks for it: the SVG, and the HTML report around it
// given the words (the output as the table format prints it).
struct Figure {
  std::function<std::string()> svg;
  std::function<std::string(const std::string& svg, const std::string& words)> page;
};
// What a result has beyond its formats: its figure, and its trace (simulate).
struct Extras {
  Figure figure{};
  std::function<std::string()> trace{};
};

// Writes `r` to every destination: the trace, the plot, the JUnit XML, then the format on
// standard output or -o (the table coloured on a terminal for a diagnosis or a check). Each file
// whole or not at all.
void emit(const Destinations& d, const Report& r, const Extras& extras = {});
// The plot alone, for a result written as it is made (a sweep): `words` as the table prints it.
void emit_plot(const Destinations& d, const Figure& figure, const std::string& words);

}  // namespace pipesim
