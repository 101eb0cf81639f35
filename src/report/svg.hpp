// A small SVG writer for pipesim's figures (docs/manual/commands.md, "Pictures"): shapes and text as text, one
// document at a time, with axes whose ticks are round numbers and whose labels carry units.
// SVG is a text format like JSON; this is the whole of what pipesim's plots need of it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/units.hpp"

namespace pipesim {

// Colours that readers with any common colour-vision deficiency can tell apart (Okabe and Ito,
// "Color Universal Design", 2008), in the order series take them.
inline constexpr std::string_view kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                "#56B4E9", "#D55E00", "#F0E442", "#000000"};
inline constexpr std::string_view kGrey = "#999999";
inline constexpr std::string_view kBinding = "#D55E00";

enum class Anchor { Start, Middle, End };

class Svg {
 public:
  Svg(double width, double height, std::string_view title);
  void rect(double x, double y, double w, double h, std::string_view fill, std::string_view extra = "");
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width = 1,
            std::string_view dash = "");
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke, double width,
                std::string_view dash = "");
  void circle(double x, double y, double r, std::string_view fill);
  // A hollow circle: white inside, `stroke` round it.
  void ring(double x, double y, double r, std::string_view stroke);
  // Text is escaped; `extra` is more attributes (e.g. font-weight="bold").
  void text(double x, double y, std::string_view s, Anchor anchor = Anchor::Start, double size = 12,
            std::string_view fill = "#222222", std::string_view extra = "");
  void raw(std::string_view markup) { body_ += markup; }
  [[nodiscard]] std::string finish() const;

 private:
  double width_, height_;
  std::string title_;
  std::string body_;
};

// Round tick values covering [low, high]: 1, 2 or 5 times a power of ten apart, about `count`.
std::vector<double> nice_ticks(double low, double high, int count = 5);
// Ticks for a log axis over [low, high] (both > 0): the powers of ten inside it, and 2 and 5
// times them as well when fewer than three powers fall inside.
std::vector<double> log_ticks(double low, double high);

// A linear or logarithmic map from data to pixels.
struct Scale {
  double low = 0, high = 1;  // data
  double from = 0, to = 1;   // pixels
  bool log = false;
  [[nodiscard]] double operator()(double v) const;
};

}  // namespace pipesim
