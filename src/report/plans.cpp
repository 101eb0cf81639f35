#include "report/plans.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>

#include "report/render.hpp"

namespace pipesim {

namespace {

std::string walls_text(unsigned walls) {
  std::string out;
  for (Stage s : kStages)
    if ((walls >> static_cast<unsigned>(s)) & 1u) out += fmt::format("{}{}", out.empty() ? "" : ",", stage_key(s));
  return out;
}

// A requirement's value or threshold for people.
std::string shown(Metric m, double v) {
  switch (m) {
    case Metric::Utilization: return percent(v);
    case Metric::Throughput: return fmt::format("{:.1f} samples/s", v);
    case Metric::EpochTime: return format_human(v, Dim::Duration);
    case Metric::CostPerEpoch: return format_human(v, Dim::Money);
    case Metric::SamplesPerUsd: return fmt::format("{:.0f}", v);
    case Metric::Memory: return format_human(v, Dim::Size);
    case Metric::Walls: break;
  }
  return {};
}

std::string relation(Metric m) {
  switch (m) {
    case Metric::EpochTime:
    case Metric::CostPerEpoch:
    case Metric::Memory: return "<=";
    case Metric::Walls: return "in";
    default: return ">=";
  }
}

struct Line {
  std::string key, reached, required, where;
};

Line line_of(const Outcome& o, bool ranged) {
  const Requirement& req = *o.requirement;
  Line l;
  l.key = std::string(requirement_key(req.metric));
  if (req.metric == Metric::Walls) {
    l.reached = walls_text(o.walls);
    l.required = "in " + walls_text(req.walls);
    if (!o.pass && ranged) l.where = fmt::format("first outside at batch {:.0f}", o.at_batch);
  } else {
    l.reached = shown(req.metric, o.value);
    l.required = fmt::format("{} {}", relation(req.metric), shown(req.metric, req.threshold));
    if (ranged) l.where = fmt::format("worst at batch {:.0f}", o.at_batch);
  }
  return l;
}

std::string verdict(const PlanOutcome& o) {
  if (o.pass) return fmt::format("PASS ({} of {} requirements met)", o.outcomes.size(), o.outcomes.size());
  return fmt::format("FAIL ({} of {} requirements failed)", o.failures, o.outcomes.size());
}

std::string xml_escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters; drop them.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

}  // namespace

std::string plan_label(const std::string& arg) {
  if (arg.empty()) return "reference";
  return std::filesystem::path(arg).stem().string();
}

std::string render_check(const std::vector<PlanReport>& plans, Format format) {
  std::string text;
  Out o(text);
  std::size_t failed = 0;
  for (const auto& p : plans) failed += p.outcome.pass ? 0 : 1;
  if (format == Format::Json) {
    o.print("{{\"pass\": {}, \"plans\": [", failed == 0 ? "true" : "false");
    for (std::size_t i = 0; i < plans.size(); ++i) {
      const auto& p = plans[i];
      o.print("{}\n{{\"plan\": {}, \"name\": {}, \"source\": {}, \"pass\": {}, \"failures\": {}, \"requirements\": [",
              i ? "," : "", json_string(p.label), json_string(p.loaded->name), json_string(p.loaded->source),
              p.outcome.pass ? "true" : "false", p.outcome.failures);
      for (std::size_t j = 0; j < p.outcome.outcomes.size(); ++j) {
        const Outcome& oc = p.outcome.outcomes[j];
        const Requirement& req = *oc.requirement;
        o.print("{}{{\"key\": \"{}\", \"pass\": {}, ", j ? ", " : "", requirement_key(req.metric),
                oc.pass ? "true" : "false");
        if (req.metric == Metric::Walls) {
          const auto list = [](unsigned w) {
            std::string out;
            for (Stage s : kStages)
              if ((w >> static_cast<unsigned>(s)) & 1u) out += fmt::format("{}\"{}\"", out.empty() ? "" : ", ", stage_key(s));
            return "[" + out + "]";
          };
          o.print("\"value\": {}, \"threshold\": {}", list(oc.walls), list(req.walls));
        } else {
          o.print("\"value\": {}, \"threshold\": {}", json_number(oc.value), json_number(req.threshold));
        }
        o.print(", \"at_batch_size\": {}}}", json_number(oc.at_batch));
      }
      o.write("], \"point\": {");
      json_point(o, p.loaded->scenario, p.result, nullptr);
      o.write("}}");
    }
    o.write("\n]}\n");
    return text;
  }
  if (format == Format::Csv) {
    o.write("plan,requirement,pass,value,threshold,at_batch_size\n");
    for (const auto& p : plans)
      for (const auto& oc : p.outcome.outcomes) {
        const Requirement& req = *oc.requirement;
        const bool walls = req.metric == Metric::Walls;
        o.print("{},{},{},{},{},{}\n", csv_field(p.label), requirement_key(req.metric), oc.pass ? "true" : "false",
                walls ? csv_field(walls_text(oc.walls)) : json_number(oc.value),
                walls ? csv_field(walls_text(req.walls)) : json_number(req.threshold), json_number(oc.at_batch));
      }
    return text;
  }
  const bool md = format == Format::Markdown;
  for (const auto& p : plans) {
    const bool ranged = p.loaded->plan.batch_sizes.has_value();
    std::string scope = fmt::format(", at batch {:.0f}", p.loaded->scenario.get(Field::BatchSize));
    if (ranged) {
      const Range& r = *p.loaded->plan.batch_sizes;
      scope = fmt::format(", at every batch size from {:.0f} to {:.0f} ({} points)", r.at(0), r.at(r.size() - 1), r.size());
    }
    o.print("{}{}: {}{}\n", md ? "### " : "", p.label, p.loaded->name, scope);
    if (md) o.write("\n| result | requirement | reached | required | |\n|---|---|---:|---|---|\n");
    std::size_t kw = 0, rw = 0, qw = 0;
    std::vector<Line> lines;
    for (const auto& oc : p.outcome.outcomes) lines.push_back(line_of(oc, ranged));
    for (const auto& l : lines) {
      kw = std::max(kw, l.key.size());
      rw = std::max(rw, l.reached.size());
      qw = std::max(qw, l.required.size());
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto& l = lines[i];
      const char* res = p.outcome.outcomes[i].pass ? "PASS" : "FAIL";
      if (md)
        o.print("| {} | {} | {} | {} | {} |\n", res, l.key, l.reached, l.required, l.where);
      else {
        std::string row = fmt::format("  {}  {:<{}}  {:>{}}  {:<{}}  {}", res, l.key, kw, l.reached, rw, l.required, qw, l.where);
        while (!row.empty() && row.back() == ' ') row.pop_back();
        o.print("{}\n", row);
      }
    }
    o.print("{}verdict: {}\n\n", md ? "\n**" : "  ", verdict(p.outcome) + (md ? "**" : ""));
  }
  if (plans.size() > 1)
    o.print("{} plans: {} passed, {} failed\n", plans.size(), plans.size() - failed, failed);
  return text;
}

std::string render_junit(const std::vector<PlanReport>& plans) {
  std::size_t tests = 0, failures = 0;
  for (const auto& p : plans) {
    tests += p.outcome.outcomes.size();
    failures += p.outcome.failures;
  }
  std::string text;
  Out o(text);
  o.print("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"pipesim check\" tests=\"{}\" failures=\"{}\">\n",
          tests, failures);
  for (const auto& p : plans) {
    const bool ranged = p.loaded->plan.batch_sizes.has_value();
    o.print("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\">\n", xml_escape(p.label), p.outcome.outcomes.size(),
            p.outcome.failures);
    for (const auto& oc : p.outcome.outcomes) {
      const Line l = line_of(oc, ranged);
      o.print("    <testcase classname=\"pipesim.check.{}\" name=\"{}\"", xml_escape(p.label), l.key);
      if (oc.pass) {
        o.write("/>\n");
        continue;
      }
      const std::string msg = fmt::format("{}: reached {}, required {}{}", l.key, l.reached, l.required,
                                          l.where.empty() ? "" : " (" + l.where + ")");
      o.print(">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n", xml_escape(msg),
              xml_escape(fmt::format("{}\nplan: {} ({})", msg, p.loaded->name, p.loaded->source)));
    }
    o.write("  </testsuite>\n");
  }
  o.write("</testsuites>\n");
  return text;
}

namespace {

struct CompareRow {
  std::string name, json_key;
  int best;  // +1 larger is better, -1 smaller is better, 0 no best
  std::function<std::optional<double>(const Result&)> value;
  std::function<std::string(double)> show;
};

}  // namespace

std::string render_compare(const std::vector<PlanReport>& plans, Format format) {
  const std::vector<CompareRow> rows = {
      {"throughput", "throughput_samples_per_s", 1, [](const Result& r) { return std::optional(r.throughput); },
       [](double v) { return fmt::format("{:.1f} samples/s", v); }},
      {"utilization", "utilization", 1, [](const Result& r) { return std::optional(r.utilization); },
       [](double v) { return percent(v); }},
      {"epoch time", "epoch_time_s", -1, [](const Result& r) { return r.epoch_s; },
       [](double v) { return format_human(v, Dim::Duration); }},
      {"cost per hour", "price_per_hour_usd", -1, [](const Result& r) { return r.price_per_hour; },
       [](double v) { return format_human(v, Dim::MoneyRate); }},
      {"cost per epoch", "cost_per_epoch_usd", -1, [](const Result& r) { return r.cost_per_epoch; },
       [](double v) { return format_human(v, Dim::Money); }},
      {"idle cost per epoch", "idle_cost_per_epoch_usd", -1, [](const Result& r) { return r.idle_cost_per_epoch; },
       [](double v) { return format_human(v, Dim::Money); }},
      {"samples per USD", "samples_per_usd", 1, [](const Result& r) { return r.samples_per_usd; },
       [](double v) { return fmt::format("{:.0f}", v); }},
  };
  // The best plan per row, when every plan has a value and they are not all equal.
  std::vector<std::vector<bool>> best(rows.size(), std::vector<bool>(plans.size(), false));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::optional<double> top;
    bool all = true;
    for (const auto& p : plans) {
      const auto v = rows[i].value(p.result);
      if (!v) all = false;
      else if (!top || (rows[i].best > 0 ? *v > *top : *v < *top)) top = v;
    }
    if (!all || plans.size() < 2) continue;
    bool differ = false;
    for (const auto& p : plans) differ |= *rows[i].value(p.result) != *top;
    if (!differ) continue;
    for (std::size_t j = 0; j < plans.size(); ++j) best[i][j] = *rows[i].value(plans[j].result) == *top;
  }

