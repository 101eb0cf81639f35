#include "report/plot.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>

#include "core/error.hpp"
#include "core/stage.hpp"
#include "core/text.hpp"
#include "report/check_words.hpp"
#include "report/diagnosis_words.hpp"
#include "report/simulation_words.hpp"
#include "report/svg.hpp"
#include "report/words.hpp"
#include "report/xml.hpp"

namespace pipesim {

namespace {

constexpr double kWidth = 760;
constexpr double kLeft = 90;  // room for the y tick labels and title
constexpr double kRight = 30;
constexpr double kPanelHeight = 170;
// Characters of 10 px text in a line across the plot (about 6 px each), and the lines a note
// under a panel may take before the next panel's title.
constexpr std::size_t kNoteChars = 104;
constexpr std::size_t kNoteLines = 2;

struct Unit {
  double divide = 1;
  std::string name;
};

Unit duration_unit(double max) {
  if (max < 1e-3) return {1e-6, "us"};
  if (max < 1) return {1e-3, "ms"};
  return {1, "s"};
}

Unit rate_unit(double max) {
  if (max >= 1e6) return {1e6, "million samples/s"};
  if (max >= 1e4) return {1e3, "thousand samples/s"};
  return {1, "samples/s"};
}

std::string tick_text(double v) { return fmt::format("{:g}", std::fabs(v) < 1e-12 ? 0.0 : v); }

// A panel's frame, y ticks (with gridlines) and title; the x axis is drawn by the caller.
void y_axis(Svg& svg, double top, double height, const Scale& y, const std::vector<double>& ticks, const Unit& unit,
            const std::string& title, double title_gap = 8) {
  svg.text(kLeft, top - title_gap, title, Anchor::Start, 13, "#222222", "font-weight=\"bold\"");
  for (double t : ticks) {
    const double py = y(t);
    svg.line(kLeft, py, kWidth - kRight, py, "#e5e5e5");
    svg.text(kLeft - 6, py + 4, tick_text(t / unit.divide), Anchor::End, 11);
  }
  svg.line(kLeft, top, kLeft, top + height, "#444444");
  svg.line(kLeft, top + height, kWidth - kRight, top + height, "#444444");
  svg.text(16, top + height / 2, unit.name, Anchor::Middle, 11, "#444444",
           fmt::format("transform=\"rotate(-90 16 {:.1f})\"", top + height / 2));
}

// A swept key as a label names it: "batch 32", "workers 8", "sample size 110 KB"; another key by
// its name in its table, in words ("cores 64", "read bandwidth 2 GB/s").
std::string field_short(Field f) {
  switch (f) {
    case Field::BatchSize:
      return "batch";
    case Field::Workers:
      return "workers";
    default:
      break;
  }
  const std::string_view key = spec(f).key;
  std::string out(key.substr(key.find('.') + 1));
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

// A swept key under its axis: what it counts, per what.
std::string axis_title(Field f) {
  switch (f) {
    case Field::BatchSize:
      return "batch size (samples per accelerator)";
    case Field::Workers:
      return "workers per accelerator";
    case Field::SampleSize:
      return "sample size";
    default:
      return std::string(spec(f).key);
  }
}

std::string binding_text(unsigned binding) {
  std::string out;
  for (Stage st : kStages)
    if (binding & stage_bit(st)) out += (out.empty() ? "" : " + ") + std::string(stage_key(st));
  return out.empty() ? "none" : out;
}

// The axis under a panel of horizontal bars: a gridline from `top` to `bottom` at each tick (the
// zero line darker), the baseline with tick marks, and each tick's label under it.
template <class Label>
void bar_axis(Svg& svg, const Scale& x, const std::vector<double>& ticks, double top, double bottom, Label label) {
  for (const double t : ticks) {
    svg.line(x(t), top, x(t), bottom, t == 0 ? "#444444" : "#e5e5e5");
    svg.line(x(t), bottom, x(t), bottom + 4, "#444444");
    svg.text(x(t), bottom + 16, label(t), Anchor::Middle, 11);
  }
  svg.line(x.from, bottom, x.to, bottom, "#444444");
}

// A figure's name as its heading: 16 px, smaller for a long name so that it fits the width (down
// to 10 px; past that it is cut short with "...", the whole name staying the document's title).
void heading(Svg& svg, std::string_view name) {
  constexpr double kAdvance = 0.62;  // DejaVu Sans Bold's mean advance, in em
  const double room = kWidth - 40;
  std::vector<std::size_t> starts;  // where each code point starts
  for (std::size_t i = 0; i < name.size(); i += std::max<std::size_t>(1, decode_utf8(name, i).second))
    starts.push_back(i);
  const std::size_t chars = starts.size();
  const double fit = std::floor(2 * room / (kAdvance * static_cast<double>(std::max<std::size_t>(chars, 1)))) / 2;
  const double size = std::clamp(fit, 10.0, 16.0);
  const auto most = static_cast<std::size_t>(room / (kAdvance * size)) - 3;
  const std::string text = chars > most + 3 ? std::string(name.substr(0, starts[most])) + "..." : std::string(name);
  svg.text(kWidth / 2, 26, text, Anchor::Middle, size, "#222222", "font-weight=\"bold\"");
}

}  // namespace

std::string diagnosis_svg(const LoadedScenario& loaded, const Diagnosis& d) {
  const Result& r = d.result;
  const std::size_t fixes = std::min<std::size_t>(d.fixes.size(), 8);
  const double bars_top = 96;
  const double row = 34;
  const double bars_bottom = bars_top + 4 * row;
  const double fixes_top = bars_bottom + 84;
  const double fixes_bottom = fixes_top + static_cast<double>(fixes) * row;
  const double height = fixes == 0 ? bars_bottom + 50 : fixes_bottom + 62;
  Svg svg(kWidth, height, loaded.name);
  heading(svg, loaded.name);
  svg.text(kWidth / 2, 48,
           fmt::format("utilization {} | step {} | binding: {}", percent(r.utilization),
                       format_human(r.step_s, Dim::Duration), binding_text(r.binding)),
           Anchor::Middle, 12, "#444444");

  // Time per batch by stage, on an axis in time from zero; a stage the scenario does not model
  // has no bar (the step leaves it out), only the words.
  double longest = r.step_s;
  for (Stage st : kStages)
    if (r.stage(st).modelled) longest = std::max(longest, r.stage(st).time_s);
  const double label_width = 170;
  const Scale x{0, longest > 0 ? longest * 1.15 : 1, kLeft + label_width - 60, kWidth - kRight - 120};
  const Unit unit = duration_unit(x.high);
  svg.text(kLeft - 60, bars_top - 20, "Time per batch by stage", Anchor::Start, 13, "#222222", "font-weight=\"bold\"");
  bar_axis(svg, x, nice_ticks(0, x.high, 5), bars_top, bars_bottom,
           [&](double t) { return tick_text(t / unit.divide); });
  svg.text((x.from + x.to) / 2, bars_bottom + 32, fmt::format("time per batch ({})", unit.name), Anchor::Middle, 11,
           "#444444");
  for (std::size_t i = 0; i < kStages.size(); ++i) {
    const Stage st = kStages[i];
    const StageResult& sr = r.stage(st);
    const double y = bars_top + static_cast<double>(i) * row;
    svg.text(x.from - 8, y + 17, stage_name(st), Anchor::End, 12);
    if (!sr.modelled) {
      svg.text(x.from + 8, y + 18, "not modelled (no bar: left out of the step, so it could bind unseen)",
               Anchor::Start, 11, "#777777", "font-style=\"italic\"");
      continue;
    }
    const bool binds = (r.binding & stage_bit(st)) != 0;
    svg.rect(x.from, y + 4, x(sr.time_s) - x.from, 20, binds ? kBinding : kPalette[0]);
    svg.text(x(sr.time_s) + 6, y + 18,
             fmt::format("{}{}", format_human(sr.time_s, Dim::Duration), binds ? "  binding" : ""), Anchor::Start, 11,
             binds ? kBinding : "#222222", binds ? "font-weight=\"bold\"" : "");
  }
  const double step_x = x(r.step_s);
  svg.line(step_x, bars_top - 4, step_x, bars_bottom, "#222222", 1, "5 4");
  svg.text(step_x, bars_top - 8, fmt::format("step {}", format_human(r.step_s, Dim::Duration)), Anchor::Middle, 11);

  // What each fix buys, on a utilization axis from 0 to 100%.
  if (fixes > 0) {
    svg.text(kLeft - 60, fixes_top - 14, "Utilization before -> after each fix", Anchor::Start, 13, "#222222",
             "font-weight=\"bold\"");
    const Scale u{0, 1, x.from, x.to};
    bar_axis(svg, u, {0, 0.25, 0.5, 0.75, 1}, fixes_top, fixes_bottom,
             [](double t) { return fmt::format("{:g}%", t * 100); });
    for (std::size_t i = 0; i < fixes; ++i) {
      const Fix& f = d.fixes[i];
      std::string name(fix_key(f.kind));
      std::replace(name.begin(), name.end(), '_', ' ');
      const double y = fixes_top + static_cast<double>(i) * row;
      svg.text(x.from - 8, y + 17, name, Anchor::End, 12);
      svg.rect(x.from, y + 4, u(r.utilization) - x.from, 9, kGrey);
      svg.rect(x.from, y + 14, u(f.result.utilization) - x.from, 11, kPalette[2]);
      svg.text(u(std::max(r.utilization, f.result.utilization)) + 6, y + 18,
               fmt::format("{} -> {}", percent(r.utilization), percent(f.result.utilization)), Anchor::Start, 11);
    }
    svg.rect(x.from, height - 26, 12, 9, kGrey);
    svg.text(x.from + 16, height - 18, "now", Anchor::Start, 11);
    svg.rect(x.from + 70, height - 26, 12, 11, kPalette[2]);
    svg.text(x.from + 86, height - 18, "with the fix (the model re-run)", Anchor::Start, 11);
  }
  return svg.finish();
}

namespace {

// A binding wall as one of five: the stage's index when one stage binds, 4 when two or more do.
std::size_t wall_index(unsigned binding) {
  std::size_t n = 0, last = 0;
  for (std::size_t i = 0; i < kStages.size(); ++i)
    if (binding & stage_bit(kStages[i])) ++n, last = i;
  return n == 1 ? last : kStages.size();
}

// The colour of a point by its binding wall: one per stage, another for two or more at once.
std::string_view wall_colour(std::size_t wall) {
  constexpr std::string_view kWallColour[] = {kPalette[4], kPalette[0], kPalette[2], kPalette[1], kPalette[3]};
  return kWallColour[std::min<std::size_t>(wall, 4)];
}

// An outer combination in words: "workers 8, sample_size 500 KB".
std::string outer_label(const std::vector<Axis>& axes, const Curve& c) {
  std::string label;
  for (std::size_t a = 0; a + 1 < axes.size() && a < c.outer.size(); ++a)
    label += fmt::format("{}{} {}", label.empty() ? "" : ", ", field_short(axes[a].field),
                         format_compact(c.outer[a], axes[a].range.dim()));
  return label.empty() ? "all points" : label;
}

// The x axis's extent over every curve, and whether it reads better on a log scale: a range that
// multiplies (32..1024 doubling, x4, or a list rising 1.5 times or more at each value) and spans 8
// times or more; steps (1..16:+1) read linear.
struct XExtent {
  double low = 0, high = 1;
  bool log = false;
  std::optional<double> only;  // the one value when the axis has one
};
bool multiplies(const Range& r) {
  if (r.size() < 3 || !(r.at(0) > 0) || r.at(r.size() - 1) / r.at(0) < 8) return false;
  for (std::size_t i = 1; i < r.size(); ++i)
    if (!(r.at(i) >= 1.5 * r.at(i - 1))) return false;
  return true;
}
XExtent x_extent(const Axis& x, const std::vector<Curve>& curves) {
  XExtent e;
  bool first = true;
  for (const Curve& c : curves)
    for (const CurvePoint& p : c.points) {
      e.low = first ? p.x : std::min(e.low, p.x);
      e.high = first ? p.x : std::max(e.high, p.x);
      first = false;
    }
  if (e.high <= e.low) {  // one value: in the middle of the axis
    e.only = e.low;
    const double pad = std::max(0.1 * std::fabs(e.low), 0.5);
    e.low -= pad;
    e.high += pad;
  }
  e.log = multiplies(x.range);
  return e;
}

// The x axis's ticks, at most `most`: on a log axis the swept values themselves (every k-th when
// there are more); on a linear one round numbers, whole ones for a field that takes whole numbers
// (workers 6, 7, 8; never 6.5).
std::vector<double> x_ticks(const Axis& x, const XExtent& e, std::size_t most) {
  std::vector<double> t;
  if (e.only) return {*e.only};
  if (e.log) {
    for (std::size_t i = 0; i < x.range.size(); ++i) t.push_back(x.range.at(i));
  } else {
    for (double v : nice_ticks(e.low, e.high, static_cast<int>(std::min<std::size_t>(most, 6))))
      if (!spec(x.field).integer || v == std::round(v)) t.push_back(v);
  }
  if (t.size() <= most) return t;
  const std::size_t every = (t.size() + most - 1) / most;
  std::vector<double> thinned;
  for (std::size_t i = 0; i < t.size(); i += every) thinned.push_back(t[i]);
  return thinned;
}

// One curve's points as lines on a panel, broken where `value` gives nothing (a gap: the model
// refuses the point, its batch does not fit, or the figure is not there); values below the
// panel's floor lie on it.
template <class Value>
void draw_runs(Svg& svg, const Curve& c, const Scale& xs, const Scale& ys, Value value, std::string_view colour,
               double width, std::string_view dash) {
  std::vector<std::pair<double, double>> run;
  for (const CurvePoint& p : c.points) {
    const std::optional<double> v = value(p);
    if (!v) {
      svg.polyline(run, colour, width, dash);
      run.clear();
      continue;
    }
    run.emplace_back(xs(p.x), ys(std::max(*v, ys.low)));
  }
  svg.polyline(run, colour, width, dash);
}

// A closed-form figure of a drawn point (nullopt for a gap), and a stage's time per batch where
// the stage is modelled.
template <class Figure>
auto closed_form(Figure figure) {
  return [figure](const CurvePoint& p) { return p.drawn() ? std::optional<double>(figure(p)) : std::nullopt; };
}
auto stage_time(Stage st) {
  return [st](const CurvePoint& p) {
    return p.drawn() && (p.modelled & stage_bit(st)) ? std::optional<double>(p.stage_s[static_cast<std::size_t>(st)])
                                                     : std::nullopt;
  };
}

bool simulated(const std::vector<Curve>& curves) {
  for (const Curve& c : curves)
    for (const CurvePoint& p : c.points)
      if (p.simulated_utilization) return true;
  return false;
}

// The note under a sweep's figure when points are left out, and why.
void gaps_note(Svg& svg, double y, const std::vector<Curve>& curves) {
  std::size_t refused = 0, unfit = 0;
  for (const Curve& c : curves)
    for (const CurvePoint& p : c.points) {
      refused += p.valid ? 0 : 1;
      unfit += p.valid && !p.fits ? 1 : 0;
    }
  std::string why;
  if (refused > 0) why = fmt::format("{} point{} the model refuses", refused, refused == 1 ? "" : "s");
  if (unfit > 0)
    why += fmt::format("{}{} point{} whose batch does not fit in the accelerator's memory", why.empty() ? "" : " and ",
                       unfit, unfit == 1 ? "" : "s");
  if (why.empty()) return;
  svg.text(kLeft, y, fmt::format("Left out (gaps in the lines): {}.", why), Anchor::Start, 11, "#777777");
}

std::string point_figures(const Axis& inner, const CurvePoint& p) {
  std::string out = fmt::format("{} {}: utilization {}, throughput {}, binding {}", field_short(inner.field),
                                format_compact(p.x, inner.range.dim()), percent(p.utilization),
                                format_human(p.throughput, Dim::SampleRate), binding_text(p.binding));
  if (p.crossed_from)
    out += fmt::format(" (crossover: {} -> {})", binding_text(*p.crossed_from), binding_text(p.binding));
  if (p.simulated_utilization && p.simulated_throughput)
    out += fmt::format("; simulated: utilization {}, throughput {}", percent(*p.simulated_utilization),
                       format_human(*p.simulated_throughput, Dim::SampleRate));
  return out;
}

// Several curves' names as one: "batch 8 = 16 = 32" (their own values after the first), or their
// full names where several axes differ.
std::string merged_names(const std::vector<Axis>& axes, const std::vector<Curve>& curves,
                         const std::vector<std::size_t>& which) {
  std::string names;
  for (std::size_t i = 0; i < which.size(); ++i) {
    const std::string name = outer_label(axes, curves[which[i]]);
    const std::size_t space = name.rfind(' ');
    names += i == 0 ? name : " = " + (axes.size() == 2 && space != std::string::npos ? name.substr(space + 1) : name);
  }
  return names;
}

// The line that says which curves draw the same line in a panel (the later ones drawn as wider
// stripes under the earlier): "the same at every point, drawn as stripes: batch 64 = 128 = 256".
// `same(a, b)`: curves a and b draw the same line in the panel.
template <class Same>
std::string coinciding_note(const std::vector<Axis>& axes, const std::vector<Curve>& curves, Same same) {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<bool> grouped(curves.size(), false);
  for (std::size_t c = 0; c < curves.size(); ++c) {
    if (grouped[c]) continue;
    std::vector<std::size_t> group{c};
    for (std::size_t d = c + 1; d < curves.size(); ++d)
      if (!grouped[d] && same(curves[c], curves[d])) {
        group.push_back(d);
        grouped[d] = true;
      }
    if (group.size() > 1) groups.push_back(std::move(group));
  }
  if (groups.empty()) return {};
  std::string out = "the same at every point, drawn as stripes: ";
  std::size_t hidden = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    out += (i > 0 ? "; " : "") + merged_names(axes, curves, groups[i]);
    hidden += groups[i].size() - 1;
  }
  // Named while that fits under the panel; counted where it would not.
  if (out.size() > kNoteChars * kNoteLines - 10)
    return fmt::format("{} of the {} curves lie exactly on another (drawn as stripes: hover a point for its curve)",
                       hidden, curves.size());
  return out;
}

// Two curves draw the same line where `value` gives the same at every point (gaps alike).
template <class Value>
bool same_line(const Curve& a, const Curve& b, Value value) {
  if (a.points.size() != b.points.size()) return false;
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    const std::optional<double> u = value(a.points[i]), v = value(b.points[i]);
    if (u.has_value() != v.has_value()) return false;
    if (u && std::fabs(*u - *v) > 1e-9 * std::max(std::fabs(*u), std::fabs(*v))) return false;
  }
  return true;
}

// A crossover of one curve: where its line is drawn, at which value of the swept axis, and the
// walls' change.
struct Crossing {
  double px;
  std::size_t curve;
  double at;
  unsigned from, to;
};

// A crossover as the figure lists it: a numbered badge over its line, and its words in the key
// under the panel. The same change at the same place on several curves is one entry naming them
// ("batch 64 = 128: transform -> compute at workers 20"); a curve that passes through a tie
// (transform -> transform + compute -> compute) is one entry over the two lines.
struct CrossoverEntry {
  double px;
  std::string_view colour;
  std::string text;
};

std::vector<CrossoverEntry> crossover_entries(const std::vector<Axis>& axes, const std::vector<Curve>& curves,
                                              const std::vector<Crossing>& crossings) {
  const Axis& inner = axes.back();
  const auto value = [&](double x) { return format_human(x, inner.range.dim()); };  // four digits
  struct Change {
    double px, at, until;
    std::vector<std::size_t> curves;
    unsigned from, to;
  };
  std::vector<Change> changes;
  for (std::size_t i = 0; i < crossings.size(); ++i) {
    const Crossing& x = crossings[i];
    Change c{x.px, x.at, x.at, {x.curve}, x.from, x.to};
    // Into a tie and out of it on the same curve, next to each other: one change.
    if (i + 1 < crossings.size() && crossings[i + 1].curve == x.curve && crossings[i + 1].from == x.to &&
        std::popcount(x.to) > 1 && (x.to & x.from) != 0 && (x.to & crossings[i + 1].to) != 0) {
      const Crossing& y = crossings[++i];
      c = {(x.px + y.px) / 2, x.at, y.at, {x.curve}, x.from, y.to};
    }
    auto same = std::find_if(changes.begin(), changes.end(), [&](const Change& d) {
      return std::fabs(d.px - c.px) < 1 && d.from == c.from && d.to == c.to && d.until == c.until;
    });
    if (same != changes.end())
      same->curves.push_back(x.curve);
    else
      changes.push_back(std::move(c));
  }
  std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) { return a.px < b.px; });
  std::vector<CrossoverEntry> out;
  for (const Change& c : changes) {
    const std::string names = curves.size() > 1 ? merged_names(axes, curves, c.curves) + ": " : std::string();
    const std::string where =
        c.until == c.at ? fmt::format("at {} {}", field_short(inner.field), value(c.at))
                        : fmt::format("tied from {} {} to {}", field_short(inner.field), value(c.at), value(c.until));
    out.push_back({c.px, c.curves.size() == 1 ? kPalette[c.curves[0]] : std::string_view("#444444"),
                   fmt::format("{}{} -> {} {}", names, binding_text(c.from), binding_text(c.to), where)});
  }
  return out;
}

