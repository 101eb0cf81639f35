#include "measure/loop.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "measure/together.hpp"

namespace pipesim {

std::string_view wait_style_name(WaitStyle w) {
  switch (w) {
    case WaitStyle::Spin:
      return "spin";
    case WaitStyle::Yield:
      return "yield";
    case WaitStyle::Poll:
      return "poll";
    case WaitStyle::Sleep:
      return "sleep";
  }
  return "spin";
}

double fair_share(unsigned busy, unsigned cpus) {
  return std::min(1.0, static_cast<double>(cpus) / (static_cast<double>(busy) + 1));
}

double loop_share(double loop_cpus, unsigned busy, unsigned cpus) { return loop_cpus / fair_share(busy, cpus); }

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {

// A unit of a busy thread's work: arithmetic the compiler cannot drop, about 20 us.
std::atomic<double> g_sink{0};
void work_unit() {
  double x = 0;
  for (int k = 0; k < 20000; ++k) x += static_cast<double>(k) * 0.5;
  g_sink.store(x, std::memory_order_relaxed);
}

// Units of work a busy thread does until `end` (a monotonic time).
double busy_until(double end) {
  double units = 0;
  while (now_s() < end) {
    work_unit();
    ++units;
  }
  return units;
}

// A training loop waiting until `end` as `w` says; returns its CPU seconds.
double wait_until(double end, WaitStyle w, double poll_interval) {
  const double cpu0 = thread_cpu_s();
  switch (w) {
    case WaitStyle::Spin:
      while (now_s() < end) {
      }
      break;
    case WaitStyle::Yield:
      while (now_s() < end) sched_yield();
      break;
    case WaitStyle::Poll:
      while (now_s() < end) std::this_thread::sleep_for(std::chrono::duration<double>(poll_interval));
      break;
    case WaitStyle::Sleep:
      std::this_thread::sleep_for(std::chrono::duration<double>(std::max(0.0, end - now_s())));
      break;
  }
  return thread_cpu_s() - cpu0;
}

// The busy threads for `seconds`, with a waiting thread beside them or not: their work per
// second, and the waiting thread's CPUs.
WaitFigure run(const LoopOptions& o, unsigned busy, const WaitStyle* wait) {
  const unsigned n = busy + (wait ? 1 : 0);
  std::vector<double> units(n, 0);
  double loop_cpu = 0, wall = 0;
  measure_together(
      n,
      [&](unsigned t) {
        const double start = now_s(), end = start + o.seconds;
        if (wait && t == 0) {
          loop_cpu = wait_until(end, *wait, o.poll_interval);
          wall = now_s() - start;
        } else {
          units[t] = busy_until(end) / (now_s() - start);
        }
      },
      "calibrate loop", "--threads");
  WaitFigure f;
  for (double u : units) f.busy_rate += u;
  if (wait) f.loop_cpus = loop_cpu / std::max(wall, 1e-9);
  return f;
}

}  // namespace

LoopCalibration calibrate_loop(const LoopOptions& o) {
  LoopCalibration c;
  c.machine = this_machine();
  c.options = o;
  c.busy = o.threads ? o.threads : c.machine.logical_cpus;
  c.crowded = c.busy + 1 > c.machine.logical_cpus;
  c.fair_share_cpus = fair_share(c.busy, c.machine.logical_cpus);
  const unsigned rounds = std::max(1u, o.rounds);
  std::vector<double> alone;
  std::vector<std::vector<WaitFigure>> per(kWaitStyles.size());
  // Round by round, each wait in turn: a drift of the machine's load falls on all of them alike.
  for (unsigned r = 0; r < rounds; ++r) {
    alone.push_back(run(o, c.busy, nullptr).busy_rate);
    for (std::size_t i = 0; i < kWaitStyles.size(); ++i) per[i].push_back(run(o, c.busy, &kWaitStyles[i]));
  }
  c.alone_rate = median_of(alone);
  for (std::size_t i = 0; i < kWaitStyles.size(); ++i) {
    std::vector<double> shares, cpus, rates;
    for (const WaitFigure& f : per[i]) {
      cpus.push_back(f.loop_cpus);
      shares.push_back(loop_share(f.loop_cpus, c.busy, c.machine.logical_cpus));
      rates.push_back(f.busy_rate);
    }
    WaitFigure& w = c.waits[i];
    w.loop_cpus = median_of(cpus);
    w.mean_cpus = std::accumulate(cpus.begin(), cpus.end(), 0.0) / static_cast<double>(cpus.size());
    w.share = median_of(shares);
    w.share_low = *std::min_element(shares.begin(), shares.end());
    w.share_high = *std::max_element(shares.begin(), shares.end());
    w.busy_rate = median_of(rates);
    w.busy_fraction = w.busy_rate / c.alone_rate;
  }
  c.loop_cpu_share = std::clamp(c.at(o.wait).mean_cpus, 0.0, 1.0);
  return c;
}

}  // namespace pipesim
