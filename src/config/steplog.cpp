#include "config/steplog.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "config/input_file.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"

namespace pipesim {

namespace {

// Calls fn(line_text, line_number) for every line.
template <class Fn>
void each_line(std::string_view text, Fn fn) {
  int number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    ++number;
    fn(text.substr(0, end), number);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
  }
}

struct Reader {
  const Origin& doc;
  StepLog log;

  // Checks and keeps one record; `column` points at its data_time.
  void add(double data_time, double time, int line, int column) {
    const Origin at = doc.at(line, column);
    if (!(data_time >= 0 && data_time <= 1e9) || !(time >= 1e-9 && time <= 1e9))
      throw Error(at, fmt::format("data_time {} and time {} must be seconds: data_time 0 to 1e9, time 1e-9 to 1e9",
                                  data_time, time));
    if (data_time > time * (1 + 1e-9))
      throw Error(at, fmt::format("data_time {} is more than time {}: time must be the whole step, data_time "
                                  "included (as mmcv, MMEngine and Lightning log them)",
                                  data_time, time));
    log.records.push_back(StepRecord{data_time, time, line});
  }

  void json_lines(std::string_view text) {
    each_line(text, [&](std::string_view raw, int line) {
      const std::string_view t = trim(raw);
      if (t.empty()) return;
      // Only the line's own object and its plain members are kept: a nested array or object (and
      // a line that is one: "[{},{},...]") is parsed past without being built, so a line costs
      // memory for its members alone, not for every value it holds.
      const auto flat = [](int depth, nlohmann::json::parse_event_t e, nlohmann::json&) {
        using E = nlohmann::json::parse_event_t;
        if (e == E::object_start || e == E::array_start) return depth == 0 && e == E::object_start;
        return true;
      };
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(t, flat);
      } catch (const nlohmann::json::parse_error& e) {
        const auto column = static_cast<int>(e.byte + static_cast<std::size_t>(t.data() - raw.data()));
        throw Error(doc.at(line, std::max(column, 1)), "not a JSON object: each line of a JSON-lines log is one");
      } catch (const nlohmann::json::exception&) {
        // A number beyond a double's range (1e400): the parser names no place for it.
        throw Error(doc.at(line, static_cast<int>(t.data() - raw.data()) + 1),
                    "a number in this JSON line is out of range");
      }
      const auto number = [&](const char* key) -> const nlohmann::json* {
        if (!j.is_object()) return nullptr;
        const auto it = j.find(key);
        return it != j.end() && it->is_number() ? &*it : nullptr;
      };
      const auto mode = j.is_object() ? j.find("mode") : j.end();
      const bool other_mode = j.is_object() && mode != j.end() && mode->is_string() && *mode != "train";
      const nlohmann::json* data_time = number("data_time");
      const nlohmann::json* time = number("time");
      if (other_mode || !data_time || !time) {
        ++log.skipped;
        return;
      }
      add(data_time->get<double>(), time->get<double>(), line, 1);
    });
  }