// The key's layout: two columns when every entry fits one (10 px text, about 6 px a character,
// and the badge), else one; at most kMaxKeyRows rows, the rest counted in a last line.
constexpr std::size_t kMaxKeyRows = 12;
constexpr double kKeyRow = 14;
std::size_t key_columns(const std::vector<CrossoverEntry>& entries, double width) {
  for (const CrossoverEntry& e : entries)
    if (22 + 6.0 * static_cast<double>(e.text.size()) > width / 2) return 1;
  return 2;
}
std::size_t key_rows(const std::vector<CrossoverEntry>& entries, double width) {
  if (entries.empty()) return 0;
  const std::size_t columns = key_columns(entries, width);
  const std::size_t rows = (entries.size() + columns - 1) / columns;
  return rows > kMaxKeyRows ? kMaxKeyRows + 1 : rows;
}

// A numbered badge: white inside, the curve's colour round it, the number in dark text.
void badge(Svg& svg, double x, double y, std::size_t n, std::string_view colour) {
  svg.raw(
      fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"7\" fill=\"#ffffff\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                  x, y, colour));
  svg.text(x, y + 3.5, std::to_string(n), Anchor::Middle, 9, "#222222", "font-weight=\"bold\"");
}

// The badges in the strip over the panel (centred at `y`), each over its line or pushed aside
// (with a leader down to its line) so that none overlaps another; the key's entries under the
// panel from `key_top`, in the order of the badges.
void draw_crossovers(Svg& svg, const std::vector<CrossoverEntry>& entries, double y, double panel_top, double key_top,
                     double left, double right) {
  if (entries.empty()) return;
  const std::size_t columns = key_columns(entries, right - left);
  const std::size_t rows = key_rows(entries, right - left);
  const std::size_t listed = std::min(entries.size(), columns * std::min(rows, kMaxKeyRows));
  constexpr double kStep = 16;  // badges' centres at least this far apart
  std::vector<double> xs(listed);
  for (std::size_t i = 0; i < listed; ++i) xs[i] = std::max(entries[i].px, i == 0 ? left + 8 : xs[i - 1] + kStep);
  for (std::size_t i = listed; i-- > 0;) xs[i] = std::min(xs[i], i + 1 == listed ? right - 8 : xs[i + 1] - kStep);
  for (std::size_t i = 0; i < listed; ++i) {
    if (std::fabs(xs[i] - entries[i].px) > 0.5) svg.line(xs[i], y + 7, entries[i].px, panel_top, "#999999", 1);
    badge(svg, xs[i], y, i + 1, entries[i].colour);
  }
  const double column_width = (right - left) / static_cast<double>(columns);
  const std::size_t per_column = std::min(rows, kMaxKeyRows);
  for (std::size_t i = 0; i < listed; ++i) {
    const double x = left + column_width * static_cast<double>(i / per_column);
    const double ky = key_top + kKeyRow * static_cast<double>(i % per_column);
    badge(svg, x + 7, ky, i + 1, entries[i].colour);
    svg.text(x + 19, ky + 3.5, entries[i].text, Anchor::Start, 10, "#222222");
  }
  if (listed < entries.size())
    svg.text(left, key_top + kKeyRow * static_cast<double>(per_column),
             fmt::format("{} more crossover{} (dotted lines): hover a point for its figures", entries.size() - listed,
                         entries.size() - listed == 1 ? "" : "s"),
             Anchor::Start, 10, "#555555");
}

// Many outer combinations: a grid of small utilization panels on shared axes.
std::string sweep_grid_svg(const LoadedScenario& loaded, const std::vector<Axis>& axes,
                           const std::vector<Curve>& curves) {
  const Axis& inner = axes.back();
  const XExtent e = x_extent(inner, curves);
  constexpr std::size_t kColumns = 4;
  const std::size_t rows = (curves.size() + kColumns - 1) / kColumns;
  const std::size_t title_lines = axes.size() - 1;
  const double gap = 14;
  const double pw = (kWidth - kLeft - kRight - gap * (kColumns - 1)) / kColumns;
  const double ph = 90;
  const double head = 12 * static_cast<double>(title_lines) + 6;
  const double cell = head + ph + 30;
  const bool sim = simulated(curves);
  const double top = sim ? 122 : 104;
  unsigned walls = 0;
  for (const Curve& c : curves)
    for (const CurvePoint& p : c.points)
      if (p.drawn()) walls |= 1u << wall_index(p.binding);
  const double height = top + cell * static_cast<double>(rows) + 40;
  Svg svg(kWidth, height, loaded.name);
  heading(svg, loaded.name);
  svg.text(kWidth / 2, 46,
           fmt::format("pipesim sweep over {}: utilization, a panel per combination of the other axes ({})",
                       axis_title(inner.field), curves.size()),
           Anchor::Middle, 12, "#444444");
  // Legend: the binding walls the points show, and the crossovers' line.
  double lx = kLeft;
  svg.text(lx, 72, "binding wall:", Anchor::Start, 11);
  lx += 80;
  for (std::size_t i = 0; i <= kStages.size(); ++i) {
    if (!(walls & (1u << i))) continue;
    const std::string name = i < kStages.size() ? std::string(stage_key(kStages[i])) : "two at once";
    svg.circle(lx + 5, 68, 4, wall_colour(i));
    svg.text(lx + 13, 72, name, Anchor::Start, 11);
    lx += 30 + 6.5 * static_cast<double>(name.size());
  }
  svg.line(kWidth - kRight - 150, 62, kWidth - kRight - 150, 76, "#222222", 1, "2 2");
  svg.text(kWidth - kRight, 72, "dotted: the wall changes", Anchor::End, 11, "#444444");
  if (sim) {
    svg.line(kLeft, 90, kLeft + 22, 90, "#444444", 1.5, "4 3");
    svg.ring(kLeft + 11, 90, 4, "#444444");
    svg.text(kLeft + 28, 94, "dashed, rings: simulated (--simulate); solid, dots: the model's closed forms",
             Anchor::Start, 11);
  }

  const std::vector<double> yticks = {0, 0.5, 1};
  const std::vector<double> xticks = x_ticks(inner, e, 4);
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const Curve& c = curves[k];
    const double x0 = kLeft + static_cast<double>(k % kColumns) * (pw + gap);
    const double y0 = top + static_cast<double>(k / kColumns) * cell;
    const double ptop = y0 + head;
    // The panel's title: one line per other axis.
    for (std::size_t a = 0; a < title_lines; ++a)
      svg.text(x0, y0 + 10 + 12 * static_cast<double>(a),
               fmt::format("{} {}", field_short(axes[a].field), format_compact(c.outer[a], axes[a].range.dim())),
               Anchor::Start, 10, "#222222", "font-weight=\"bold\"");
    const Scale xs{e.low, e.high, x0 + 8, x0 + pw - 8, e.log};
    const Scale ys{0, 1, ptop + ph, ptop};
    svg.rect(x0, ptop, pw, ph, "#fafafa", "stroke=\"#cccccc\"");
    for (double t : yticks) {
      svg.line(x0, ys(t), x0 + pw, ys(t), "#e5e5e5");
      if (k % kColumns == 0) svg.text(x0 - 4, ys(t) + 4, tick_text(t * 100), Anchor::End, 10);
    }
    for (double t : xticks) {
      svg.line(xs(t), ptop + ph, xs(t), ptop + ph + 3, "#444444");
      svg.text(xs(t), ptop + ph + 13, format_compact(t, inner.range.dim()), Anchor::Middle, 9, "#444444");
    }
    draw_runs(svg, c, xs, ys, closed_form([](const CurvePoint& p) { return p.utilization; }), "#444444", 1.5, "");
    draw_runs(
        svg, c, xs, ys, [](const CurvePoint& p) { return p.simulated_utilization; }, "#444444", 1, "4 3");
    for (const CurvePoint& p : c.points) {
      if (!p.drawn()) continue;
      if (p.crossed_from) svg.line(xs(p.crossed_at), ptop, xs(p.crossed_at), ptop + ph, "#222222", 1, "2 2");
      svg.raw(fmt::format("<g><title>{}</title>", xml_escape(outer_label(axes, c) + ": " + point_figures(inner, p))));
      if (p.simulated_utilization) svg.ring(xs(p.x), ys(*p.simulated_utilization), 4, "#444444");
      svg.circle(xs(p.x), ys(p.utilization), 2.5, wall_colour(wall_index(p.binding)));
      svg.raw("</g>\n");
    }
  }
  svg.text(16, top + cell * static_cast<double>(rows) / 2, "utilization (%)", Anchor::Middle, 11, "#444444",
           fmt::format("transform=\"rotate(-90 16 {:.1f})\"", top + cell * static_cast<double>(rows) / 2));
  svg.text((kLeft + kWidth - kRight) / 2, height - 24,
           fmt::format("{} along each panel{}", axis_title(inner.field), e.log ? " (log scale)" : ""), Anchor::Middle,
           11, "#444444");
  gaps_note(svg, height - 8, curves);
  return svg.finish();
}

}  // namespace

