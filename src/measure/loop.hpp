// `pipesim calibrate loop`: how much of the CPUs a training loop takes while it waits for the
// accelerator, measured beside as many busy threads as there are CPUs (the workers). A thread
// waits four ways, as loops do: spinning on a clock, spinning with sched_yield (CUDA's
// "yield" schedule), polling (a short sleep between checks) and sleeping; its CPU time over a
// runnable thread's fair share is its share. pipeline.loop_cpu_share takes the CPUs it took from
// the busy threads, averaged over the rounds: the scheduler may place the waiting thread
// differently from one round to the next (a yielding one took none in some rounds and its whole
// fair share in others on a 2-CPU VM), and a training run goes through those placements in turn.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "measure/machine.hpp"

namespace pipesim {

enum class WaitStyle { Spin, Yield, Poll, Sleep };
inline constexpr std::array kWaitStyles{WaitStyle::Spin, WaitStyle::Yield, WaitStyle::Poll, WaitStyle::Sleep};
std::string_view wait_style_name(WaitStyle w);  // "spin", "yield", "poll", "sleep"

struct LoopOptions {
  double seconds = 0.4;              // per round: the busy threads alone, then beside each wait
  unsigned rounds = 5;               // of each figure, the threads started afresh each time
  unsigned threads = 0;              // busy threads (0: one per logical CPU)
  double poll_interval = 1e-3;       // seconds slept between a polling loop's checks
  WaitStyle wait = WaitStyle::Spin;  // the wait whose CPUs the fragment sets
};

// The median of the rounds, the range of the share, and the mean of the CPUs.
struct WaitFigure {
  double loop_cpus = 0;  // the waiting thread's CPU time over the wall time
  double mean_cpus = 0;  // loop_cpus averaged over the rounds (the key)
  double share = 0;      // loop_cpus over a runnable thread's fair share of the CPUs
  double share_low = 0, share_high = 0;
  double busy_rate = 0;      // the busy threads' work, units per second, beside the wait
  double busy_fraction = 0;  // busy_rate over their rate alone
};

struct LoopCalibration {
  Machine machine;
  LoopOptions options;
  unsigned busy = 1;           // busy threads
  bool crowded = true;         // busy threads and the waiting one outnumber the CPUs: shares mean something
  double alone_rate = 0;       // their work alone, units per second
  double fair_share_cpus = 1;  // a runnable thread's fair share of the CPUs (fair_share)
  double loop_cpu_share = 0;   // the key: the mean CPUs of options.wait, 0 to 1
  std::array<WaitFigure, kWaitStyles.size()> waits{};  // in kWaitStyles' order
  [[nodiscard]] const WaitFigure& at(WaitStyle w) const { return waits[static_cast<std::size_t>(w)]; }
};

// A runnable thread's fair share of `cpus` CPUs among `busy` busy threads and itself (at most one
// CPU), and the share a waiting thread that used `loop_cpus` CPUs on average took of it.
double fair_share(unsigned busy, unsigned cpus);
double loop_share(double loop_cpus, unsigned busy, unsigned cpus);
// The median of a non-empty list (the mean of the middle two when even).
double median_of(std::vector<double> v);

LoopCalibration calibrate_loop(const LoopOptions& o);

}  // namespace pipesim
