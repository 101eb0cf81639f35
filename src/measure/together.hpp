// A measurement's threads: all of them at once, or an error that says so.
#pragma once

#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/base/error.hpp"
#include "util/thread_group.hpp"

namespace pipesim {

// Runs body(t) for t in [0, n) on n threads that begin together (run_together): a figure at
// n threads is measured at n or not at all. When not all can start, throws Error naming
// `command` and the `option` that asks for fewer.
template <class Body>
void measure_together(unsigned n, Body&& body, const char* command, const char* option) {
  std::string why;
  if (!run_together(n, std::forward<Body>(body), &why))
    throw Error(fmt::format(
        "{}: cannot start {} threads at once ({}: a limit on processes, threads or memory, such as ulimit -u, "
        "ulimit -s or a container's pids limit); measure with fewer ({})",
        command, n, why, option));
}

}  // namespace pipesim
