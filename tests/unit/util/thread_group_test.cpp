// Threads that may not start and may throw: reported to the caller, never std::terminate.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "util/ordered_chunks.hpp"
#include "util/thread_group.hpp"

using namespace pipesim;

namespace {

// A thread stack larger than the address space can map: no new thread starts until restored
// (as under a pids limit). The calling thread's stack is already mapped and runs on.
struct NoNewThreads {
  rlimit saved{};
  bool active = false;
  NoNewThreads() {
    if (getrlimit(RLIMIT_STACK, &saved) != 0) return;
    rlimit huge = saved;
    huge.rlim_cur = rlim_t{1} << 40;
    if (saved.rlim_max != RLIM_INFINITY && huge.rlim_cur > saved.rlim_max) return;
    active = setrlimit(RLIMIT_STACK, &huge) == 0;
  }
  ~NoNewThreads() {
    if (active) setrlimit(RLIMIT_STACK, &saved);
  }
};

}  // namespace

TEST_CASE("run_together runs every body at once and carries an exception out") {
  std::atomic<unsigned> ran{0};
  CHECK(run_together(8, [&](unsigned) { ++ran; }));
  CHECK(ran == 8);
  CHECK_THROWS_AS(run_together(4,
                               [&](unsigned t) {
                                 if (t == 2) throw std::runtime_error("copy failed");
                               }),
                  std::runtime_error);
  // One body needs no thread: it runs on the caller's.
  CHECK(run_together(1, [&](unsigned t) { CHECK(t == 0); }));
}

TEST_CASE("threads that cannot start: the measurement refuses, the chunks run on fewer") {
  // Under AddressSanitizer threads take their stacks their own way and may start anyway:
  // the checks then hold for threads that did start.
  const NoNewThreads limit;
  if (!limit.active) return;
  std::string why;
  std::atomic<unsigned> ran{0};
  const bool all = run_together(
      4, [&](unsigned) { ++ran; }, &why);
  if (!all) {
    CHECK(ran == 0);  // none of the bodies ran: the measurement is not made at fewer threads
    CHECK(!why.empty());
  }
  std::string text;
  const unsigned used = ordered_chunks(
      50, 8, [](std::size_t i, std::string& t) { t = std::to_string(i) + ","; },
      [&](const std::string& t) { text += t; });
  std::string want;
  for (int i = 0; i < 50; ++i) want += std::to_string(i) + ",";
  CHECK(text == want);
  CHECK(used >= 1);
}
