// `pipesim calibrate memory`: one thread's and every thread's copy rate, into a shared-memory
// segment mapped fresh for each copy (what a worker's collate into new shared memory pays:
// cpu.memcpy_bandwidth) and between warm buffers (for comparison).
#pragma once

#include <cstddef>

#include "measure/machine.hpp"

namespace pipesim {

struct MemoryOptions {
  std::size_t copy_bytes = std::size_t{32} << 20;  // bytes per copy
  double seconds = 0.5;                            // per figure (at least 3 copies), after a warm-up
  unsigned threads = 0;                            // for the all-threads figures (0: every logical CPU)
};

struct CopyRate {
  double bytes_per_s = 0;  // one thread: its median copy; several: every byte over the wall time
  std::size_t copies = 0;
};

struct MemoryCalibration {
  Machine machine;
  MemoryOptions options;
  unsigned threads = 1;  // for the all-threads figures
  CopyRate one_fresh, one_warm, all_fresh, all_warm;
};

MemoryCalibration calibrate_memory(const MemoryOptions& o);

}  // namespace pipesim
