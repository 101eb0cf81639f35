#include "measure/machine.hpp"

#include <sched.h>
#include <sys/utsname.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <thread>

#include <fmt/format.h>

namespace pipesim {

Machine this_machine() {
  Machine m;
  m.cpu_model = "unknown";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) m.cpu_model = line.substr(start);
    break;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    m.logical_cpus = static_cast<unsigned>(CPU_COUNT(&set));
  else
    m.logical_cpus = std::max(1u, std::thread::hardware_concurrency());
  utsname u{};
  if (uname(&u) == 0) m.kernel = fmt::format("{} {}", u.sysname, u.release);
  const std::time_t t = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  m.when = buf;
  return m;
}

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace pipesim
