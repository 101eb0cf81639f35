#include "measure/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "core/base/error.hpp"
#include "measure/together.hpp"

namespace pipesim {

namespace {

// Memory mapped on construction and returned on destruction: each new one is fresh pages,
// faulted in by the first write. Shared memory (a memfd, the tmpfs pages /dev/shm gives too)
// is what a DataLoader worker collates into: a new segment per batch, whose pages cost more to
// fault in than anonymous ones (about 1.5x on the 2-vCPU VMs pipesim is validated on).
class Mapping {
 public:
  enum class Kind { Anonymous, Shared };
  Mapping(std::size_t bytes, Kind kind) : bytes_(bytes) {
    int fd = -1;
    if (kind == Kind::Shared) {
      fd = memfd_create("pipesim-calibrate", MFD_CLOEXEC);
      if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
        if (fd >= 0) close(fd);
        throw Error(fmt::format("calibrate memory: cannot create {} bytes of shared memory", bytes));
      }
    }
    void* p = kind == Kind::Shared ? mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                                   : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fd >= 0) close(fd);  // the mapping keeps the segment
    if (p == MAP_FAILED) throw Error(fmt::format("calibrate memory: cannot map {} bytes", bytes));
    data_ = static_cast<char*>(p);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() { munmap(data_, bytes_); }
  [[nodiscard]] char* data() const { return data_; }

 private:
  char* data_ = nullptr;
  std::size_t bytes_;
};

// One thread copying for `seconds`: each copy's rate, into a fresh mapping or a warm one, and
// the loop's own time (set-up and warm-up copy left out).
constexpr std::size_t kMinCopies = 3;  // per timed loop, however short its time

struct Loop {
  std::vector<double> rates;
  double seconds = 0;
};

Loop copy_loop(const MemoryOptions& o, bool fresh, double seconds) {
  const Mapping src(o.copy_bytes, Mapping::Kind::Anonymous);
  std::memset(src.data(), 1, o.copy_bytes);
  std::unique_ptr<Mapping> warm;
  if (!fresh) {
    warm = std::make_unique<Mapping>(o.copy_bytes, Mapping::Kind::Anonymous);
    std::memcpy(warm->data(), src.data(), o.copy_bytes);  // fault it in: the warm-up
  }
  Loop l;
  const double start = now_s();
  do {
    const double t0 = now_s();
    if (fresh) {
      // A new shared-memory segment per copy, returned after it: both are part of what a new
      // buffer per batch costs.
      const Mapping dst(o.copy_bytes, Mapping::Kind::Shared);
      std::memcpy(dst.data(), src.data(), o.copy_bytes);
    } else {
      std::memcpy(warm->data(), src.data(), o.copy_bytes);
    }
    l.rates.push_back(static_cast<double>(o.copy_bytes) / std::max(now_s() - t0, 1e-9));
  } while (now_s() < start + seconds || l.rates.size() < kMinCopies);
  l.seconds = now_s() - start;
  return l;
}

CopyRate one_thread(const MemoryOptions& o, bool fresh) {
  copy_loop(o, fresh, 0);  // warm-up
  Loop l = copy_loop(o, fresh, o.seconds);
  auto& r = l.rates;
  std::nth_element(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(r.size() / 2), r.end());
  return {r[r.size() / 2], r.size()};
}

// Every thread copying at once: the sum of each thread's bytes over its loop's time.
CopyRate all_threads(const MemoryOptions& o, bool fresh, unsigned threads) {
  std::vector<Loop> per(threads);
  measure_together(
      threads, [&](unsigned i) { per[i] = copy_loop(o, fresh, o.seconds); }, "calibrate memory", "--threads");
  CopyRate c;
  for (const auto& l : per) {
    c.copies += l.rates.size();
    c.bytes_per_s += static_cast<double>(l.rates.size()) * static_cast<double>(o.copy_bytes) / l.seconds;
  }
  return c;
}

}  // namespace

MemoryCalibration calibrate_memory(const MemoryOptions& o) {
  MemoryCalibration c;
  c.machine = this_machine();
  c.options = o;
  c.threads = o.threads ? o.threads : c.machine.logical_cpus;
  c.one_fresh = one_thread(o, true);
  c.one_warm = one_thread(o, false);
  c.all_fresh = all_threads(o, true, c.threads);
  c.all_warm = all_threads(o, false, c.threads);
  return c;
}

}  // namespace pipesim
