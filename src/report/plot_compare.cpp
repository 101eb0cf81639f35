// Plans side by side as a figure: one panel of bars per figure compared.
#include "report/plot.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "report/check_words.hpp"
#include "report/plot_kit.hpp"
#include "report/words.hpp"
#include "report/xml.hpp"

namespace pipesim {

using namespace plot;

namespace {

constexpr double kBar = 20;  // one plan's bar in a panel
constexpr double kTop = 76;  // the title and the key above the panels
constexpr std::size_t kMostPanels = 6;

// One panel's height for `plans` plans, and the figure's for `panels` panels of them.
double panel_height(std::size_t plans) { return 34 + kBar * static_cast<double>(plans) + 16; }
double compare_height(std::size_t plans, std::size_t panels) {
  return kTop + panel_height(plans) * static_cast<double>(panels) + 24;
}

}  // namespace

std::size_t compare_raster_plans() {
  // rsvg-convert draws at most 32,767 pixels a side, and a PNG has twice the SVG's.
  std::size_t n = 2;
  while (2 * compare_height(n + 1, kMostPanels) <= 32767) ++n;
  return n;
}

std::string compare_svg(const std::vector<ComparePlan>& plans, const std::vector<CompareRow>& rows) {
  constexpr std::array kShown = {
      CompareMetric::Throughput, CompareMetric::Utilization,  CompareMetric::WorstEpochUtilization,
      CompareMetric::EpochTime,  CompareMetric::CostPerEpoch, CompareMetric::RunCost};
  static_assert(kShown.size() == kMostPanels);
  std::vector<const CompareRow*> shown;
  for (const CompareRow& r : rows)
    if (r.any && std::find(kShown.begin(), kShown.end(), r.metric) != kShown.end()) shown.push_back(&r);
  // Each plan's name, with its verdict where it has requirements.
  std::vector<std::string> labels;
  for (const ComparePlan& p : plans) labels.push_back(p.label);
  bool judged = false, some_pass = false, worst = false;
  for (const ComparePlan& p : plans) {
    judged = judged || p.verdict.has_value();
    some_pass = some_pass || p.verdict != Verdict::Fail;
  }
  for (const CompareRow* r : shown) worst = worst || r->metric == CompareMetric::WorstEpochUtilization;
  const double bar = kBar;
  const double panel = panel_height(labels.size());
  const double top = kTop;
  const double height = compare_height(labels.size(), shown.size());
  std::string title = "pipesim compare: ";
  for (std::size_t i = 0; i < labels.size(); ++i) title += (i ? " vs " : "") + labels[i];
  Svg svg(kWidth, height, title);
  heading(svg, title);
  svg.text(kWidth / 2, 46,
           fmt::format("* best in its row{} (shorter is better for time and cost){}",
                       !judged     ? ""
                       : some_pass ? " among the plans that do not fail"
                                   : ", every plan failing",
                       judged ? "; red mark: the plan's min_utilization" : ""),
           Anchor::Middle, 11, "#444444");
  // Whether a utilization panel is the one a plan's min_utilization judges.
  const auto judges = [&](CompareMetric m, const ComparePlan& p) {
    if (!p.min_utilization) return false;
    if (m == CompareMetric::WorstEpochUtilization) return !p.steady_only;
    return m == CompareMetric::Utilization && (p.steady_only || !worst);
  };
  // Each bar's figure as written beside it.
  const auto value_label = [&](const CompareRow& row, std::size_t p) {
    const double v = *row.values[p];
    std::string label = compare_value_text(row.metric, v) + (p < row.best.size() && row.best[p] ? "  * best" : "");
    if (row.metric == CompareMetric::Utilization && plans[p].walls != 0)
      label += fmt::format("  ({} binds)", binding_text(plans[p].walls));
    if (judges(row.metric, plans[p]))
      label += fmt::format("  (needs {})", compare_value_text(row.metric, *plans[p].min_utilization));
    return label;
  };
  // The bars start right of the longest plan name (one of more than 40 characters is shortened,
  // whole in its tooltip) and end left of the longest figure, so that no text leaves the figure
  // (11 px text: about 6.5 px a character).
  constexpr std::size_t kLongestName = 40;
  std::size_t name_chars = 0, value_chars = 0;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    if (plans[p].verdict) labels[p] += fmt::format(" ({})", verdict_word(*plans[p].verdict));
    name_chars = std::max(name_chars, std::min(labels[p].size(), kLongestName));
  }
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
    const bool utilization =
        row.metric == CompareMetric::Utilization || row.metric == CompareMetric::WorstEpochUtilization;
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
      if (judges(row.metric, plans[p]))
        svg.line(x(*plans[p].min_utilization), y, x(*plans[p].min_utilization), y + bar - 1, "#c62828", 2);
      // A white halo: the label may run past the utilization panel's gridlines.
      svg.text(x(v) + 6, y + 13, value_label(row, p), Anchor::Start, 11, "#222222",
               std::string(best ? "font-weight=\"bold\" " : "") +
                   "paint-order=\"stroke\" stroke=\"#ffffff\" stroke-width=\"3\"");
    }
  }
  return svg.finish();
}

}  // namespace pipesim