namespace {

void check_panels(std::size_t panels) {
  if (panels > kMaxGridPanels)
    throw Error(
        fmt::format("a figure draws at most {} panels (one per combination of the other axes' values) and "
                    "this sweep has {}: give the other axes fewer values",
                    kMaxGridPanels, panels));
}

}  // namespace

void check_sweep_svg(const std::vector<Axis>& axes) {
  check_plot_points(axes);
  check_panels(grid_size(axes) / axes.back().range.size());
}

std::string sweep_svg(const LoadedScenario& loaded, const std::vector<Axis>& axes, const std::vector<Curve>& curves) {
  check_panels(curves.size());
  if (curves.size() > kMaxPlotCurves) return sweep_grid_svg(loaded, axes, curves);
  const Axis& inner = axes.back();
  const XExtent e = x_extent(inner, curves);
  const bool log_x = e.log;
  const bool sim = simulated(curves);
  double tmax = 0, smax = 0, smin = 0;  // smin: the shortest stage time above zero
  bool zero_stage = false;              // a modelled stage takes no time at some point
  for (const Curve& c : curves)
    for (const CurvePoint& p : c.points) {
      if (!p.drawn()) continue;
      tmax = std::max({tmax, p.throughput, p.simulated_throughput.value_or(0)});
      for (Stage st : kStages) {
        const double v = p.stage_s[static_cast<std::size_t>(st)];
        if (!(p.modelled & stage_bit(st))) continue;
        if (!(v > 0)) {
          zero_stage = true;
          continue;
        }
        smax = std::max(smax, v);
        smin = smin > 0 ? std::min(smin, v) : v;
      }
    }
  // Stage times 30 times apart or more go on a log axis: on a linear one the short stages lie
  // flat on zero. A stage at zero (cached, say) is drawn on the axis's floor.
  const bool log_stages = smin > 0 && smax / smin >= 30;
  // The legend's entries in rows that fit the width (6.5 px per character at 11 px is a
  // generous width for DejaVu Sans); the panels start below its last row, and below the line
  // that tells simulated from closed-form figures when there are simulated ones.
  std::vector<std::pair<double, double>> entry_at;  // (x, y) of each curve's entry
  {
    double lx = kLeft, ly = 68;
    for (const Curve& c : curves) {
      const double w = 40 + 6.5 * static_cast<double>(outer_label(axes, c).size());
      if (lx > kLeft && lx + w > kWidth - kRight) lx = kLeft, ly += 18;
      entry_at.emplace_back(lx, ly);
      lx += w;
    }
  }
  const double legend_bottom = (entry_at.empty() ? 68 : entry_at.back().second) + (sim ? 18 : 0);
  const Scale xs{e.low, e.high, kLeft + 10, kWidth - kRight - 10, log_x};
  // Each panel's curves, and which curves hide others in the utilization panel (its note).
  const auto utilization = closed_form([](const CurvePoint& p) { return p.utilization; });
  const auto throughput = closed_form([](const CurvePoint& p) { return p.throughput; });
  const auto sim_utilization = [](const CurvePoint& p) { return p.simulated_utilization; };
  const auto sim_throughput = [](const CurvePoint& p) { return p.simulated_throughput; };
  const std::string utilization_note = coinciding_note(axes, curves, [&](const Curve& a, const Curve& b) {
    return same_line(a, b, utilization) && same_line(a, b, sim_utilization);
  });
  // The crossovers: numbered badges in a strip over the utilization panel, their key under its
  // axis and note (the panels below move down to make room).
  std::vector<Crossing> crossings;
  for (std::size_t c = 0; c < curves.size(); ++c)
    for (const CurvePoint& p : curves[c].points)
      if (p.drawn() && p.crossed_from)
        crossings.push_back({xs(p.crossed_at), c, p.crossed_at, *p.crossed_from, p.binding});
  const std::vector<CrossoverEntry> entries = crossover_entries(axes, curves, crossings);
  const double strip = entries.empty() ? 0 : 18;
  const auto note_lines = [](const std::string& note) {
    const std::string wrapped = wrap(note, kNoteChars);
    return note.empty()
               ? std::size_t{0}
               : std::min(kNoteLines, static_cast<std::size_t>(std::count(wrapped.begin(), wrapped.end(), '\n')) + 1);
  };
  const double top = 110 + legend_bottom - 68 + strip;
  const double gap = 92;  // the x axis, its title and a note of two lines, clear of the next title
  const double key_top = top + kPanelHeight + 50 + 12 * static_cast<double>(note_lines(utilization_note)) + 6;
  const double key_bottom = key_top + kKeyRow * static_cast<double>(key_rows(entries, kWidth - kLeft - kRight));
  // The next panel's title sits 8 px over it, 13 px tall: the key ends clear of it.
  const double key_extra = entries.empty() ? 0 : std::max(0.0, key_bottom + 28 - (top + kPanelHeight + gap));
  const double height = top + 3 * kPanelHeight + 2 * gap + key_extra + 76;
  Svg svg(kWidth, height, loaded.name);
  heading(svg, loaded.name);
  svg.text(kWidth / 2, 46, fmt::format("pipesim sweep over {}", axis_title(inner.field)), Anchor::Middle, 12,
           "#444444");

  // Legend: one colour per curve, one dash pattern per stage.
  // Dashed ("4 3") means simulated in this figure, so no stage is plainly dashed: storage is
  // dash-dot-dot, transform solid, transfer dotted, compute dash-dot.
  constexpr std::string_view kDash[] = {"10 3 2 3 2 3", "", "2 3", "10 3 2 3"};
  for (std::size_t c = 0; c < curves.size(); ++c) {
    const auto [lx, ly] = entry_at[c];
    svg.line(lx, ly, lx + 22, ly, kPalette[c], 3);
    svg.text(lx + 27, ly + 4, outer_label(axes, curves[c]), Anchor::Start, 11);
  }
  if (sim) {
    svg.line(kLeft, legend_bottom, kLeft + 22, legend_bottom, "#444444", 1.5, "4 3");
    svg.ring(kLeft + 11, legend_bottom, 5, "#444444");
    svg.text(kLeft + 27, legend_bottom + 4,
             "dashed, rings: simulated (--simulate); solid, dots: the model's closed forms", Anchor::Start, 11);
  }

  const auto panel_top = [&](int i) { return top + i * (kPanelHeight + gap) + (i > 0 ? key_extra : 0); };
  const std::vector<double> xticks = x_ticks(inner, e, 12);
  const auto x_axis = [&](double ptop, const std::string& note) {
    const double base = ptop + kPanelHeight;
    for (double t : xticks) {
      svg.line(xs(t), base, xs(t), base + 4, "#444444");
      svg.text(xs(t), base + 16, format_compact(t, inner.range.dim()), Anchor::Middle, 11);
    }
    svg.text((kLeft + kWidth - kRight) / 2, base + 34,
             fmt::format("{}{}", axis_title(inner.field), log_x ? " (log scale)" : ""), Anchor::Middle, 11, "#444444");
    // The note wrapped inside the figure's width, on the lines under the axis's title.
    const std::string wrapped = wrap(note, kNoteChars);
    std::size_t line = 0;
    for (std::string_view rest = wrapped; !rest.empty() && line < kNoteLines; ++line) {
      const std::size_t end = std::min(rest.find('\n'), rest.size());
      svg.text(kLeft, base + 50 + 12 * static_cast<double>(line), rest.substr(0, end), Anchor::Start, 10, "#777777");
      rest.remove_prefix(std::min(end + 1, rest.size()));
    }
  };

  // Panel 1: utilization. Panel 2: throughput. Panel 3: time per batch by stage.
  const Unit pct{0.01, "utilization (%)"};
  const Unit rate = rate_unit(tmax);
  const Unit dur = duration_unit(log_stages ? std::sqrt(smin * smax) : smax);
  const double tops[3] = {panel_top(0), panel_top(1), panel_top(2)};
  const Scale ys[3] = {{0, 1, tops[0] + kPanelHeight, tops[0]},
                       {0, tmax > 0 ? tmax * 1.1 : 1, tops[1] + kPanelHeight, tops[1]},
                       log_stages ? Scale{smin / 1.2, smax * 1.2, tops[2] + kPanelHeight, tops[2], true}
                                  : Scale{0, smax > 0 ? smax * 1.1 : 1, tops[2] + kPanelHeight, tops[2]}};
  y_axis(svg, tops[0], kPanelHeight, ys[0], nice_ticks(0, 1, 5), pct, "Accelerator utilization", 8 + strip);
  // Throughput is every accelerator's together: said where there are several.
  const double accelerators =
      loaded.scenario.opt(Field::AcceleratorCount).value_or(1) * loaded.scenario.opt(Field::Nodes).value_or(1);
  y_axis(svg, tops[1], kPanelHeight, ys[1], nice_ticks(0, ys[1].low + ys[1].high, 5), rate,
         accelerators > 1 ? fmt::format("Throughput (all {} accelerators)", format_compact(accelerators, Dim::Number))
                          : std::string("Throughput"));
  y_axis(svg, tops[2], kPanelHeight, ys[2],
         log_stages ? log_ticks(ys[2].low, ys[2].high) : nice_ticks(0, ys[2].high, 5),
         {dur.divide, "time per batch (" + dur.name + ")"},
         log_stages ? "Time per batch by stage (log)" : "Time per batch by stage");
  if (log_stages && zero_stage)
    svg.text(kWidth - kRight, tops[2] + kPanelHeight - 6, "a stage that takes no time (cached) lies on the floor",
             Anchor::End, 10, "#777777");
  // Each panel's axis, and which curves hide others in it.
  x_axis(tops[0], utilization_note);
  x_axis(tops[1], coinciding_note(axes, curves, [&](const Curve& a, const Curve& b) {
           return same_line(a, b, throughput) && same_line(a, b, sim_throughput);
         }));
  x_axis(tops[2], coinciding_note(axes, curves, [&](const Curve& a, const Curve& b) {
           for (Stage st : kStages)
             if (!same_line(a, b, stage_time(st))) return false;
           return true;
         }));
  // The dash legend, right-aligned on the panel's title line: the stages some point models.
  unsigned modelled = 0;
  for (const Curve& c : curves)
    for (const CurvePoint& p : c.points)
      if (p.drawn()) modelled |= p.modelled;
  double sx = kWidth - kRight;
  for (Stage st : kStages)
    if (modelled & stage_bit(st)) sx -= 40 + 7.0 * static_cast<double>(stage_key(st).size());
  for (Stage st : kStages) {
    if (!(modelled & stage_bit(st))) continue;
    svg.line(sx, tops[2] - 12, sx + 22, tops[2] - 12, "#444444", 2, kDash[static_cast<std::size_t>(st)]);
    svg.text(sx + 26, tops[2] - 8, stage_key(st), Anchor::Start, 11);
    sx += 40 + 7.0 * static_cast<double>(stage_key(st).size());
  }

  for (std::size_t c = 0; c < curves.size(); ++c) {
    const std::string_view colour = kPalette[c];
    const auto draw = [&](int panel, auto value, std::string_view dash, double width = 2) {
      draw_runs(svg, curves[c], xs, ys[panel], value, colour, width, dash);
    };
    // A curve that later ones lie on exactly is drawn wider, by 2.5 px for each of them, so that
    // coinciding curves show as stripes of their colours rather than the last one alone.
    const auto width = [&](auto value) {
      double w = 2;
      for (std::size_t d = c + 1; d < curves.size(); ++d)
        if (same_line(curves[c], curves[d], value)) w += 2.5;
      return w;
    };
    draw(0, utilization, "", width(utilization));
    draw(1, throughput, "", width(throughput));
    draw(0, sim_utilization, "4 3", 1.5);
    draw(1, sim_throughput, "4 3", 1.5);
    // A stage the same on an earlier curve (compute, when only the workers vary) is drawn once.
    for (Stage st : kStages) {
      bool drawn_before = false;
      for (std::size_t d = 0; d < c && !drawn_before; ++d)
        drawn_before = same_line(curves[d], curves[c], stage_time(st));
      if (!drawn_before) draw(2, stage_time(st), kDash[static_cast<std::size_t>(st)]);
    }
    // Each point, with its figures as text (a tooltip in a browser), and the crossovers.
    for (const CurvePoint& p : curves[c].points) {
      if (!p.drawn()) continue;
      svg.raw(fmt::format("<g><title>{}</title>", xml_escape(point_figures(inner, p))));
      if (p.simulated_utilization) svg.ring(xs(p.x), ys[0](*p.simulated_utilization), 5, colour);
      svg.circle(xs(p.x), ys[0](p.utilization), 3, colour);
      svg.raw("</g>\n");
      if (p.simulated_throughput) svg.ring(xs(p.x), ys[1](*p.simulated_throughput), 5, colour);
      if (p.crossed_from) {
        const double px = xs(p.crossed_at);
        svg.line(px, tops[0], px, tops[0] + kPanelHeight, colour, 1, "2 2");
      }
    }
  }
  draw_crossovers(svg, entries, tops[0] - 10, tops[0], key_top, kLeft, kWidth - kRight);
  gaps_note(svg, height - 10, curves);
  return svg.finish();
}

