#include "report/svg.hpp"

#include <fmt/format.h>
#include <cmath>

#include "report/xml.hpp"

namespace pipesim {

namespace {

std::string_view anchor_name(Anchor a) {
  switch (a) {
    case Anchor::Middle:
      return "middle";
    case Anchor::End:
      return "end";
    case Anchor::Start:
      break;
  }
  return "start";
}

std::string dash_attribute(std::string_view dash) {
  return dash.empty() ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", dash);
}

}  // namespace

Svg::Svg(double width, double height, std::string_view title) : width_(width), height_(height), title_(title) {}

void Svg::rect(double x, double y, double w, double h, std::string_view fill, std::string_view extra) {
  body_ += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"{}{}/>\n", x, y,
                       std::max(w, 0.0), std::max(h, 0.0), fill, extra.empty() ? "" : " ", extra);
}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
               std::string_view dash) {
  body_ += fmt::format(
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
      "stroke-width=\"{}\"{}/>\n",
      x1, y1, x2, y2, stroke, width, dash_attribute(dash));
}

void Svg::polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke, double width,
                   std::string_view dash) {
  if (points.empty()) return;
  std::string list;
  for (const auto& [x, y] : points) list += fmt::format("{}{:.1f},{:.1f}", list.empty() ? "" : " ", x, y);
  body_ += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", list, stroke,
                       width, dash_attribute(dash));
}

void Svg::circle(double x, double y, double r, std::string_view fill) {
  body_ += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"{}\"/>\n", x, y, r, fill);
}

void Svg::ring(double x, double y, double r, std::string_view stroke) {
  body_ += fmt::format(
      "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"#ffffff\" stroke=\"{}\" stroke-width=\"1.5\"/>\n", x, y, r,
      stroke);
}

void Svg::text(double x, double y, std::string_view s, Anchor anchor, double size, std::string_view fill,
               std::string_view extra) {
  body_ +=
      fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"{}\" text-anchor=\"{}\" fill=\"{}\"{}{}>{}</text>\n", x,
                  y, size, anchor_name(anchor), fill, extra.empty() ? "" : " ", extra, xml_escape(s));
}

std::string Svg::finish() const {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      "<title>{2}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n{3}</svg>\n",
      width_, height_, xml_escape(title_), body_);
}

std::vector<double> nice_ticks(double low, double high, int count) {
  if (!(high > low) || !std::isfinite(low) || !std::isfinite(high)) return {low};
  const double raw = (high - low) / std::max(count, 1);
  const int exponent = static_cast<int>(std::floor(std::log10(raw)));
  const double power = std::pow(10.0, exponent);
  double m = 10;
  for (double candidate : {1.0, 2.0, 5.0})
    if (raw <= candidate * power * (1 + 1e-9)) {
      m = candidate;
      break;
    }
  // Tick k is k * m * 10^exponent, divided rather than multiplied by a negative power of ten so
  // that 0.6 is the decimal 0.6, not 0.6000000000000001.
  const double scale = std::pow(10.0, std::abs(exponent));
  const auto tick = [&](double k) { return exponent < 0 ? k * m / scale : k * m * scale; };
  std::vector<double> ticks;
  const double step = tick(1);
  for (double k = std::ceil(low / step - 1e-9); tick(k) <= high + step * 1e-9 && ticks.size() < 50; ++k)
    ticks.push_back(k == 0 ? 0 : tick(k));
  return ticks;
}

double Scale::operator()(double v) const {
  double f = 0;
  if (log)
    f = (std::log(v) - std::log(low)) / (std::log(high) - std::log(low));
  else
    f = (v - low) / (high - low);
  if (!std::isfinite(f)) f = 0;
  return from + f * (to - from);
}

std::vector<double> log_ticks(double low, double high) {
  if (!(low > 0) || !(high > low) || !std::isfinite(high)) return {};
  const int first = static_cast<int>(std::floor(std::log10(low)));
  const int last = static_cast<int>(std::ceil(std::log10(high)));
  // 10^k built by dividing for negative k, so that 0.01 is the decimal 0.01.
  const auto power = [](int k) { return k < 0 ? 1 / std::pow(10.0, -k) : std::pow(10.0, k); };
  const auto inside = [&](double v) { return v >= low * (1 - 1e-9) && v <= high * (1 + 1e-9); };
  std::vector<double> decades, all;
  for (int k = first; k <= last && k - first < 40; ++k) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = k < 0 ? m / std::pow(10.0, -k) : m * power(k);
      if (!inside(v)) continue;
      all.push_back(v);
      if (m == 1.0) decades.push_back(v);
    }
  }
  return decades.size() >= 3 ? decades : all;
}

}  // namespace pipesim
