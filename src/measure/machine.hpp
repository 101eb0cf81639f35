// What a calibration says about where and when it was measured (docs/manual/measuring.md, "Measuring your machine"):
// the CPU model, the logical CPUs this process may run on, the kernel and the time.
#pragma once

#include <string>

namespace pipesim {

struct Machine {
  std::string cpu_model;      // /proc/cpuinfo "model name", or "unknown"
  unsigned logical_cpus = 1;  // CPUs this process may run on (its affinity mask)
  std::string kernel;         // "Linux 6.1.0-18-amd64"
  std::string when;           // UTC, ISO 8601: "2026-11-23T19:02:11Z"
};

Machine this_machine();

// Seconds on a monotonic clock.
double now_s();
// The calling thread's CPU time, seconds (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_s();

}  // namespace pipesim
