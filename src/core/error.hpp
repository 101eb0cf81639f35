// Errors and exit codes: one error type for "tell the user and exit 2" (bad usage or bad
// input), one for an input error attributable to a field, and the documented exit codes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

// Exit codes, as README.md "Errors and exit codes" documents them.
constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;  // `check`: a requirement failed
constexpr int kExitUsage = 2;        // bad usage or bad input (one line on stderr)
constexpr int kExitInternal = 3;     // a bug: an exception pipesim did not expect

// Thrown by a command that ran and wants a non-zero exit code (kExitCheckFailed).
struct ExitCode {
  int code;
};

// Where a piece of input came from: a file position, a command-line argument,
// or nothing (origin empty).
struct Origin {
  std::string source;  // "scenario.toml", "preset:reference", "--set a=b", or empty
  int line = 0;        // 1-based; 0 when the source has no lines
  int column = 0;

  [[nodiscard]] std::string str() const;  // "file:3:7", "--set a=b", ""
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
