#include "measure/storage.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <numeric>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "core/error.hpp"

namespace pipesim {

namespace {

struct File {
  std::string path;
  std::uint64_t bytes = 0;
};

// Reads one whole file (open, read to the end, close) into `buf`; the bytes read, or -1.
double read_whole(const std::string& path, std::vector<char>& buf) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  double total = 0;
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      ::close(fd);
      return -1;
    }
    if (n == 0) break;
    total += static_cast<double>(n);
  }
  ::close(fd);
  return total;
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

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

// `n` readers take the next file of the shuffled list in turn until `seconds` pass or (cold)
// every file has been read once; warm levels go round the list again.
ReadLevel read_level(const std::vector<File>& files, unsigned n, double seconds, bool cold) {
  std::atomic<std::size_t> next{0};
  std::vector<std::vector<double>> latencies(n);
  std::vector<double> bytes(n, 0);
  std::vector<std::thread> pool;
  const double start = now_s();
  for (unsigned t = 0; t < n; ++t)
    pool.emplace_back([&, t] {
      std::vector<char> buf(std::size_t{1} << 20);
      for (;;) {
        if (now_s() >= start + seconds) break;
        const std::size_t i = next.fetch_add(1);
        if (cold && i >= files.size()) break;
        const double t0 = now_s();
        const double got = read_whole(files[i % files.size()].path, buf);
        if (got < 0) continue;  // a file that went away: not a read
        latencies[t].push_back(now_s() - t0);
        bytes[t] += got;
      }
    });
  for (auto& t : pool) t.join();
  ReadLevel l;
  l.concurrency = n;
  l.seconds = std::max(now_s() - start, 1e-9);
  std::vector<double> all;
  for (unsigned t = 0; t < n; ++t) {
    all.insert(all.end(), latencies[t].begin(), latencies[t].end());
    l.bytes += bytes[t];
  }
  l.requests = all.size();
  l.requests_per_s = static_cast<double>(l.requests) / l.seconds;
  l.bytes_per_s = l.bytes / l.seconds;
  if (!all.empty()) {
    l.latency_mean_s = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
    l.latency_p50_s = quantile(all, 0.5);
    l.latency_p99_s = quantile(all, 0.99);
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
  if (!fs::is_directory(folder, ec)) throw Error(Origin{folder}, "not a folder of dataset files");
  std::vector<File> files;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (!it->is_regular_file(e2)) continue;
    const auto size = it->file_size(e2);
    if (!e2 && size > 0) files.push_back({it->path().string(), size});
  }
  if (ec) throw Error(Origin{folder}, fmt::format("cannot read the folder: {}", ec.message()));
  if (files.empty()) throw Error(Origin{folder}, "no files with data in the folder");
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
  // Bring the files in once (8 readers, every file at most, bounded in time), then measure.
  if (progress) progress("warm-up", 8);
  read_level(files, 8, 5 * o.seconds, true);
  for (unsigned n : c.options.concurrency) {
    if (progress) progress("warm", n);
    c.warm.push_back(read_level(files, n, o.seconds, false));
  }
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
