// calibrate loop's arithmetic, and its measurement's invariants (no timing is checked: the
// machine is shared).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "measure/loop.hpp"

using namespace pipesim;

TEST_CASE("a waiting loop's share is its CPUs over a runnable thread's fair share") {
  // 2 busy threads and the loop on 2 CPUs: each runnable thread's fair share is 2/3 of a CPU.
  CHECK(fair_share(2, 2) == doctest::Approx(2.0 / 3).epsilon(1e-15));
  CHECK(loop_share(2.0 / 3, 2, 2) == doctest::Approx(1).epsilon(1e-15));  // a spinner that got its share
  CHECK(loop_share(0.2, 2, 2) == doctest::Approx(0.3).epsilon(1e-15));    // 0.2 of a CPU out of 2/3
  // 16 busy threads on 16 CPUs: 16/17 of a CPU each.
  CHECK(loop_share(16.0 / 17, 16, 16) == doctest::Approx(1).epsilon(1e-15));
  // With a CPU free nothing crowds the loop: a runnable thread gets at most one whole CPU.
  CHECK(fair_share(1, 2) == 1);
  CHECK(loop_share(0.5, 1, 4) == 0.5);
}

TEST_CASE("the median of the rounds") {
  CHECK(median_of({3}) == 3);
  CHECK(median_of({5, 1, 3}) == 3);
  CHECK(median_of({4, 1, 3, 2}) == 2.5);
}

TEST_CASE("calibrate loop measures every wait, round by round, and knows when nothing crowded it") {
  LoopOptions o;
  o.seconds = 0.01;
  o.rounds = 3;
  o.threads = 1;
  o.wait = WaitStyle::Sleep;
  const LoopCalibration c = calibrate_loop(o);
  CHECK(c.busy == 1);
  CHECK(c.crowded == (c.machine.logical_cpus < 2));
  CHECK(c.alone_rate > 0);
  for (WaitStyle w : kWaitStyles) {
    const WaitFigure& f = c.at(w);
    CHECK(f.share_low <= f.share);
    CHECK(f.share <= f.share_high);
    CHECK(f.loop_cpus >= 0);
    CHECK(f.mean_cpus >= 0);
    CHECK(f.busy_rate > 0);
  }
  // The key is the CPUs the wait asked for took, the mean of its rounds, within 0 to 1.
  CHECK(c.loop_cpu_share == std::clamp(c.at(WaitStyle::Sleep).mean_cpus, 0.0, 1.0));
  CHECK(c.fair_share_cpus == fair_share(1, c.machine.logical_cpus));
  // A sleeping thread takes next to no CPU, whatever the machine's load.
  CHECK(c.at(WaitStyle::Sleep).loop_cpus < 0.1);
  CHECK(std::string(wait_style_name(WaitStyle::Yield)) == "yield");
}
