#include "measure/storage.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "core/base/error.hpp"
#include "core/base/statistics.hpp"
#include "measure/together.hpp"

namespace pipesim {

namespace {

struct File {
  std::string path;
  std::uint64_t bytes = 0;
};

struct Read {
  double bytes = 0;    // read, whole file or not
  bool whole = false;  // to its end before the deadline
  int error = 0;       // errno of a failed open or read
};

// Reads one file (open, read to the end, close) into `buf`, stopping at `deadline` (a file of
// 50 GB is not read for minutes past a measurement of 0.05 s).
Read read_whole(const std::string& path, std::vector<char>& buf, double deadline) {
  Read r;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    r.error = errno;
    return r;
  }
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      r.error = errno;
      break;
    }
    if (n == 0) {
      r.whole = true;
      break;
    }
    r.bytes += static_cast<double>(n);
    if (now_s() >= deadline) break;
  }
  ::close(fd);
  return r;
}

// Asks the kernel to drop the files' cached pages; false when it refused any.
bool drop_cached(const std::vector<File>& files) {
  bool ok = true;
  for (const auto& f : files) {
    const int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      ok = false;
      continue;
    }
    ok &= posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
  }
  return ok;
}

// `n` readers take the next file of the shuffled list in turn until `seconds` pass or (cold)
// every file has been read once; warm levels go round the list again.
ReadLevel read_level(const std::vector<File>& files, unsigned n, double seconds, bool cold) {
  std::atomic<std::size_t> next{0};
  std::vector<std::vector<double>> latencies(n);
  std::vector<double> bytes(n, 0);
  std::vector<int> errors(n, 0);
  double start = 0;
  std::once_flag started;
  measure_together(
      n,
      [&](unsigned t) {
        std::call_once(started, [&] { start = now_s(); });
        std::vector<char> buf(std::size_t{1} << 20);
        for (;;) {
          if (now_s() >= start + seconds) break;
          const std::size_t i = next.fetch_add(1);
          if (cold && i >= files.size()) break;
          const double t0 = now_s();
          const Read got = read_whole(files[i % files.size()].path, buf, start + seconds);
          bytes[t] += got.bytes;
          if (got.error) errors[t] = got.error;
          if (got.whole) latencies[t].push_back(now_s() - t0);  // a file read whole is a request
        }
      },
      "calibrate storage", "--concurrency");
  ReadLevel l;
  l.concurrency = n;
  l.seconds = std::max(now_s() - start, 1e-9);
  std::vector<double> all;
  for (unsigned t = 0; t < n; ++t) {
    all.insert(all.end(), latencies[t].begin(), latencies[t].end());
    l.bytes += bytes[t];
    if (errors[t]) l.error = errors[t];
  }
  l.requests = all.size();
  l.requests_per_s = static_cast<double>(l.requests) / l.seconds;
  l.bytes_per_s = l.bytes / l.seconds;
  if (!all.empty()) {
    l.latency_mean_s = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
    const Spread s = spread(std::move(all));  // nearest rank: p99 of two reads is the slower one
    l.latency_p50_s = s.p50;
    l.latency_p99_s = s.p99;
  }
  return l;
}

}  // namespace

std::vector<unsigned> default_concurrency() { return {1, 2, 4, 8, 16, 32, 64}; }

StorageCalibration calibrate_storage(const std::string& folder, const StorageOptions& o,
                                     void (*progress)(const char*, unsigned)) {
  namespace fs = std::filesystem;
  StorageCalibration c;
  c.machine = this_machine();
  c.options = o;
  if (c.options.concurrency.empty()) c.options.concurrency = default_concurrency();
  c.folder = folder;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw Error(Origin::file(folder), "not a folder of dataset files");
  std::vector<File> files;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (!it->is_regular_file(e2)) continue;
    const auto size = it->file_size(e2);
    if (!e2 && size > 0) files.push_back({it->path().string(), size});
  }
  if (ec) throw Error(Origin::file(folder), fmt::format("cannot read the folder: {}", ec.message()));
  if (files.empty()) throw Error(Origin::file(folder), "no files with data in the folder");
  // A loader reads in a shuffled order: a fixed seed, so that two runs read alike.
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.path < b.path; });
  std::mt19937_64 g(20261123);
  for (std::size_t i = files.size(); i > 1; --i) std::swap(files[i - 1], files[g() % i]);
  if (files.size() > o.max_files) files.resize(o.max_files);
  c.files = files.size();
  double total = 0;
  for (const auto& f : files) total += static_cast<double>(f.bytes);
  c.mean_file_bytes = total / static_cast<double>(files.size());

  for (unsigned n : c.options.concurrency) {
    if (progress) progress("cold", n);
    c.cold_dropped &= drop_cached(files);
    c.cold.push_back(read_level(files, n, o.seconds, true));
  }
  // Bring the files in once (8 readers, or the most asked for if fewer; every file at most,
  // bounded in time), then measure.
  const unsigned warmers = std::min(8u, *std::max_element(c.options.concurrency.begin(), c.options.concurrency.end()));
  if (progress) progress("warm-up", warmers);
  read_level(files, warmers, 5 * o.seconds, true);
  for (unsigned n : c.options.concurrency) {
    if (progress) progress("warm", n);
    c.warm.push_back(read_level(files, n, o.seconds, false));
  }
  // Nothing read is no measurement: a rate of 0 B/s is not a figure pipesim could use.
  const auto nothing = [&](const std::vector<ReadLevel>& levels) {
    return std::all_of(levels.begin(), levels.end(), [](const ReadLevel& l) { return l.bytes <= 0; });
  };
  if (nothing(c.cold) || nothing(c.warm)) {
    int error = 0;
    for (const auto& l : c.cold) error = error ? error : l.error;
    throw Error(Origin::file(folder), error ? fmt::format("cannot read the files: {}", std::strerror(error))
                                            : std::string("no bytes could be read from the files"));
  }
  if (c.cold.front().requests == 0)
    throw Error(Origin::file(folder),
                fmt::format("no file was read to its end in {} s by one reader, so a read's latency "
                            "cannot be measured: give it more time (--time) or smaller files",
                            o.seconds));
  for (const auto& l : c.cold) {
    c.read_bandwidth = std::max(c.read_bandwidth, l.bytes_per_s);
    c.iops = std::max(c.iops, l.requests_per_s);
  }
  for (const auto& l : c.cold)
    if (l.bytes_per_s >= 0.9 * c.read_bandwidth) {
      c.saturates_at = l.concurrency;
      break;
    }
  const ReadLevel& one = c.cold.front();
  const double per_request = one.requests ? one.bytes / static_cast<double>(one.requests) : 0;
  c.latency_s = std::max(one.latency_mean_s - per_request / std::max(c.read_bandwidth, 1.0), one.latency_mean_s * 0.01);
  const ReadLevel& warm_one = c.warm.front();
  c.cold_like_warm = warm_one.bytes_per_s > 0 && one.bytes_per_s >= 0.8 * warm_one.bytes_per_s;
  return c;
}

}  // namespace pipesim
