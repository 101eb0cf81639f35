#include "report/plot_kit.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/base/text.hpp"
#include "core/stages/stage.hpp"

namespace pipesim::plot {

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
            const std::string& title, double title_gap) {
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

}  // namespace pipesim::plot
