// Small text helpers with no dependencies on the model.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace pipesim {

// `s` without the blanks (spaces, tabs, carriage returns) at either end.
std::string_view trim(std::string_view s);

// Levenshtein distance between two strings.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if close enough to be a plausible typo; else empty.
std::string closest(std::string_view word, std::span<const std::string_view> candidates);

// "; did you mean 'x'?" for a suggestion, or "" for none: the one place this text is made.
std::string did_you_mean(std::string_view suggestion);
// The same for the candidate closest to `word` (see closest()).
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

// "; did you mean ...?" for a name: the candidates that start with or contain `word` (letter
// case aside), up to `most` of them with a count of the rest, else the closest by edit distance.
std::string did_you_mean_name(std::string_view word, std::span<const std::string_view> candidates,
                              std::size_t most = 8);

// The code point at s[i] and its length in bytes; length 0 for a byte that does not start a
// valid UTF-8 sequence (overlong forms, surrogates and values past U+10FFFF are invalid).
std::pair<char32_t, std::size_t> decode_utf8(std::string_view s, std::size_t i);

// Text from the user, made safe to show. Each decodes UTF-8; what it cannot show as it is
// (control characters C0, DEL and C1; bidirectional overrides and isolates, which can reorder
// a terminal line; noncharacters; bytes that are not UTF-8) it escapes or replaces.
//
// `text` as valid UTF-8: every invalid byte and every noncharacter becomes U+FFFD. For machine
// output (JSON, CSV, XML), which must parse whatever the input held.
std::string valid_utf8(std::string_view text);
// `text` for a terminal: valid UTF-8 with control characters, bidirectional controls and
// noncharacters escaped ("\x1b", "\u202e") and invalid bytes as "\xff". Nothing it prints can
// move the cursor, recolour or reorder the line.
std::string printable(std::string_view text);
// `text` with no line that a CI runner would read as a workflow command (GitHub Actions takes
// every line of a job's output whose first characters but blanks are "::" for one): the first ':'
// of such a line is written "\x3a", as printable() writes what it cannot show. For every text
// that reaches standard output or standard error, whatever its format: a name that starts a line
// there cannot stop or forge the runner's commands.
std::string no_workflow_commands(std::string text);
// printable(), bounded: at most `max` code points of `text`, then "... (N bytes)". For every
// piece of input an error message repeats.
std::string echo(std::string_view text, std::size_t max = 80);
// Each line of `text` filled to at most `width` columns, broken at spaces only (a word longer
// than the width stays whole on its own line). A column is a code point.
std::string wrap(std::string_view text, std::size_t width);
// As wrap, after `prefix` ("  - ", a label's column) on the first line; every further line is
// indented by the prefix's width, so a bullet or a "key  value" line hangs under its text.
std::string wrap_hanging(std::string_view prefix, std::string_view text, std::size_t width);
// Each line of `text` as a TOML or shell comment: "# " before it and a newline after it (a
// final newline of `text` ends its last line, it starts no empty one).
std::string commented(std::string_view text);

}  // namespace pipesim