std::string compare_svg(const std::vector<std::string>& labels, const std::vector<CompareRow>& rows,
                        const std::vector<unsigned>& walls) {
  constexpr std::array kShown = {CompareMetric::Throughput, CompareMetric::Utilization, CompareMetric::EpochTime,
                                 CompareMetric::CostPerEpoch};
  std::vector<const CompareRow*> shown;
  for (const CompareRow& r : rows)
    if (r.any && std::find(kShown.begin(), kShown.end(), r.metric) != kShown.end()) shown.push_back(&r);
  const double bar = 20;
  const double panel = 34 + bar * static_cast<double>(labels.size()) + 16;
  const double top = 76;
  const double height = top + panel * static_cast<double>(shown.size()) + 24;
  std::string title = "pipesim compare: ";
  for (std::size_t i = 0; i < labels.size(); ++i) title += (i ? " vs " : "") + labels[i];
  Svg svg(kWidth, height, title);
  heading(svg, title);
  svg.text(kWidth / 2, 46, "* best in its row (shorter is better for epoch time and cost)", Anchor::Middle, 11,
           "#444444");
  // Each bar's figure as written beside it.
  const auto value_label = [&](const CompareRow& row, std::size_t p) {
    const double v = *row.values[p];
    std::string label = compare_value_text(row.metric, v) + (p < row.best.size() && row.best[p] ? "  * best" : "");
    if (row.metric == CompareMetric::Utilization && p < walls.size() && walls[p] != 0)
      label += fmt::format("  ({} binds)", binding_text(walls[p]));
    return label;
  };
  // The bars start right of the longest plan name (one of more than 40 characters is shortened,
  // whole in its tooltip) and end left of the longest figure, so that no text leaves the figure
  // (11 px text: about 6.5 px a character).
  constexpr std::size_t kLongestName = 40;
  std::size_t name_chars = 0, value_chars = 0;
  for (const std::string& l : labels) name_chars = std::max(name_chars, std::min(l.size(), kLongestName));
  for (const CompareRow* row : shown)
    for (std::size_t p = 0; p < labels.size(); ++p)
      if (row->values[p]) value_chars = std::max(value_chars, value_label(*row, p).size());
  const double x0 = std::max(kLeft + 110, 18 + 6.5 * static_cast<double>(name_chars));
  const double x1 = std::max(x0 + 150, kWidth - 10 - 6.5 * static_cast<double>(value_chars) - 6);
  for (std::size_t m = 0; m < shown.size(); ++m) {
    const CompareRow& row = *shown[m];
    const double y0 = top + static_cast<double>(m) * panel;
    svg.text(kLeft - 60, y0 + 12, compare_name(row.metric), Anchor::Start, 13, "#222222", "font-weight=\"bold\"");
    // Utilization on its own axis, 0 to 100%, so that a bar's length is the figure; the other
    // rows scaled to their largest value.
    const bool utilization = row.metric == CompareMetric::Utilization;
    double most = 0;
    for (const auto& v : row.values)
      if (v) most = std::max(most, *v);
    const Scale x{0, utilization ? 1 : most > 0 ? most : 1, x0, x1};
    if (utilization) {
      const double bottom = y0 + 22 + bar * static_cast<double>(labels.size());
      for (const double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
        svg.line(x(t), y0 + 20, x(t), bottom, t == 0 || t == 1 ? "#bbbbbb" : "#e5e5e5");
        svg.text(x(t), bottom + 11, fmt::format("{:g}%", t * 100), Anchor::Middle, 10, "#666666");
      }
    }
    for (std::size_t p = 0; p < labels.size(); ++p) {
      const double y = y0 + 22 + static_cast<double>(p) * bar;
      if (labels[p].size() > kLongestName) {
        svg.raw(fmt::format("<g><title>{}</title>", xml_escape(labels[p])));
        svg.text(x0 - 8, y + 13, labels[p].substr(0, kLongestName - 3) + "...", Anchor::End, 11);
        svg.raw("</g>\n");
      } else {
        svg.text(x0 - 8, y + 13, labels[p], Anchor::End, 11);
      }
      if (!row.values[p]) {
        svg.text(x0 + 4, y + 13, "not known (no price or dataset)", Anchor::Start, 11, "#777777",
                 "font-style=\"italic\"");
        continue;
      }
      const double v = *row.values[p];
      const bool best = p < row.best.size() && row.best[p];
      svg.rect(x0, y + 2, x(v) - x0, bar - 5, kPalette[p % std::size(kPalette)]);
      svg.text(x(v) + 6, y + 13, value_label(row, p), Anchor::Start, 11, "#222222", best ? "font-weight=\"bold\"" : "");
    }
  }
  return svg.finish();
}

