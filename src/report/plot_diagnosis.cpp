// A diagnosis as a figure: time per batch by stage (the binding wall highlighted) and what each
// fix buys.
#include "report/plot.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <string>

#include "report/plot_kit.hpp"
#include "report/words.hpp"

namespace pipesim {

using namespace plot;

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

}  // namespace pipesim
