#include "measure/decode.hpp"

#include <fcntl.h>
#include <turbojpeg.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>

#include <fmt/format.h>

#include "core/base/error.hpp"
#include "core/stages/transform.hpp"
#include "measure/together.hpp"

#ifndef PIPESIM_TURBOJPEG_VERSION
#define PIPESIM_TURBOJPEG_VERSION "2"
#endif

namespace pipesim {

namespace {

struct HandleCloser {
  void operator()(void* h) const { tjDestroy(h); }
};
using Handle = std::unique_ptr<void, HandleCloser>;

Handle decompressor() {
  Handle h(tjInitDecompress());
  if (!h) throw Error("calibrate decode: libjpeg-turbo could not start a decompressor");
  return h;
}

// Width, height and pixels of a JPEG file, or false when it does not parse.
bool header(void* h, const std::vector<unsigned char>& f, int& width, int& height) {
  int subsamp = 0, colorspace = 0;
  return tjDecompressHeader3(h, f.data(), static_cast<unsigned long>(f.size()), &width, &height, &subsamp,
                             &colorspace) == 0 &&
         width > 0 && height > 0;
}

// Decodes one file to RGB into `out` (grown as needed); false when it fails.
bool decode(void* h, const std::vector<unsigned char>& f, std::vector<unsigned char>& out) {
  int width = 0, height = 0;
  if (!header(h, f, width, height)) return false;
  const std::size_t bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3;
  if (out.size() < bytes) out.resize(bytes);
  return tjDecompress2(h, f.data(), static_cast<unsigned long>(f.size()), out.data(), width, 0, height, TJPF_RGB, 0) ==
         0;
}

// A uniform number in [0, 1) from a generator whose sequence the standard fixes.
double uniform(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }

// Smooth noise: random values on a grid of `cell` pixels, interpolated bilinearly.
class ValueNoise {
 public:
  ValueNoise(std::mt19937_64& g, int width, int height, int cell)
      : cell_(cell), cols_(width / cell + 2), rows_(height / cell + 2) {
    grid_.resize(static_cast<std::size_t>(cols_ * rows_));
    for (double& v : grid_) v = uniform(g) * 2 - 1;
  }
  [[nodiscard]] double at(int x, int y) const {
    const int cx = x / cell_, cy = y / cell_;
    const double fx = static_cast<double>(x % cell_) / cell_, fy = static_cast<double>(y % cell_) / cell_;
    const auto g = [&](int i, int j) { return grid_[static_cast<std::size_t>(j * cols_ + i)]; };
    const double top = g(cx, cy) * (1 - fx) + g(cx + 1, cy) * fx;
    const double bottom = g(cx, cy + 1) * (1 - fx) + g(cx + 1, cy + 1) * fx;
    return top * (1 - fy) + bottom * fy;
  }

