#include "core/base/text.hpp"

#include <cctype>

#include <fmt/format.h>
#include <algorithm>
#include <utility>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/units.hpp"

namespace pipesim {

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the optimal-string-alignment table: insertions, deletions, substitutions and
  // swaps of two neighbours ("corse" is one edit from "cores"), each costing one.
  const std::size_t w = b.size() + 1;
  std::vector<std::size_t> cells(3 * w);  // one allocation for the three rows
  std::size_t* before = cells.data();
  std::size_t* prev = before + w;
  std::size_t* row = prev + w;
  for (std::size_t j = 0; j < w; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j < w; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, prev);  // the rows rotate: before <- prev <- row <- (old before)
    std::swap(prev, row);
  }
  return prev[b.size()];
}

std::string closest(std::string_view word, std::span<const std::string_view> candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto c : candidates) {
    // Judged on what follows a shared section ("storage."): "storage.xyz" is not close to
    // "storage.iops" because both start with "storage.".
    std::size_t shared = 0;
    for (std::size_t i = 0; i < std::min(word.size(), c.size()) && word[i] == c[i]; ++i)
      if (word[i] == '.') shared = i + 1;
    const std::string_view w = word.substr(shared), rest = c.substr(shared);
    // A plausible typo: at most a third of the word changed, and at least one edit allowed.
    const std::size_t limit = std::max<std::size_t>(1, w.size() / 3);
    // Lengths further apart than the limit cannot be within it: the work stays bounded by the
    // candidates' lengths, whatever the length of the word.
    const std::size_t gap = w.size() > rest.size() ? w.size() - rest.size() : rest.size() - w.size();
    if (gap > limit) continue;
    const std::size_t d = edit_distance(w, rest);
    if (d > limit) continue;
    if (best.empty() || d < best_distance) {
      best = std::string(c);
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view suggestion) {
  return suggestion.empty() ? std::string() : fmt::format("; did you mean '{}'?", suggestion);
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  return did_you_mean(closest(word, candidates));
}

std::string did_you_mean_name(std::string_view word, std::span<const std::string_view> candidates, std::size_t most) {
  const auto lower = [](std::string_view v) {
    std::string out(v);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string w = lower(word);
  if (w.size() >= 2) {
    // Those that start with the word first, then those that hold it elsewhere.
    std::vector<std::string_view> starts, holds;
    for (std::string_view c : candidates) {
      const std::size_t at = lower(c).find(w);
      if (at == 0)
        starts.push_back(c);
      else if (at != std::string::npos)
        holds.push_back(c);
    }
    starts.insert(starts.end(), holds.begin(), holds.end());
    if (starts.size() == 1) return did_you_mean(starts.front());
    if (starts.size() > 1) {
      std::string list;
      for (std::size_t i = 0; i < starts.size() && i < most; ++i)
        list += fmt::format("{}'{}'", i ? ", " : "", starts[i]);
      if (starts.size() > most) list += fmt::format(" (and {} more)", starts.size() - most);
      return fmt::format("; did you mean one of {}?", list);
    }
  }
  return did_you_mean(word, candidates);
}

std::pair<char32_t, std::size_t> decode_utf8(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return {c, 1};
  std::size_t n = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if ((c & 0xE0) == 0xC0) {
    n = 2, cp = c & 0x1Fu, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, cp = c & 0x0Fu, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, cp = c & 0x07u, min = 0x10000;
  } else {
    return {0, 0};
  }
  if (i + n > s.size()) return {0, 0};
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return {0, 0};
    cp = (cp << 6) | (b(i + k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
  return {cp, n};
}

namespace {

bool noncharacter(char32_t cp) { return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE; }

// Shown escaped on a terminal: C0, DEL, C1, bidirectional controls, the line and paragraph
// separators (which some viewers break a line at), noncharacters.
bool unsafe(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
         cp == 0x200E || cp == 0x200F || cp == 0x061C || cp == 0x2028 || cp == 0x2029 || noncharacter(cp);
}

bool all_plain_ascii(std::string_view s) {
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F) return false;
  }
  return true;
}

// Walks `text`, calling keep(bytes) for what shows as it is and bad(code point, bytes, valid)
// for the rest; stops (returning false) once `max` code points were passed on.
template <class Keep, class Bad>
bool walk(std::string_view text, std::size_t max, Keep&& keep, Bad&& bad) {
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size(); ++shown) {
    if (shown == max) return false;
    const auto [cp, n] = decode_utf8(text, i);
    if (n == 0) {
      bad(char32_t{0}, text.substr(i, 1), false);
      ++i;
      continue;
    }
    if (unsafe(cp))
      bad(cp, text.substr(i, n), true);
    else
      keep(text.substr(i, n));
    i += n;
  }
  return true;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  if (all_plain_ascii(text)) return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto [cp, n] = decode_utf8(text, i);
    if (n == 0 || noncharacter(cp)) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      i += n == 0 ? 1 : n;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

namespace {

// Where `line` starts once the blanks a runner trims before it looks for "::" are skipped: ASCII
// blanks and controls and every Unicode space (.NET's Char.IsWhiteSpace, which the runner uses).
std::size_t after_blanks(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size()) {
    const auto [cp, n] = decode_utf8(line, i);
    const bool blank = (cp >= 0x09 && cp <= 0x0d) || cp == 0x20 || cp == 0x85 || cp == 0xa0 || cp == 0x1680 ||
                       (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f ||
                       cp == 0x3000;
    if (n == 0 || !blank) break;
    i += n;
  }
  return i;
}

}  // namespace

std::string no_workflow_commands(std::string text) {
  if (text.find("::") == std::string::npos) return text;
  std::string out;
  out.reserve(text.size() + 8);
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line(text.data() + at, end - at);
    const std::size_t first = after_blanks(line);
    if (line.substr(first).starts_with("::")) {
      out.append(line.substr(0, first)).append("\\x3a").append(line.substr(first + 1));
    } else {
      out.append(line);
    }
    if (end < text.size()) out.push_back('\n');
    at = end + 1;
  }
  return out;
}

std::string printable(std::string_view text) { return echo(text, std::string_view::npos); }

std::string echo(std::string_view text, std::size_t max) {
  if (text.size() <= max && all_plain_ascii(text)) return std::string(text);
  std::string out;
  const bool whole = walk(
      text, max, [&](std::string_view bytes) { out.append(bytes); },
      [&](char32_t cp, std::string_view bytes, bool valid) {
        if (!valid)
          out += fmt::format("\\x{:02x}", static_cast<unsigned>(static_cast<unsigned char>(bytes[0])));
        else if (cp < 0x100)
          out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
        else
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
      });
  if (!whole) out += fmt::format("... ({} bytes)", text.size());
  return out;
}

namespace {

// Columns a piece of UTF-8 text takes: one per code point (pipesim prints no wide characters).
std::size_t columns(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n)
    i += static_cast<unsigned char>(s[i]) < 0x80 ? 1 : std::max<std::size_t>(1, decode_utf8(s, i).second);
  return n;
}

}  // namespace

std::string wrap(std::string_view text, std::size_t width) { return wrap_hanging("", text, width); }

std::string commented(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    out.append("# ").append(text.substr(at, end - at)).append("\n");
    at = end + 1;
  }
  return out;
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A unit a number is written with ("GB", "samples/s,", "ms)"): the word, less trailing
// punctuation, is a unit parse_quantity knows.
bool is_unit(std::string_view word) {
  while (!word.empty() &&
         (word.back() == ',' || word.back() == ';' || word.back() == ':' || word.back() == ')' || word.back() == '.'))
    word.remove_suffix(1);
  return is_unit_name(word);
}

}  // namespace

