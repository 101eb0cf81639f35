// What pipesim's figures share (report/plot_*.cpp): the page's geometry, units for an axis, a
// panel's frame and y axis, a horizontal bar axis, the heading, and the words of an axis.
// Internal to the figures.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/fields.hpp"
#include "report/svg.hpp"

namespace pipesim::plot {

inline constexpr double kWidth = 760;
inline constexpr double kLeft = 90;  // room for the y tick labels and title
inline constexpr double kRight = 30;
inline constexpr double kPanelHeight = 170;
// Characters of 10 px text in a line across the plot (about 6 px each), and the lines a note
// under a panel may take before the next panel's title.
inline constexpr std::size_t kNoteChars = 104;
inline constexpr std::size_t kNoteLines = 2;

// An axis's unit: what its values are divided by, and its name.
struct Unit {
  double divide = 1;
  std::string name;
};
// Seconds in us, ms or s; samples/s in samples/s, thousands or millions: for values up to `max`.
Unit duration_unit(double max);
Unit rate_unit(double max);

// A tick's value as written ("0.5", "100").
std::string tick_text(double v);

// A panel's frame, y ticks (with gridlines) and title (`title_gap` over the panel); the x axis is
// drawn by the caller.
void y_axis(Svg& svg, double top, double height, const Scale& y, const std::vector<double>& ticks, const Unit& unit,
            const std::string& title, double title_gap = 8);

// A swept key as a label names it: "batch 32", "workers 8", "sample size 110 KB"; another key by
// its name in its table, in words ("cores 64", "read bandwidth 2 GB/s").
std::string field_short(Field f);
// A swept key under its axis: what it counts, per what.
std::string axis_title(Field f);
// Binding stages (bit per Stage) as words: "transform + compute", "none".
std::string binding_text(unsigned binding);

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
void heading(Svg& svg, std::string_view name);

}  // namespace pipesim::plot