 private:
  int cell_, cols_, rows_;
  std::vector<double> grid_;
};

std::vector<unsigned char> synthetic_jpeg(std::mt19937_64& g, void* compressor) {
  const int width = 375 + static_cast<int>(uniform(g) * 266);  // 375 .. 640
  static constexpr double kAspects[] = {0.75, 0.75, 0.75, 1.0, 1.333, 0.667};
  const double aspect = kAspects[static_cast<std::size_t>(uniform(g) * 6)];
  const int height = std::max(240, static_cast<int>(width * aspect));
  // Luminance with detail at five scales, two chroma fields, and per-pixel noise.
  static constexpr int kCells[] = {96, 48, 24, 12, 6};
  static constexpr double kAmplitude[] = {70, 35, 18, 10, 6};
  std::vector<ValueNoise> luma, chroma;
  for (int c : kCells) luma.emplace_back(g, width, height, c);
  for (int i = 0; i < 2; ++i) chroma.emplace_back(g, width, height, 64);
  const double base = 70 + uniform(g) * 110;
  std::vector<unsigned char> rgb(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double l = base;
      for (std::size_t k = 0; k < luma.size(); ++k) l += kAmplitude[k] * luma[k].at(x, y);
      const double cb = 40 * chroma[0].at(x, y), cr = 40 * chroma[1].at(x, y);
      const double noise = (uniform(g) + uniform(g) + uniform(g) - 1.5) * 12;
      const double px[3] = {l + 1.4 * cr + noise, l - 0.34 * cb - 0.71 * cr + noise, l + 1.77 * cb + noise};
      for (int c = 0; c < 3; ++c)
        rgb[(static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3 +
            static_cast<std::size_t>(c)] = static_cast<unsigned char>(std::clamp(px[c], 0.0, 255.0));
    }
  static constexpr int kQuality[] = {85, 90, 95};
  const int quality = kQuality[static_cast<std::size_t>(uniform(g) * 3)];
  unsigned char* buf = nullptr;
  unsigned long size = 0;
  if (tjCompress2(compressor, rgb.data(), width, 0, height, TJPF_RGB, &buf, &size, TJSAMP_420, quality, 0) != 0)
    throw Error(
        fmt::format("calibrate decode: libjpeg-turbo could not make a test image: {}", tjGetErrorStr2(compressor)));
  std::vector<unsigned char> out(buf, buf + size);
  tjFree(buf);
  return out;
}

void summarise(JpegSet& s) {
  const Handle h = decompressor();
  double bytes = 0, pixels = 0;
  for (const auto& f : s.files) {
    int width = 0, height = 0;
    header(h.get(), f, width, height);
    bytes += static_cast<double>(f.size());
    pixels += static_cast<double>(width) * height;
    s.max_pixels = std::max(s.max_pixels, static_cast<double>(width) * height);
  }
  const double n = static_cast<double>(std::max<std::size_t>(s.files.size(), 1));
  s.mean_bytes = bytes / n;
  s.mean_pixels = pixels / n;
}

bool is_jpeg_name(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".jpg" || ext == ".jpeg";
}

}  // namespace

JpegCheck check_jpeg(const std::vector<unsigned char>& file, std::size_t max_bytes,
                     std::vector<unsigned char>& scratch) {
  const Handle h = decompressor();
  int width = 0, height = 0;
  if (file.empty() || !header(h.get(), file, width, height)) return JpegCheck::Broken;
  // A header may claim far more pixels than its file holds (16000 x 16000 in 27 KB): checked
  // before anything is allocated for them.
  if (static_cast<std::uintmax_t>(width) * static_cast<std::uintmax_t>(height) * 3 > max_bytes)
    return JpegCheck::TooLarge;
  return decode(h.get(), file, scratch) ? JpegCheck::Decodes : JpegCheck::Broken;
}

JpegSet synthetic_jpegs(std::size_t count) {
  JpegSet s;
  s.source = "synthetic";
  std::mt19937_64 g(20261123);
  Handle compressor(tjInitCompress());
  if (!compressor) throw Error("calibrate decode: libjpeg-turbo could not start a compressor");
  for (std::size_t i = 0; i < count; ++i) s.files.push_back(synthetic_jpeg(g, compressor.get()));
  summarise(s);
  return s;
}

JpegSet read_jpegs(const std::string& folder, std::size_t max_files, std::size_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw Error(Origin::file(folder), "not a folder of JPEG files");
  std::vector<fs::path> paths;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && is_jpeg_name(it->path())) paths.push_back(it->path());
  if (ec) throw Error(Origin::file(folder), fmt::format("cannot read the folder: {}", ec.message()));
  std::sort(paths.begin(), paths.end());
  JpegSet s;
  s.source = folder;
  std::vector<unsigned char> scratch;
  std::size_t total = 0, oversized = 0;
  for (const auto& p : paths) {
    if (s.files.size() >= max_files || total >= max_bytes) break;
    // Sized first, read in one go: a file past what is left of max_bytes is not read at all
    // (an 8 GB file once took minutes to reach the cap a byte at a time).
    std::error_code size_ec;
    const std::uintmax_t size = fs::file_size(p, size_ec);
    if (size_ec || size > max_bytes - total) {
      ++s.skipped;
      ++oversized;
      continue;
    }
    std::vector<unsigned char> f(static_cast<std::size_t>(size));
    std::ifstream in(p, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(f.data()), static_cast<std::streamsize>(f.size()))) {
      ++s.skipped;
      continue;
    }
    // The decoded image must fit in what is left of max_bytes too.
    const JpegCheck check = check_jpeg(f, max_bytes - total, scratch);
    if (check != JpegCheck::Decodes) {
      ++s.skipped;
      if (check == JpegCheck::TooLarge) ++oversized;
      continue;
    }
    total += f.size();
    s.files.push_back(std::move(f));
  }
  if (s.files.empty())
    throw Error(Origin::file(folder),
                paths.empty() ? "no JPEG files (*.jpg, *.jpeg) in the folder"
                              : fmt::format("none of its {} JPEG files decodes{}", paths.size(),
                                            oversized ? fmt::format(" ({} larger, or decoding larger, than the {} "
                                                                    "MiB read at most)",
                                                                    oversized, max_bytes >> 20)
                                                      : std::string()));
  summarise(s);
  return s;
}