  std::string text;
  Out o(text);
  if (format == Format::Json) {
    o.write("{\"plans\": [");
    for (std::size_t j = 0; j < plans.size(); ++j) {
      o.print("{}\n{{\"plan\": {}, \"name\": {}, \"source\": {}, ", j ? "," : "", json_string(plans[j].label),
              json_string(plans[j].loaded->name), json_string(plans[j].loaded->source));
      json_point(o, plans[j].loaded->scenario, plans[j].result, nullptr);
      o.write("}");
    }
    o.write("\n], \"best\": {");
    bool first = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      std::string names;
      for (std::size_t j = 0; j < plans.size(); ++j)
        if (best[i][j]) names += fmt::format("{}{}", names.empty() ? "" : ", ", json_string(plans[j].label));
      if (names.empty()) continue;
      o.print("{}\"{}\": [{}]", first ? "" : ", ", rows[i].json_key, names);
      first = false;
    }
    o.write("}}\n");
    return text;
  }
  if (format == Format::Csv) {
    o.write("plan,binding");
    for (const auto& r : rows) o.print(",{}", r.json_key);
    o.write("\n");
    for (const auto& p : plans) {
      o.print("{},{}", csv_field(p.label), binding_text(p.result));
      for (const auto& r : rows) {
        const auto v = r.value(p.result);
        o.print(",{}", v ? json_number(*v) : std::string());
      }
      o.write("\n");
    }
    return text;
  }
  const bool md = format == Format::Markdown;
  // cells[row][col]: row 0 is the header, col 0 the metric name.
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head{""};
  for (const auto& p : plans) head.push_back(p.label);
  cells.push_back(head);
  std::vector<std::string> wall{"binding wall"};
  for (const auto& p : plans) wall.push_back(binding_text(p.result));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> row{rows[i].name};
    bool any = false;
    for (std::size_t j = 0; j < plans.size(); ++j) {
      const auto v = rows[i].value(plans[j].result);
      any |= v.has_value();
      row.push_back(v ? rows[i].show(*v) + (best[i][j] ? " *" : "  ") : "-  ");
    }
    if (any) cells.push_back(row);
    if (i == 1) cells.push_back(wall);
  }
  std::vector<std::size_t> width(head.size(), 0);
  for (const auto& row : cells)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  for (std::size_t r = 0; r < cells.size(); ++r) {
    std::string line = md ? "|" : "";
    for (std::size_t c = 0; c < cells[r].size(); ++c) {
      std::string cell = c == 0 ? fmt::format("{:<{}}", cells[r][c], width[c]) : fmt::format("{:>{}}", cells[r][c], width[c]);
      line += md ? " " + cell + " |" : (c ? "  " : "") + cell;
    }
    while (!md && !line.empty() && line.back() == ' ') line.pop_back();
    o.print("{}\n", line);
    if (md && r == 0) {
      o.write("|---|");
      for (std::size_t c = 1; c < cells[r].size(); ++c) o.write("---:|");
      o.write("\n");
    }
  }
  o.print("\n{}* best in its row", md ? "" : "");
  o.write("\n");
  for (const auto& p : plans) o.print("{}{}: {} ({})\n", md ? "- " : "", p.label, p.loaded->name, p.loaded->source);
  return text;
}

}  // namespace pipesim
