// Threads that survive what a container does to them: a start that fails (a limit on
// processes or threads, as a pids cgroup sets) is reported, not fatal, and an exception on a
// thread is carried to the one that joins it instead of ending the process.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace pipesim {

class ThreadGroup {
 public:
  explicit ThreadGroup(std::size_t most) { threads_.reserve(most); }
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;
  ~ThreadGroup() {
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

  // Runs f on a new thread; false when the thread could not start (nothing runs then).
  template <class F>
  bool start(F&& f) {
    try {
      threads_.emplace_back([this, f = std::forward<F>(f)]() mutable {
        try {
          f();
        } catch (...) {
          std::lock_guard lock(m_);
          if (!error_) error_ = std::current_exception();
        }
      });
      return true;
    } catch (const std::system_error& e) {
      start_error_ = e.code().message();
      return false;
    } catch (const std::bad_alloc&) {
      start_error_ = "out of memory";
      return false;
    }
  }

  // Why the last start failed ("" when none did).
  const std::string& start_error() const { return start_error_; }

  std::size_t size() const { return threads_.size(); }

  // Waits for every thread; then rethrows the first exception one of them ended with.
  void join() {
    for (auto& t : threads_)
      if (t.joinable()) t.join();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::exception_ptr error_;
  std::string start_error_;
};

// Runs body(t) for t in [0, n) on n threads that begin together: none starts its body until
// all n have started, so a measurement runs at the concurrency it names. Returns false, having
// run no body, when not all n threads can start (`why` then says why the last did not); an
// exception from a body is rethrown here once every thread has ended. One body runs on the
// calling thread.
template <class Body>
bool run_together(unsigned n, Body&& body, std::string* why = nullptr) {
  if (n == 1) {
    body(0u);
    return true;
  }
  std::mutex m;
  std::condition_variable cv;
  bool go = false, abandon = false;
  ThreadGroup group(n);
  unsigned started = 0;
  for (; started < n; ++started) {
    const bool ok = group.start([&, t = started] {
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return go || abandon; });
        if (abandon) return;
      }
      body(t);
    });
    if (!ok) break;
  }
  {
    std::lock_guard lock(m);
    (started == n ? go : abandon) = true;
  }
  cv.notify_all();
  if (why) *why = group.start_error();
  group.join();
  return started == n;
}

}  // namespace pipesim