void write_jpegs(const JpegSet& set, const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw Error(Origin::file(folder), "not a folder (--save-synthetic writes into one that exists)");
  // New files only: none of the names may exist (checked for all before the first is written,
  // so that a refusal leaves nothing behind), and each is created exclusively, which neither
  // replaces a file that appeared since nor follows a link out of the folder.
  const auto name = [&](std::size_t i) { return fmt::format("{}/{:05d}.jpg", folder, i); };
  for (std::size_t i = 0; i < set.files.size(); ++i)
    if (fs::symlink_status(name(i), ec).type() != fs::file_type::not_found)
      throw Error(Origin::file(name(i)),
                  fmt::format("exists: --save-synthetic writes {} new files (00000.jpg to {:05d}.jpg) "
                              "and replaces none; give an empty folder",
                              set.files.size(), set.files.size() - 1));
  for (std::size_t i = 0; i < set.files.size(); ++i) {
    const std::string path = name(i);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) throw Error(Origin::file(path), fmt::format("cannot create the file: {}", std::strerror(errno)));
    const auto& bytes = set.files[i];
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int err = errno;
        ::close(fd);
        throw Error(Origin::file(path), fmt::format("cannot write the file: {}", std::strerror(err)));
      }
      done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0)
      throw Error(Origin::file(path), fmt::format("cannot write the file: {}", std::strerror(errno)));
  }
}

std::vector<unsigned> default_thread_counts(unsigned logical) {
  std::vector<unsigned> out;
  for (unsigned n = 1; n < logical; n *= 2) out.push_back(n);
  out.push_back(std::max(1u, logical));
  out.push_back(2 * std::max(1u, logical));
  return out;
}