namespace {

// One row of the timeline: a track of accelerator 0 (a worker's track per worker).
struct Row {
  Track track;
  std::uint32_t worker;
  [[nodiscard]] std::string label() const {
    return track == Track::Worker ? fmt::format("worker {}", worker) : std::string(track_name(track));
  }
  auto operator<=>(const Row&) const = default;
};

// The order a reader follows a batch in: read, built, decoded, pinned, copied, taken, computed.
constexpr std::array kTrackOrder = {Track::Storage, Track::Worker, Track::Decoder,    Track::PinThread,
                                    Track::Link,    Track::Loop,   Track::Accelerator};

std::string_view phase_colour(Phase p) {
  switch (p) {
    case Phase::Read:
      return kPalette[4];
    case Phase::Build:
      return kPalette[0];
    case Phase::Decode:
      return kPalette[3];
    case Phase::Pin:
      return kPalette[1];
    case Phase::Copy:
      return kPalette[2];
    case Phase::Wait:
      return kBinding;
    case Phase::Receive:
      return kPalette[6];
    case Phase::Compute:
      break;
  }
  return "#555555";
}

constexpr std::array kPhases = {Phase::Read, Phase::Build,   Phase::Decode, Phase::Pin,
                                Phase::Copy, Phase::Receive, Phase::Wait,   Phase::Compute};

// What a batch index means on a track: the step on the loop and the accelerator.
std::string_view batch_word(Track t) { return t == Track::Loop || t == Track::Accelerator ? "step" : "batch"; }

}  // namespace

