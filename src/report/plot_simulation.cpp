// A simulation as a figure: the timeline of its first steps and the distribution of the loop's
// waits.
#include "report/plot.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "report/plot_kit.hpp"
#include "report/simulation_words.hpp"
#include "report/xml.hpp"

namespace pipesim {

using namespace plot;

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

// A percentile's line on the wait histogram and its label, one row each, beside the line; the
// line starts under its own label.
struct PercentileMark {
  double x = 0;
  std::string label;
  double y = 0;      // the label's baseline
  bool left = true;  // the label ends at the line (else starts at it)
};

// Rows and sides for the labels so that none crosses another mark's line or leaves the figure:
// the first that works of the labels in order or reversed (the rightmost on top), each on its
// side of the figure's middle or, where that crosses, on the other. 6.2 px per character at
// 10 px is a generous width for DejaVu Sans.
void place_marks(std::vector<PercentileMark>& marks, double top, double middle) {
  const std::size_t n = marks.size();
  const auto span = [&](const PercentileMark& m) {
    const double w = 6.2 * static_cast<double>(m.label.size()) + 4;
    return m.left ? std::pair{m.x - w, m.x} : std::pair{m.x, m.x + w};
  };
  const auto clear = [&] {
    for (const PercentileMark& m : marks) {
      const auto [a, b] = span(m);
      if (a < 2 || b > kWidth - 2) return false;
      for (const PercentileMark& other : marks)  // a line runs from under its label down
        if (&other != &m && other.y < m.y && other.x > a - 2 && other.x < b + 2) return false;
    }
    return true;
  };
  // Label k on row k (or n - 1 - k), on its side unless bit k of `flips` moves it.
  const auto place = [&](bool reversed, unsigned flips) {
    for (std::size_t k = 0; k < n; ++k) {
      marks[k].y = top + 13 * static_cast<double>(reversed ? n - 1 - k : k);
      marks[k].left = (marks[k].x > middle) != (((flips >> k) & 1u) != 0);
    }
  };
  for (const bool reversed : {false, true})
    for (unsigned flips = 0; flips < (1u << n); ++flips) {
      place(reversed, flips);
      if (clear()) return;
    }
  place(false, 0);  // none works: each on its own row, on its side
}

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
    std::vector<PercentileMark> percentiles;
    for (std::size_t i = 0; i < marks.size();) {
      std::size_t j = i;
      std::string names(marks[i].first);
      while (j + 1 < marks.size() && marks[j + 1].second == marks[i].second)
        names += " = " + std::string(marks[++j].first);
      const double v = marks[i].second;
      i = j + 1;
      if (v > 0) percentiles.push_back({hx(v), fmt::format("{} {}", names, format_human(v, Dim::Duration)), 0, true});
    }
    place_marks(percentiles, hist_top + 12, (hx.from + hx.to) / 2);
    for (const PercentileMark& m : percentiles) {
      svg.line(m.x, m.y + 3, m.x, hy.from, "#222222", 1, "4 3");
      svg.text(m.x + (m.left ? -4 : 4), m.y, m.label, m.left ? Anchor::End : Anchor::Start, 10, "#222222");
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
