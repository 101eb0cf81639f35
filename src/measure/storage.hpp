// `pipesim calibrate storage DIR`: reads a dataset's files the way a loader does (whole files,
// shuffled, one request per file per reader), cold (pages dropped with posix_fadvise, no root
// needed) and warm, at concurrency 1, 2, 4 ... 64; fits storage.latency, storage.iops and
// storage.read_bandwidth (docs/manual/measuring.md, "Measuring your machine"). Never writes to DIR.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "measure/machine.hpp"

namespace pipesim {

struct StorageOptions {
  double seconds = 1.0;               // per concurrency level and pass, at most
  std::vector<unsigned> concurrency;  // empty: 1, 2, 4 ... 64
  std::size_t max_files = 100000;     // files listed, at most (a shuffled sample)
};

struct ReadLevel {
  unsigned concurrency = 1;
  std::uint64_t requests = 0;
  double bytes = 0;
  double seconds = 0;         // wall time of the level
  double requests_per_s = 0;  // in all
  double bytes_per_s = 0;     // in all
  double latency_mean_s = 0;  // one whole-file read: open, read, close
  double latency_p50_s = 0;
  double latency_p99_s = 0;
  int error = 0;  // errno of a failed open or read, if any
};

struct StorageCalibration {
  Machine machine;
  StorageOptions options;
  std::string folder;
  std::size_t files = 0;  // files listed
  double mean_file_bytes = 0;
  bool cold_dropped = true;  // posix_fadvise(DONTNEED) was accepted for every file
  std::vector<ReadLevel> cold, warm;
  // The fit, from the cold levels.
  double read_bandwidth = 0;    // the most bytes/s any level reached
  double iops = 0;              // the most requests/s any level reached
  double latency_s = 0;         // concurrency 1: mean time per read less its bytes at read_bandwidth
  unsigned saturates_at = 1;    // the least concurrency that reached 90% of read_bandwidth
  bool cold_like_warm = false;  // cold within 20% of warm at concurrency 1: the drop may not have worked
  // The cold figures describe the storage: every file's pages were dropped and cold reads were
  // slower than warm ones. Otherwise they may be the page cache's, and no key should be taken.
  [[nodiscard]] bool trusted() const { return cold_dropped && !cold_like_warm; }
};

// The concurrency levels measured by default: 1, 2, 4 ... 64.
std::vector<unsigned> default_concurrency();

// `progress` (may be null) is called before each level. Throws Error when DIR cannot be read
// or holds no regular file with data.
StorageCalibration calibrate_storage(const std::string& folder, const StorageOptions& o,
                                     void (*progress)(const char* pass, unsigned concurrency));

}  // namespace pipesim