std::string wrap_hanging(std::string_view prefix, std::string_view text, std::size_t width) {
  const std::size_t indent = columns(prefix);
  std::string out;
  out.reserve(prefix.size() + text.size() + text.size() / 8);
  bool first_line = true;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (first_line)
      out += prefix;
    else
      out.append(indent, ' ');
    first_line = false;
    std::size_t column = indent;
    bool line_empty = true;
    while (!line.empty()) {
      std::size_t space = line.find(' ');
      // "key = value" stays on one line: the words around an "=" are one.
      while (space != std::string_view::npos && line.substr(space + 1).starts_with("= ") && space > 0) {
        const std::size_t next = line.find(' ', space + 3);
        space = next;
      }
      // A number and its unit stay on one line: "192.9 GB", "1220 samples/s".
      while (space != std::string_view::npos && space > 0 && is_digit(line[space - 1]) &&
             is_unit(line.substr(space + 1, line.find(' ', space + 1) - space - 1)))
        space = line.find(' ', space + 1);
      const std::string_view word = line.substr(0, space);
      line = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
      if (word.empty()) continue;
      const std::size_t w = columns(word);
      if (!line_empty && column + 1 + w > width) {
        out += '\n';
        out.append(indent, ' ');
        column = indent;
        line_empty = true;
      }
      if (!line_empty) {
        out += ' ';
        ++column;
      }
      out += word;
      column += w;
      line_empty = false;
    }
    if (end != std::string_view::npos) out += '\n';
  }
  return out;
}

}  // namespace pipesim