std::string simulation_svg(const LoadedScenario& loaded, const Simulation& s, std::size_t steps) {
  steps = std::min(steps, kMaxTimelineSteps);
  // The spans drawn: accelerator 0's, of the first `steps` steps (batch i is step i's).
  std::vector<const Span*> shown;
  std::vector<Row> rows;
  std::size_t more_workers = 0;
  double end = 0;
  for (const Span& sp : s.spans) {
    if (sp.rank != 0 || sp.batch >= steps) continue;
    if (sp.track == Track::Worker && sp.worker >= kMaxTimelineWorkers) {
      more_workers = std::max<std::size_t>(more_workers, sp.worker + 1 - kMaxTimelineWorkers);
      continue;
    }
    shown.push_back(&sp);
    end = std::max(end, sp.end_s);
    const Row row{sp.track, sp.track == Track::Worker ? sp.worker : 0};
    if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    const auto rank = [](const Row& r) {
      return std::find(kTrackOrder.begin(), kTrackOrder.end(), r.track) - kTrackOrder.begin();
    };
    return rank(a) != rank(b) ? rank(a) < rank(b) : a.worker < b.worker;
  });
  const WaitHistogram& h = s.wait_histogram;
  std::vector<std::size_t> causes;  // the causes of any wait, largest share first
  for (std::size_t c = 1; c < kCauseCount; ++c)
    if (s.cause_wait[c] > 0) causes.push_back(c);
  std::stable_sort(causes.begin(), causes.end(),
                   [&](std::size_t a, std::size_t b) { return s.cause_wait[a] > s.cause_wait[b]; });

  const double row_h = 18;
  const double tl_top = 96;
  const double tl_height = row_h * static_cast<double>(std::max<std::size_t>(rows.size(), 1));
  const double legend_y = tl_top + tl_height + 56;
  const double hist_top = legend_y + 48;
  const double hist_height = kPanelHeight;
  const double cause_top = hist_top + hist_height + 80;
  const double bar = 20;
  const double height = cause_top + (causes.empty() ? 0 : 30 + bar * static_cast<double>(causes.size())) + 20;
  Svg svg(kWidth, height, loaded.name);
  heading(svg, loaded.name);
  svg.text(kWidth / 2, 46,
           fmt::format("pipesim simulate: utilization {} (analytic {}) | step {} | seed {}", percent(s.utilization),
                       percent(s.analytic.utilization), format_human(s.step_s, Dim::Duration), s.seed),
           Anchor::Middle, 12, "#444444");

  // Panel 1: what each track did in the first steps.
  const std::string ranks =
      s.inputs.accelerators > 1 ? fmt::format(" (accelerator 0 of {}, they step together)", s.inputs.accelerators) : "";
  svg.text(kLeft - 60, tl_top - 14, fmt::format("Timeline of the first {} steps{}", steps, ranks), Anchor::Start, 13,
           "#222222", "font-weight=\"bold\"");
  const Unit tu = duration_unit(end);
  const Scale tx{0, end > 0 ? end : 1, kLeft + 20, kWidth - kRight};
  if (shown.empty())
    svg.text(tx.from, tl_top + 13, "no spans: nothing was traced", Anchor::Start, 11, "#777777",
             "font-style=\"italic\"");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double y = tl_top + static_cast<double>(i) * row_h;
    if (i % 2 == 0) svg.rect(tx.from, y, tx.to - tx.from, row_h, "#f4f4f4");
    svg.text(tx.from - 6, y + 13, rows[i].label(), Anchor::End, 11);
  }
  for (const Span* sp : shown) {
    const Row row{sp->track, sp->track == Track::Worker ? sp->worker : 0};
    const auto i = static_cast<double>(std::find(rows.begin(), rows.end(), row) - rows.begin());
    const std::string tip =
        fmt::format("{}: {} {} {}, {} to {}", row.label(), phase_name(sp->phase), batch_word(sp->track), sp->batch,
                    format_human(sp->start_s, Dim::Duration), format_human(sp->end_s, Dim::Duration));
    svg.raw(fmt::format("<g><title>{}</title>", xml_escape(tip)));
    // At least half a pixel wide, so that a short span is seen; the tooltip keeps its true times.
    // A white edge tells back-to-back spans apart where there is room for one.
    const double w = tx(sp->end_s) - tx(sp->start_s);
    svg.rect(tx(sp->start_s), tl_top + i * row_h + 2, std::max(w, 0.5), row_h - 4, phase_colour(sp->phase),
             w > 4 ? "stroke=\"#ffffff\" stroke-width=\"1\"" : "");
    svg.raw("</g>\n");
  }
  const double base = tl_top + tl_height;
  svg.line(tx.from, base, tx.to, base, "#444444");
  for (double t : nice_ticks(0, tx.high, 8)) {
    if (t > tx.high * (1 + 1e-9)) continue;
    svg.line(tx(t), base, tx(t), base + 4, "#444444");
    svg.text(tx(t), base + 16, tick_text(t / tu.divide), Anchor::Middle, 11);
  }
  svg.text((tx.from + tx.to) / 2, base + 32, fmt::format("time from the start ({})", tu.name), Anchor::Middle, 11,
           "#444444");
  if (more_workers > 0)
    svg.text(tx.to, tl_top - 14, fmt::format("{} more workers not shown", more_workers), Anchor::End, 11, "#777777");
  double lx = tx.from;
  for (Phase p : kPhases) {
    if (std::none_of(shown.begin(), shown.end(), [p](const Span* sp) { return sp->phase == p; })) continue;
    svg.rect(lx, legend_y - 10, 12, 12, phase_colour(p));
    svg.text(lx + 16, legend_y, phase_name(p), Anchor::Start, 11);
    lx += 34 + 6.5 * static_cast<double>(phase_name(p).size());
  }

  // Panel 2: the loop's wait per step over the steady window.
  const double total = static_cast<double>(std::max<std::size_t>(h.total, 1));
  std::size_t most_bin = 0;
  for (std::size_t c : h.counts) most_bin = std::max(most_bin, c);
  const double no_wait = static_cast<double>(h.no_wait) / total;
  const double bin_max = static_cast<double>(most_bin) / total;
  // When most steps did not wait, the axis fits the waits and the no-wait bar is cut (marked
  // by a break), so that the shape of the waits can be seen.
  const bool cut = bin_max > 0 && no_wait > 3 * bin_max;
  const double share_max = cut ? bin_max : std::max(no_wait, bin_max);
  const Scale hy{0, share_max > 0 ? std::min(1.0, share_max * 1.15) : 1, hist_top + hist_height, hist_top};
  const Unit pct{0.01, "steps (%)"};
  y_axis(svg, hist_top, hist_height, hy, nice_ticks(0, hy.high, 5), pct,
         s.inputs.accelerators > 1
             ? fmt::format("The loop's wait for its batch, per step and accelerator ({} waits in the steady window)",
                           h.total)
             : fmt::format("The loop's wait for its batch, per step ({} steps of the steady window)", h.total));
  const double nw_x = kLeft + 14;
  const double nw_w = 46;
  const std::string nw_tip = fmt::format("no wait: {} steps ({})", h.no_wait, percent(no_wait));
  const double nw_top = cut ? hist_top : hy(no_wait);
  svg.raw(fmt::format("<g><title>{}</title>", xml_escape(nw_tip)));
  svg.rect(nw_x, nw_top, nw_w, hy.from - nw_top, kGrey);
  svg.raw("</g>\n");
  if (cut) {
    const double by = hist_top + 16;
    svg.rect(nw_x - 1, by, nw_w + 2, 6, "#ffffff");
    svg.line(nw_x - 3, by + 2, nw_x + nw_w + 3, by - 2, "#444444");
    svg.line(nw_x - 3, by + 8, nw_x + nw_w + 3, by + 4, "#444444");
  }
  svg.text(nw_x + nw_w / 2, hist_top + hist_height + 16, "no wait", Anchor::Middle, 11);
  if (cut) {  // the share inside the cut bar, under the break
    svg.text(nw_x + nw_w / 2, hist_top + 38, percent(no_wait), Anchor::Middle, 10, "#111111");
    svg.text(nw_x + nw_w / 2, hist_top + 50, "(cut)", Anchor::Middle, 10, "#111111");
  } else {
    svg.text(nw_x + nw_w / 2, nw_top - 4, percent(no_wait), Anchor::Middle, 10, "#444444");
  }
  const Scale hx{0, h.bin_s > 0 ? h.bin_s * static_cast<double>(h.counts.size()) : 1, nw_x + nw_w + 24,
                 kWidth - kRight - 10};
  const Unit wu = duration_unit(hx.high);
  if (h.counts.empty()) {
    svg.text(hx.from, hist_top + hist_height / 2, "no step waited for its batch", Anchor::Start, 12, "#444444");
  } else {
    for (std::size_t k = 0; k < h.counts.size(); ++k) {
      if (h.counts[k] == 0) continue;
      const double lo = h.bin_s * static_cast<double>(k), hi = lo + h.bin_s;
      const double share = static_cast<double>(h.counts[k]) / total;
      const std::string tip = fmt::format("wait ({}, {}] {}: {} steps ({})", tick_text(lo / wu.divide),
                                          tick_text(hi / wu.divide), wu.name, h.counts[k], percent(share));
      svg.raw(fmt::format("<g><title>{}</title>", xml_escape(tip)));
      svg.rect(hx(lo) + 0.5, hy(share), hx(hi) - hx(lo) - 1, hy.from - hy(share), kBinding);
      svg.raw("</g>\n");
    }
    for (double t : nice_ticks(0, hx.high, 8)) {
      if (t > hx.high * (1 + 1e-9)) continue;
      svg.line(hx(t), hy.from, hx(t), hy.from + 4, "#444444");
      svg.text(hx(t), hy.from + 16, tick_text(t / wu.divide), Anchor::Middle, 11);
    }
    // The percentiles the table prints, one label for those that coincide.
    const std::array<std::pair<std::string_view, double>, 4> marks = {
        {{"p50", s.wait.p50}, {"p95", s.wait.p95}, {"p99", s.wait.p99}, {"max", s.wait.max}}};
    double label_y = hist_top + 12;
    for (std::size_t i = 0; i < marks.size();) {
      std::size_t j = i;
      std::string names(marks[i].first);
      while (j + 1 < marks.size() && marks[j + 1].second == marks[i].second)
        names += " = " + std::string(marks[++j].first);
      const double v = marks[i].second;
      i = j + 1;
      if (!(v > 0)) continue;
      svg.line(hx(v), hist_top, hx(v), hy.from, "#222222", 1, "4 3");
      svg.text(hx(v) + (hx(v) > (hx.from + hx.to) / 2 ? -4 : 4), label_y,
               fmt::format("{} {}", names, format_human(v, Dim::Duration)),
               hx(v) > (hx.from + hx.to) / 2 ? Anchor::End : Anchor::Start, 10, "#222222");
      label_y += 13;
    }
  }
  svg.text((hx.from + hx.to) / 2, hy.from + 32, fmt::format("wait ({})", wu.name), Anchor::Middle, 11, "#444444");

  // Panel 3: what held the loop up.
  if (!causes.empty()) {
    svg.text(kLeft - 60, cause_top - 14, "What the loop waited for (share of the wait time)", Anchor::Start, 13,
             "#222222", "font-weight=\"bold\"");
    const Scale cx{0, 1, kLeft + 110, kWidth - kRight - 220};
    for (std::size_t i = 0; i < causes.size(); ++i) {
      const std::size_t c = causes[i];
      const double y = cause_top + static_cast<double>(i) * bar;
      svg.text(cx.from - 8, y + 13, cause_words(static_cast<Cause>(c)), Anchor::End, 11);
      svg.rect(cx.from, y + 2, cx(s.cause_wait[c]) - cx.from, bar - 5, kBinding);
      svg.text(cx(s.cause_wait[c]) + 6, y + 13,
               fmt::format("{} of the wait, {} of steps", percent(s.cause_wait[c]), percent(s.cause_steps[c])),
               Anchor::Start, 11);
    }
  }
  return svg.finish();
}

}  // namespace pipesim
