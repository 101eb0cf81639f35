// Errors and exit codes: one error type for "tell the user and exit 2" (bad usage or bad
// input), one for an input error attributable to a field, and the documented exit codes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pipesim {

// Exit codes, as docs/manual/output.md, "Errors and exit codes", documents them.
constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;  // `check`: a requirement failed
constexpr int kExitUsage = 2;        // bad usage or bad input (one line on stderr)
constexpr int kExitInternal = 3;     // a bug: an exception pipesim did not expect
// `check`: no requirement failed, but one or more could not be verified (a stage they rest on is
// not modelled): the plan is incomplete, which CI must tell from hardware that is not enough.
constexpr int kExitCheckUnverified = 4;

// Thrown by a command that ran and wants a non-zero exit code (kExitCheckFailed).
struct ExitCode {
  int code;
};

// What a piece of input came from.
enum class SourceKind : std::uint8_t {
  None,      // nowhere in particular (an error about the whole run)
  File,      // a file the user named (or one a file `use`s)
  Preset,    // an embedded preset: `source` is its file in configs/
  Stdin,     // standard input
  Argument,  // a command-line argument: `source` is its text ("--set a=b")
};

// Where a piece of input came from: a kind of source, its name, and a position in it.
struct Origin {
  SourceKind kind = SourceKind::None;
  std::string source;  // the file's path, the preset's file, "<stdin>", the argument's text
  int line = 0;        // 1-based; 0 when the source has no lines
  int column = 0;

  static Origin file(std::string path, int line = 0, int column = 0) {
    return {SourceKind::File, std::move(path), line, column};
  }
  static Origin preset(std::string path, int line = 0, int column = 0) {
    return {SourceKind::Preset, std::move(path), line, column};
  }
  static Origin standard_input(int line = 0, int column = 0) { return {SourceKind::Stdin, "<stdin>", line, column}; }
  static Origin argument(std::string text) { return {SourceKind::Argument, std::move(text), 0, 0}; }

  // The same source at another position.
  [[nodiscard]] Origin at(int at_line, int at_column) const { return {kind, source, at_line, at_column}; }
  // The same source, without a position.
  [[nodiscard]] Origin whole() const { return {kind, source, 0, 0}; }
  [[nodiscard]] bool empty() const { return kind == SourceKind::None; }
  // The same file, preset, input or argument (positions aside).
  [[nodiscard]] bool same_source(const Origin& o) const { return kind == o.kind && source == o.source; }
  // The source as errors name it: "scenario.toml", "preset:configs/reference.toml", "<stdin>",
  // "--set a=b", or empty.
  [[nodiscard]] std::string label() const;
  // The label with the position: "scenario.toml:3:7".
  [[nodiscard]] std::string str() const;
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
  Error(Origin origin, const std::string& message) : std::runtime_error(message), origin_(std::move(origin)) {}

  [[nodiscard]] const Origin& origin() const { return origin_; }
  // The line shown to the user: "origin: error: message" or "pipesim: error: message"; then one
  // line for each further error (more()), at most kMaxErrorLines in all and then a count.
  [[nodiscard]] std::string line() const;

  // Further errors of the same input, in file order: the loader reports every unknown key and
  // bad value of a file at once.
  [[nodiscard]] const std::vector<Error>& more() const { return more_; }
  void add_more(std::vector<Error> more);
  // The same errors, each message followed by `suffix`.
  [[nodiscard]] Error suffixed(std::string_view suffix) const;

 private:
  [[nodiscard]] std::string one_line() const;
  Origin origin_;
  std::vector<Error> more_;
};

// The most error lines one Error prints; beyond them, a line counts the rest.
constexpr std::size_t kMaxErrorLines = 20;

enum class Field : std::uint8_t;

// An input error attributable to one field, thrown by the model; the loader turns it into an
// Error located where that field was set (with_origins).
class FieldError : public Error {
 public:
  FieldError(Field f, const std::string& message) : Error(message), field_(f) {}
  [[nodiscard]] Field field() const { return field_; }

 private:
  Field field_;
};

}  // namespace pipesim
