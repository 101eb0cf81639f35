// The ordered chunk pool: results in order whatever the threads do, a bounded window, and an
// error in one chunk stopping the rest and reaching the caller.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "util/ordered_chunks.hpp"

using namespace pipesim;

TEST_CASE("ordered_chunks hands results on in order for any number of jobs") {
  for (unsigned jobs : {1u, 2u, 3u, 8u}) {
    std::string all;
    ordered_chunks(
        500, jobs, [](std::size_t i, std::string& text) { text = std::to_string(i) + ","; },
        [&](const std::string& text) { all += text; });
    std::string want;
    for (std::size_t i = 0; i < 500; ++i) want += std::to_string(i) + ",";
    CAPTURE(jobs);
    CHECK(all == want);
  }
}

TEST_CASE("ordered_chunks holds at most two chunks per job ahead of the caller") {
  std::atomic<std::size_t> produced{0};
  std::size_t consumed = 0;
  std::size_t most_ahead = 0;
  ordered_chunks(
      200, 2,
      [&](std::size_t, std::string& text) {
        text = "x";
        ++produced;
      },
      [&](const std::string&) {
        most_ahead = std::max(most_ahead, produced.load() - consumed);
        ++consumed;
      });
  CHECK(consumed == 200);
  CHECK(most_ahead <= 4);
}

TEST_CASE("an exception in a chunk reaches the caller, and no chunk after it is handed on") {
  for (unsigned jobs : {1u, 2u}) {
    std::size_t handed = 0;
    CHECK_THROWS_AS(ordered_chunks(
                        100, jobs,
                        [](std::size_t i, std::string& text) {
                          if (i == 37) throw std::runtime_error("chunk 37");
                          text = "ok";
                        },
                        [&](const std::string&) { ++handed; }),
                    std::runtime_error);
    CHECK(handed <= 37);
  }
}

TEST_CASE("the calling thread makes chunks too while the next one is not ready") {
  // jobs threads in all, the caller one of them: with chunks slow to make and quick to hand on,
  // it makes some itself rather than wait.
  std::mutex m;
  std::set<std::thread::id> makers;
  std::string all;
  const unsigned used = ordered_chunks(
      20, 2,
      [&](std::size_t i, std::string& text) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        text = std::to_string(i) + ",";
        std::lock_guard lock(m);
        makers.insert(std::this_thread::get_id());
      },
      [&](const std::string& text) { all += text; });
  std::string want;
  for (int i = 0; i < 20; ++i) want += std::to_string(i) + ",";
  CHECK(all == want);
  CHECK(makers.count(std::this_thread::get_id()) == 1);
  CHECK(makers.size() <= used);  // the helper may start late; never more makers than threads
}
