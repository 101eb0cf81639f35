// A sweep as a figure: utilization, throughput and stage times along the x axis, one curve per
// combination of the other axes (crossovers as numbered badges with a key), or a grid of small
// utilization panels for many.
#include "report/plot.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "core/base/text.hpp"
#include "report/plot_kit.hpp"
#include "report/words.hpp"
#include "report/xml.hpp"

namespace pipesim {

using namespace plot;

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
  // Four digits at most, without trailing zeros: "3.081", "50.8", "10".
  const auto value = [&](double x) {
    std::string text = format_human(x, inner.range.dim());
    const std::size_t end = std::min(text.find(' '), text.size()), dot = text.find('.');
    if (dot < end) {
      std::size_t cut = end;
      while (cut > dot + 1 && text[cut - 1] == '0') --cut;
      if (cut == dot + 1) cut = dot;
      text.erase(cut, end - cut);
    }
    return text;
  };
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

namespace {

// The figures' extent over the drawn points: the most throughput, the longest and shortest stage
// time above zero, and whether a modelled stage takes no time somewhere.
struct Extent {
  double tmax = 0, smax = 0, smin = 0;
  bool zero_stage = false;
};
Extent extent(const std::vector<Curve>& curves) {
  Extent e;
  for (const Curve& c : curves)
    for (const CurvePoint& p : c.points) {
      if (!p.drawn()) continue;
      e.tmax = std::max({e.tmax, p.throughput, p.simulated_throughput.value_or(0)});
      for (Stage st : kStages) {
        const double v = p.stage_s[static_cast<std::size_t>(st)];
        if (!(p.modelled & stage_bit(st))) continue;
        if (!(v > 0)) {
          e.zero_stage = true;
          continue;
        }
        e.smax = std::max(e.smax, v);
        e.smin = e.smin > 0 ? std::min(e.smin, v) : v;
      }
    }
  return e;
}

// Where each curve's legend entry goes, (x, y), in rows that fit the width (6.5 px per character
// at 11 px is a generous width for DejaVu Sans).
std::vector<std::pair<double, double>> legend_layout(const std::vector<Axis>& axes, const std::vector<Curve>& curves) {
  std::vector<std::pair<double, double>> at;
  double lx = kLeft, ly = 68;
  for (const Curve& c : curves) {
    const double w = 40 + 6.5 * static_cast<double>(outer_label(axes, c).size());
    if (lx > kLeft && lx + w > kWidth - kRight) lx = kLeft, ly += 18;
    at.emplace_back(lx, ly);
    lx += w;
  }
  return at;
}

// One colour per curve; with simulated figures, the line that tells them from the closed forms.
void draw_legend(Svg& svg, const std::vector<Axis>& axes, const std::vector<Curve>& curves,
                 const std::vector<std::pair<double, double>>& at, bool sim, double legend_bottom) {
  for (std::size_t c = 0; c < curves.size(); ++c) {
    const auto [lx, ly] = at[c];
    svg.line(lx, ly, lx + 22, ly, kPalette[c], 3);
    svg.text(lx + 27, ly + 4, outer_label(axes, curves[c]), Anchor::Start, 11);
  }
  if (!sim) return;
  svg.line(kLeft, legend_bottom, kLeft + 22, legend_bottom, "#444444", 1.5, "4 3");
  svg.ring(kLeft + 11, legend_bottom, 5, "#444444");
  svg.text(kLeft + 27, legend_bottom + 4,
           "dashed, rings: simulated (--simulate); solid, dots: the model's closed forms", Anchor::Start, 11);
}

// The x axis under a panel: ticks, the axis's title and a note wrapped inside the figure's width
// on the lines under it.
struct XAxis {
  const Axis& inner;
  const Scale& xs;
  std::vector<double> ticks;
  bool log = false;
};
void draw_x_axis(Svg& svg, const XAxis& x, double panel_top, const std::string& note) {
  const double base = panel_top + kPanelHeight;
  for (double t : x.ticks) {
    svg.line(x.xs(t), base, x.xs(t), base + 4, "#444444");
    svg.text(x.xs(t), base + 16, format_compact(t, x.inner.range.dim()), Anchor::Middle, 11);
  }
  svg.text((kLeft + kWidth - kRight) / 2, base + 34,
           fmt::format("{}{}", axis_title(x.inner.field), x.log ? " (log scale)" : ""), Anchor::Middle, 11, "#444444");
  const std::string wrapped = wrap(note, kNoteChars);
  std::size_t line = 0;
  for (std::string_view rest = wrapped; !rest.empty() && line < kNoteLines; ++line) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    svg.text(kLeft, base + 50 + 12 * static_cast<double>(line), rest.substr(0, end), Anchor::Start, 10, "#777777");
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
}

// One dash pattern per stage. Dashed ("4 3") means simulated in this figure, so no stage is
// plainly dashed: storage is dash-dot-dot, transform solid, transfer dotted, compute dash-dot.
constexpr std::string_view kStageDash[] = {"10 3 2 3 2 3", "", "2 3", "10 3 2 3"};
std::string_view stage_dash(Stage st) { return kStageDash[static_cast<std::size_t>(st)]; }

// The dash legend of the stage panel, right-aligned on its title line: the stages some point
// models.
void draw_stage_dashes(Svg& svg, const std::vector<Curve>& curves, double panel_top) {
  unsigned modelled = 0;
  for (const Curve& c : curves)
    for (const CurvePoint& p : c.points)
      if (p.drawn()) modelled |= p.modelled;
  double sx = kWidth - kRight;
  for (Stage st : kStages)
    if (modelled & stage_bit(st)) sx -= 40 + 7.0 * static_cast<double>(stage_key(st).size());
  for (Stage st : kStages) {
    if (!(modelled & stage_bit(st))) continue;
    svg.line(sx, panel_top - 12, sx + 22, panel_top - 12, "#444444", 2, stage_dash(st));
    svg.text(sx + 26, panel_top - 8, stage_key(st), Anchor::Start, 11);
    sx += 40 + 7.0 * static_cast<double>(stage_key(st).size());
  }
}

// Curve c in the three panels (utilization, throughput, time per batch by stage, whose scales
// are ys and tops): its lines, each point with its figures as a tooltip, and its crossovers.
void draw_curve(Svg& svg, const Axis& inner, const std::vector<Curve>& curves, std::size_t c, const Scale& xs,
                const Scale (&ys)[3], const double (&tops)[3]) {
  const auto utilization = closed_form([](const CurvePoint& p) { return p.utilization; });
  const auto throughput = closed_form([](const CurvePoint& p) { return p.throughput; });
  const auto sim_utilization = [](const CurvePoint& p) { return p.simulated_utilization; };
  const auto sim_throughput = [](const CurvePoint& p) { return p.simulated_throughput; };
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
    for (std::size_t d = 0; d < c && !drawn_before; ++d) drawn_before = same_line(curves[d], curves[c], stage_time(st));
    if (!drawn_before) draw(2, stage_time(st), stage_dash(st));
  }
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

// How many lines a note takes under its axis.
std::size_t note_lines(const std::string& note) {
  if (note.empty()) return 0;
  const std::string wrapped = wrap(note, kNoteChars);
  return std::min(kNoteLines, static_cast<std::size_t>(std::count(wrapped.begin(), wrapped.end(), '\n')) + 1);
}

}  // namespace

std::string sweep_svg(const LoadedScenario& loaded, const std::vector<Axis>& axes, const std::vector<Curve>& curves) {
  check_panels(curves.size());
  if (curves.size() > kMaxPlotCurves) return sweep_grid_svg(loaded, axes, curves);
  const Axis& inner = axes.back();
  const XExtent e = x_extent(inner, curves);
  const bool sim = simulated(curves);
  const Extent f = extent(curves);
  // Stage times 30 times apart or more go on a log axis: on a linear one the short stages lie
  // flat on zero. A stage at zero (cached, say) is drawn on the axis's floor.
  const bool log_stages = f.smin > 0 && f.smax / f.smin >= 30;
  // The panels start below the legend's last row, and below the line that tells simulated from
  // closed-form figures when there are simulated ones.
  const std::vector<std::pair<double, double>> entry_at = legend_layout(axes, curves);
  const double legend_bottom = (entry_at.empty() ? 68 : entry_at.back().second) + (sim ? 18 : 0);
  const Scale xs{e.low, e.high, kLeft + 10, kWidth - kRight - 10, e.log};
  // Each panel's curves, and which curves hide others in it (its note).
  const auto utilization = closed_form([](const CurvePoint& p) { return p.utilization; });
  const auto throughput = closed_form([](const CurvePoint& p) { return p.throughput; });
  const auto sim_utilization = [](const CurvePoint& p) { return p.simulated_utilization; };
  const auto sim_throughput = [](const CurvePoint& p) { return p.simulated_throughput; };
  const std::string notes[3] = {coinciding_note(axes, curves,
                                                [&](const Curve& a, const Curve& b) {
                                                  return same_line(a, b, utilization) &&
                                                         same_line(a, b, sim_utilization);
                                                }),
                                coinciding_note(axes, curves,
                                                [&](const Curve& a, const Curve& b) {
                                                  return same_line(a, b, throughput) && same_line(a, b, sim_throughput);
                                                }),
                                coinciding_note(axes, curves, [&](const Curve& a, const Curve& b) {
                                  for (Stage st : kStages)
                                    if (!same_line(a, b, stage_time(st))) return false;
                                  return true;
                                })};
  // The crossovers: numbered badges in a strip over the utilization panel, their key under its
  // axis and note (the panels below move down to make room).
  std::vector<Crossing> crossings;
  for (std::size_t c = 0; c < curves.size(); ++c)
    for (const CurvePoint& p : curves[c].points)
      if (p.drawn() && p.crossed_from)
        crossings.push_back({xs(p.crossed_at), c, p.crossed_at, *p.crossed_from, p.binding});
  const std::vector<CrossoverEntry> entries = crossover_entries(axes, curves, crossings);
  const double strip = entries.empty() ? 0 : 18;
  const double top = 110 + legend_bottom - 68 + strip;
  const double gap = 92;  // the x axis, its title and a note of two lines, clear of the next title
  const double key_top = top + kPanelHeight + 50 + 12 * static_cast<double>(note_lines(notes[0])) + 6;
  const double key_bottom = key_top + kKeyRow * static_cast<double>(key_rows(entries, kWidth - kLeft - kRight));
  // The next panel's title sits 8 px over it, 13 px tall: the key ends clear of it.
  const double key_extra = entries.empty() ? 0 : std::max(0.0, key_bottom + 28 - (top + kPanelHeight + gap));
  const double height = top + 3 * kPanelHeight + 2 * gap + key_extra + 76;
  Svg svg(kWidth, height, loaded.name);
  heading(svg, loaded.name);
  svg.text(kWidth / 2, 46, fmt::format("pipesim sweep over {}", axis_title(inner.field)), Anchor::Middle, 12,
           "#444444");
  draw_legend(svg, axes, curves, entry_at, sim, legend_bottom);

  // Panel 1: utilization. Panel 2: throughput. Panel 3: time per batch by stage.
  const auto panel_top = [&](int i) { return top + i * (kPanelHeight + gap) + (i > 0 ? key_extra : 0); };
  const Unit pct{0.01, "utilization (%)"};
  const Unit rate = rate_unit(f.tmax);
  const Unit dur = duration_unit(log_stages ? std::sqrt(f.smin * f.smax) : f.smax);
  const double tops[3] = {panel_top(0), panel_top(1), panel_top(2)};
  const Scale ys[3] = {{0, 1, tops[0] + kPanelHeight, tops[0]},
                       {0, f.tmax > 0 ? f.tmax * 1.1 : 1, tops[1] + kPanelHeight, tops[1]},
                       log_stages ? Scale{f.smin / 1.2, f.smax * 1.2, tops[2] + kPanelHeight, tops[2], true}
                                  : Scale{0, f.smax > 0 ? f.smax * 1.1 : 1, tops[2] + kPanelHeight, tops[2]}};
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
  if (log_stages && f.zero_stage)
    svg.text(kWidth - kRight, tops[2] + kPanelHeight - 6, "a stage that takes no time (cached) lies on the floor",
             Anchor::End, 10, "#777777");
  const XAxis x{inner, xs, x_ticks(inner, e, 12), e.log};
  for (int i = 0; i < 3; ++i) draw_x_axis(svg, x, tops[i], notes[i]);
  draw_stage_dashes(svg, curves, tops[2]);
  for (std::size_t c = 0; c < curves.size(); ++c) draw_curve(svg, inner, curves, c, xs, ys, tops);
  draw_crossovers(svg, entries, tops[0] - 10, tops[0], key_top, kLeft, kWidth - kRight);
  gaps_note(svg, height - 10, curves);
  return svg.finish();
}

}  // namespace pipesim
