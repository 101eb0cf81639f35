#include "core/analyses/trace.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/base/error.hpp"

namespace pipesim {

namespace {

template <class S>
void sort_by_start(std::vector<S>& spans) {
  std::sort(spans.begin(), spans.end(), [](const S& a, const S& b) { return a.start < b.start; });
}

// Spans sorted by start, with the longest one's length: those that can reach into [from, to)
// start at or after from - longest and before to.
template <class S>
struct Sorted {
  const std::vector<S>& spans;
  double longest = 0;

  explicit Sorted(const std::vector<S>& s) : spans(s) {
    for (const S& x : s) longest = std::max(longest, x.end - x.start);
  }
  // [first, last) of the spans that may overlap [from, to).
  [[nodiscard]] std::pair<std::size_t, std::size_t> around(double from, double to) const {
    const auto start_before = [](const S& x, double t) { return x.start < t; };
    const auto first = std::lower_bound(spans.begin(), spans.end(), from - longest, start_before);
    const auto last = std::lower_bound(first, spans.end(), to, start_before);
    return {static_cast<std::size_t>(first - spans.begin()), static_cast<std::size_t>(last - spans.begin())};
  }
  // The union of the spans within [from, to), and whether any overlaps it.
  [[nodiscard]] std::pair<double, bool> covered(double from, double to) const {
    const auto [first, last] = around(from, to);
    double total = 0, reached = from;
    bool any = false;
    for (std::size_t i = first; i < last; ++i) {
      const double a = std::max(spans[i].start, reached), b = std::min(spans[i].end, to);
      if (spans[i].end > from && spans[i].start < to) any = true;
      if (b > a) {
        total += b - a;
        reached = b;
      }
    }
    return {total, any};
  }
};

// A length in seconds to the nanosecond, the finest a trace's microseconds with three decimals
// say: what is left past it is the rounding of the subtraction, not the trace.
double to_ns(double s) { return std::round(s * 1e9) / 1e9; }

RankSummary summarise_rank(RankTrace t) {
  if (t.steps.empty())
    throw Error(Origin::file(t.path),
                "no ProfilerStep marks: record the steps with a schedule and prof.step() at the end of each "
                "(torch.profiler.profile(schedule=torch.profiler.schedule(wait=1, warmup=1, active=20), ...))");
  sort_by_start(t.steps);
  sort_by_start(t.loader);
  sort_by_start(t.copies);
  sort_by_start(t.kernels);
  const Sorted loader(t.loader), kernels(t.kernels);
  std::vector<TraceSpan> copy_spans;
  for (const TraceCopy& c : t.copies) copy_spans.push_back({c.start, c.end});
  const Sorted copies(copy_spans);
  RankSummary r;
  r.path = t.path;
  double steps = 0, waits = 0, busy = 0, loop = 0;
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const TraceSpan& s = t.steps[i];
    TraceStep step;
    step.index = i;
    step.step_s = to_ns(s.end - s.start);
    std::tie(step.data_wait_s, step.loader_seen) = loader.covered(s.start, s.end);
    step.data_wait_s = to_ns(step.data_wait_s);
    step.h2d_s = to_ns(copies.covered(s.start, s.end).first);
    const auto [first, last] = copies.around(s.start, s.end);
    for (std::size_t k = first; k < last; ++k)
      if (t.copies[k].start >= s.start) step.h2d_bytes += t.copies[k].bytes;
    step.busy_s = to_ns(kernels.covered(s.start, s.end).first);
    step.loop_s = to_ns(step.step_s - step.data_wait_s);
    steps += step.step_s;
    waits += step.data_wait_s;
    busy += step.busy_s;
    loop += step.loop_s;
    r.steps.push_back(step);
  }
  if (std::none_of(r.steps.begin(), r.steps.end(), [](const TraceStep& s) { return s.loader_seen; }))
    throw Error(Origin::file(t.path),
                fmt::format("none of its {} steps iterates a DataLoader (no enumerate(DataLoader)#...__next__ span "
                            "inside a ProfilerStep): take the batch inside the profiled step, before prof.step()",
                            r.steps.size()));
  const double n = static_cast<double>(r.steps.size());
  r.step_s = steps / n;
  r.data_wait_fraction = steps > 0 ? waits / steps : 0;
  if (t.device_events && steps > 0) r.busy_fraction = busy / steps;
  r.loop_s = loop / n;
  for (const TraceCopy& c : t.copies)
    if (c.bytes > 0 && c.end > c.start) {
      r.h2d_bytes += c.bytes;
      r.h2d_s += to_ns(c.end - c.start);
    }
  if (r.h2d_s > 0) r.h2d_bytes_per_s = r.h2d_bytes / r.h2d_s;
  return r;
}

}  // namespace

TraceSummary summarise_traces(const std::vector<RankTrace>& ranks) {
  TraceSummary s;
  std::vector<double> steps, waits, rank_steps;
  double step_total = 0, wait_total = 0, busy_total = 0, loop_total = 0, bytes = 0, copy_s = 0;
  bool every_device = !ranks.empty();
  for (const RankTrace& t : ranks) {
    RankSummary r = summarise_rank(t);
    for (const TraceStep& x : r.steps) {
      steps.push_back(x.step_s);
      waits.push_back(x.data_wait_s);
      step_total += x.step_s;
      wait_total += x.data_wait_s;
      busy_total += x.busy_s;
      loop_total += x.loop_s;
      s.h2d_bytes_per_step += x.h2d_bytes;
      s.steps_without_loader += x.loader_seen ? 0 : 1;
    }
    every_device = every_device && r.busy_fraction.has_value();
    bytes += r.h2d_bytes;
    copy_s += r.h2d_s;
    rank_steps.push_back(r.step_s);
    s.ranks.push_back(std::move(r));
  }
  s.steps = steps.size();
  if (s.steps == 0) return s;
  s.step_s = step_total / static_cast<double>(s.steps);
  if (s.step_s > 0) s.steps_per_s = 1 / s.step_s;
  s.data_wait_fraction = step_total > 0 ? wait_total / step_total : 0;
  if (every_device && step_total > 0) s.busy_fraction = busy_total / step_total;
  if (copy_s > 0) s.h2d_bytes_per_s = bytes / copy_s;
  s.loop_s = loop_total / static_cast<double>(s.steps);
  s.h2d_bytes_per_step /= static_cast<double>(s.steps);
  s.input_bound = s.data_wait_fraction >= kTraceInputBound;
  s.highly_input_bound = s.data_wait_fraction >= kHighlyInputBound;
  s.step = spread(steps);
  s.wait = spread(waits);
  if (s.ranks.size() > 1) {
    const double median = spread(rank_steps).p50;
    for (RankSummary& r : s.ranks) r.straggler = r.step_s > (1 + kStraggler) * median;
  }
  return s;
}

TraceKeys trace_keys(const TraceSummary& s, double batch) {
  TraceKeys k;
  k.compute_s = s.busy_fraction ? *s.busy_fraction * s.step_s : s.loop_s;
  k.loop_overhead_s = s.busy_fraction ? std::max(0.0, s.loop_s - k.compute_s) : 0;
  k.link_bytes_per_s = s.h2d_bytes_per_s;
  if (s.h2d_bytes_per_step > 0 && batch > 0) k.device_sample_bytes = s.h2d_bytes_per_step / batch;
  k.samples_per_s = s.step_s > 0 ? batch / s.step_s : 0;
  return k;
}

}  // namespace pipesim