  // A number at the start of `t`; nullopt when there is none.
  static std::optional<double> leading_number(std::string_view t, std::size_t* used = nullptr) {
    double v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc()) return std::nullopt;
    if (used) *used = static_cast<std::size_t>(end - t.data());
    return v;
  }

  // Calls cell(index, text, column) for each cell of a CSV line, split at commas outside quotes:
  // a quoted cell ("lr, group 0") may hold commas, and "" inside it is a quote (RFC 4180); the
  // cell is what lies between its quotes. Nothing is kept: a line of millions of cells costs no
  // memory for them.
  template <class Cell>
  static void each_cell(std::string_view raw, Cell&& cell) {
    std::size_t start = 0;
    for (std::size_t index = 0;; ++index) {
      std::size_t at = start;
      while (at < raw.size() && (raw[at] == ' ' || raw[at] == '\t')) ++at;
      std::size_t comma = 0;
      std::string_view text;
      if (at < raw.size() && raw[at] == '"') {
        std::size_t close = at + 1;
        while (close < raw.size() && (raw[close] != '"' || (close + 1 < raw.size() && raw[close + 1] == '"')))
          close += raw[close] == '"' ? std::size_t{2} : std::size_t{1};
        comma = raw.find(',', close);
        text = raw.substr(at + 1, std::min(close, raw.size()) - at - 1);
      } else {
        comma = raw.find(',', start);
        text = trim(raw.substr(start, comma == std::string_view::npos ? comma : comma - start));
      }
      cell(index, text, static_cast<int>(start) + 1);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  }

  void csv(std::string_view text) {
    std::optional<std::size_t> data_col, time_col;
    bool header = true;
    each_line(text, [&](std::string_view raw, int line) {
      if (trim(raw).empty()) return;
      if (header) {
        header = false;
        each_cell(raw, [&](std::size_t i, std::string_view name, int) {
          const auto is = [&](std::string_view want) {
            return name == want ||
                   (name.size() > want.size() && name.ends_with(want) && name[name.size() - want.size() - 1] == '/');
          };
          if (!data_col && is("data_time")) data_col = i;
          if (!time_col && is("time")) time_col = i;
        });
        if (!data_col || !time_col)
          throw Error(doc.at(line, 1),
                      fmt::format("the CSV header names no {} column: a per-step log needs data_time and time",
                                  !data_col ? "data_time" : "time"));
        return;
      }
      std::string_view d, t;
      int d_column = 1, t_column = 1;
      each_cell(raw, [&](std::size_t i, std::string_view cell, int column) {
        if (i == *data_col) d = cell, d_column = column;
        if (i == *time_col) t = cell, t_column = column;
      });
      if (d.empty() || t.empty()) {
        ++log.skipped;  // Lightning writes one row per logging call: other metrics' rows are sparse
        return;
      }
      std::size_t used_d = 0;
      std::size_t used_t = 0;
      const auto dv = leading_number(d, &used_d);
      const auto tv = leading_number(t, &used_t);
      if (!dv || used_d != d.size())
        throw Error(doc.at(line, d_column), fmt::format("data_time \"{}\" is not a number of seconds", echo(d)));
      if (!tv || used_t != t.size())
        throw Error(doc.at(line, t_column), fmt::format("time \"{}\" is not a number of seconds", echo(t)));
      add(*dv, *tv, line, d_column);
    });
  }

  // "time: 0.351" where `key` starts a word (not the "time" of "data_time").
  static std::optional<std::pair<double, std::size_t>> labelled(std::string_view line, std::string_view key) {
    std::size_t from = 0;
    while (true) {
      const std::size_t at = line.find(key, from);
      if (at == std::string_view::npos) return std::nullopt;
      const bool word_start = at == 0 || line[at - 1] == ' ' || line[at - 1] == ',' || line[at - 1] == '\t';
      std::string_view rest = line.substr(at + key.size());
      if (word_start && !rest.empty() && rest.front() == ':') {
        rest.remove_prefix(1);
        while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
        if (const auto v = leading_number(rest)) return std::make_pair(*v, at + 1);
      }
      from = at + 1;
    }
  }

  void text_lines(std::string_view text) {
    each_line(text, [&](std::string_view raw, int line) {
      const auto data_time = labelled(raw, "data_time");
      const auto time = labelled(raw, "time");
      if (!data_time || !time) {
        if (!trim(raw).empty()) ++log.skipped;
        return;
      }
      add(data_time->first, time->first, line, static_cast<int>(data_time->second));
    });
  }
};

StepLogFormat detect(std::string_view text) {
  std::string_view first;
  each_line(text, [&](std::string_view raw, int) {
    if (first.empty()) first = trim(raw);
  });
  if (!first.empty() && first.front() == '{') return StepLogFormat::JsonLines;
  if (first.find(',') != std::string_view::npos && first.find(':') == std::string_view::npos &&
      first.find("time") != std::string_view::npos)
    return StepLogFormat::Csv;
  return StepLogFormat::Text;
}

}  // namespace

StepLogFormat parse_step_log_format(std::string_view name) {
  if (name == "auto") return StepLogFormat::Auto;
  if (name == "jsonl") return StepLogFormat::JsonLines;
  if (name == "csv") return StepLogFormat::Csv;
  if (name == "text") return StepLogFormat::Text;
  throw Error(fmt::format("unknown log format \"{}\": auto, jsonl, csv or text", echo(name)));
}

StepLog parse_step_log(std::string_view text, const Origin& doc, StepLogFormat format) {
  if (valid_utf8(text) != text) throw Error(doc, "the log is not UTF-8 text");
  Reader r{doc, {}};
  r.log.format = format == StepLogFormat::Auto ? detect(text) : format;
  switch (r.log.format) {
    case StepLogFormat::JsonLines:
      r.json_lines(text);
      break;
    case StepLogFormat::Csv:
      r.csv(text);
      break;
    case StepLogFormat::Text:
    case StepLogFormat::Auto:
      r.text_lines(text);
      break;
  }
  if (r.log.records.empty())
    throw Error(doc, fmt::format("no record with both data_time and time ({} other record{} skipped)", r.log.skipped,
                                 r.log.skipped == 1 ? "" : "s"));
  return r.log;
}

StepLog read_step_log(const std::string& path, StepLogFormat format) {
  return parse_step_log(
      read_input_file(path, std::size_t{64} << 20, "the log", ": give pipesim a part of it (e.g. tail -n 100000)"),
      Origin::file(path), format);
}

}  // namespace pipesim