DecodeCalibration calibrate_decode(const JpegSet& set, const DecodeOptions& o, void (*progress)(unsigned)) {
  DecodeCalibration c;
  c.machine = this_machine();
  c.options = o;
  auto& counts = c.options.threads;
  if (counts.empty()) {
    counts = default_thread_counts(c.machine.logical_cpus);
  } else {
    // The scaling law is fitted relative to one thread: 1 is always measured, each count once;
    // time slicing against the logical CPUs, measured when a count is above them.
    counts.push_back(1);
    const unsigned logical = std::max(1u, c.machine.logical_cpus);
    if (std::any_of(counts.begin(), counts.end(), [&](unsigned n) { return n > logical; })) counts.push_back(logical);
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  }
  // Every thread's buffer grows to the largest image: bounded together before any starts.
  const double most = static_cast<double>(counts.back()) * set.max_pixels * 3;
  if (most > kDecodeBuffersBytes)
    throw Error(Origin::argument("--threads"),
                fmt::format("{} threads would each hold the largest image decoded ({:.1f} MB), {:.1f} GB in all; "
                            "at most {:.1f} GB: give fewer threads or smaller images",
                            counts.back(), set.max_pixels * 3 / 1e6, most / 1e9, kDecodeBuffersBytes / 1e9));
  c.library = fmt::format("libjpeg-turbo {}", PIPESIM_TURBOJPEG_VERSION);
  c.files = set.files.size();
  c.source = set.source;
  c.skipped = set.skipped;
  c.mean_bytes = set.mean_bytes;
  c.mean_pixels = set.mean_pixels;
  for (unsigned n : c.options.threads) {
    if (progress) progress(n);
    struct Tally {
      std::uint64_t images = 0, bytes = 0;
      double seconds = 0, cpu = 0;
      bool failed = false;
    };
    std::vector<Tally> tally(n);
    measure_together(
        n,
        [&](unsigned t) {
          Tally& my = tally[t];
          const Handle h(tjInitDecompress());
          if (!h) {
            my.failed = true;
            return;
          }
          std::vector<unsigned char> out;
          // Each thread starts at its own place in the set; a warm-up pass of a few files first.
          std::size_t i = t * set.files.size() / n;
          for (std::size_t k = 0; k < std::min<std::size_t>(4, set.files.size()); ++k)
            decode(h.get(), set.files[(i + k) % set.files.size()], out);
          const double start = now_s(), cpu = thread_cpu_s();
          do {
            const auto& f = set.files[i++ % set.files.size()];
            if (!decode(h.get(), f, out)) my.failed = true;
            ++my.images;
            my.bytes += f.size();
          } while (now_s() < start + o.seconds);
          my.seconds = now_s() - start;
          my.cpu = thread_cpu_s() - cpu;
        },
        "calibrate decode", "--threads");
    DecodePoint p;
    p.threads = n;
    for (const auto& my : tally) {
      if (my.failed) throw Error("calibrate decode: a file stopped decoding during the measurement");
      p.images += my.images;
      p.seconds = std::max(p.seconds, my.seconds);
      p.images_per_s += static_cast<double>(my.images) / my.seconds;
      p.bytes_per_s += static_cast<double>(my.bytes) / my.seconds;
      p.cpu_per_image += my.cpu / static_cast<double>(my.images) / static_cast<double>(n);
      p.cpu_share = std::min(p.cpu_share, my.cpu / my.seconds);
    }
    p.images_per_s_per_thread = p.images_per_s / static_cast<double>(n);
    p.bytes_per_s_per_thread = p.bytes_per_s / static_cast<double>(n);
    c.points.push_back(p);
  }
  // The scaling law up to the logical CPUs; past them the threads take turns, and what that
  // costs is the CPU time per image against that at the logical CPUs.
  const double logical = std::max(1u, c.machine.logical_cpus);
  std::vector<ScalingPoint> points;
  std::vector<SlicingPoint> slicing;
  for (const auto& p : c.points) {
    const double n = p.threads;
    if (n <= logical) points.push_back({n, p.images_per_s});
    slicing.push_back({n, p.cpu_per_image});
  }
  c.fit = fit_scaling(points);
  c.oversubscription = fit_oversubscription(slicing, logical);
  for (auto& p : c.points) {
    const double n = p.threads;
    p.oversubscribed = n > logical;
    p.fitted = p.oversubscribed
                   ? usl_rate(c.fit, logical) / oversubscription_factor(c.oversubscription.value_or(0), n, logical)
                   : usl_rate(c.fit, n);
    p.residual = (p.fitted - p.images_per_s) / p.images_per_s;
  }
  return c;
}

const DecodePoint* DecodeCalibration::starved() const {
  for (const DecodePoint& p : points)
    if (p.threads <= std::max(1u, machine.logical_cpus) && p.cpu_share < kTrustedCpuShare) return &p;
  return nullptr;
}

}  // namespace pipesim
