// Runs independent chunks of work on several threads and hands their results on in order,
// holding at most a few chunks at once (memory stays bounded whatever the number of chunks).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "util/thread_group.hpp"

namespace pipesim {

// Calls produce(i, text) for every i in [0, n) (text starts empty) on `jobs` threads, and
// consume(text) on the calling thread in order of i. At most 2 x jobs chunks are held, each in
// a buffer that is reused (no allocation per chunk once the buffers have grown). The calling
// thread is one of the `jobs`: it hands on the next chunk when that is ready, and makes one
// itself while it is not (so `jobs` threads share `jobs` CPUs, and no chunk waits for a thread
// that only hands on to be scheduled). An exception from produce stops the work and is rethrown
// here; consume runs on this thread. When fewer threads can start than asked (a limit on
// processes or threads), those that did do the work with this one. Returns the threads that
// worked (1: this one alone).
template <class Produce, class Consume>
unsigned ordered_chunks(std::size_t n, unsigned jobs, Produce&& produce, Consume&& consume) {
  const auto serial = [&] {
    std::string text;
    for (std::size_t i = 0; i < n; ++i) {
      text.clear();
      produce(i, text);
      consume(text);
    }
    return 1u;
  };
  if (jobs <= 1 || n <= 1) return serial();
  const std::size_t window = 2 * static_cast<std::size_t>(jobs);
  // A cache line each: a thread appending to its chunk writes the string's size again and again,
  // and two slots on one line made the threads take it from each other at every append (JSON
  // sweep rows, two threads: 1.6 times one thread's rate, 1.7 with the slots apart).
  struct alignas(64) Slot {
    std::string text;
    bool ready = false;  // produced, not yet consumed; while false, the claiming thread owns text
  };
  std::vector<Slot> slots(window);
  std::mutex m;
  std::condition_variable free_cv;   // helpers wait here for room in the window
  std::condition_variable ready_cv;  // the caller waits here for the next chunk in order
  std::size_t next = 0;              // next chunk to claim
  std::size_t consumed = 0;          // chunks handed on
  bool stop = false;
  std::exception_ptr error;

  // Makes chunk i (claimed under the lock) and marks it ready; false when produce threw (the
  // error is kept and every thread told to stop).
  const auto make = [&](std::size_t i) {
    // The slot is free: chunk i - window was consumed before i could be claimed.
    std::string& text = slots[i % window].text;
    text.clear();
    try {
      produce(i, text);
    } catch (...) {
      std::lock_guard lock(m);
      if (!error) error = std::current_exception();
      stop = true;
      free_cv.notify_all();
      ready_cv.notify_all();
      return false;
    }
    std::lock_guard lock(m);
    slots[i % window].ready = true;
    if (i == consumed) ready_cv.notify_one();
    return true;
  };
  const auto helper = [&] {
    for (;;) {
      std::size_t i = 0;
      {
        std::unique_lock lock(m);
        free_cv.wait(lock, [&] { return stop || next >= n || next < consumed + window; });
        if (stop || next >= n) return;
        i = next++;
      }
      if (!make(i)) return;
    }
  };
  ThreadGroup threads(jobs - 1);
  for (unsigned t = 0; t + 1 < jobs && threads.start(helper); ++t) {
  }
  const auto finish = [&] {
    {
      std::lock_guard lock(m);
      stop = true;
    }
    free_cv.notify_all();
    ready_cv.notify_all();
    threads.join();
  };
  try {
    while (consumed < n) {
      Slot& slot = slots[consumed % window];
      std::size_t mine = n;  // a chunk this thread claims to make, when the next is not ready
      {
        std::unique_lock lock(m);
        ready_cv.wait(lock, [&] { return stop || slot.ready || (next < n && next < consumed + window); });
        if (!slot.ready) {
          if (stop) break;  // stopped by an error
          mine = next++;
        }
      }
      if (mine != n) {
        if (!make(mine)) break;
        continue;
      }
      // No other thread touches a ready slot: it is read here without the lock.
      consume(static_cast<const std::string&>(slot.text));
      {
        std::lock_guard lock(m);
        slot.ready = false;
        ++consumed;
      }
      free_cv.notify_one();
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
  if (error) std::rethrow_exception(error);
  return static_cast<unsigned>(threads.size()) + 1;
}

}  // namespace pipesim
