// `pipesim calibrate decode`: JPEG decode rates with libjpeg-turbo (TurboJPEG 2.x API) on 1,
// 2, 4 ... threads at once, and the scaling law fitted to them (docs/model.md, "What real loaders do", and
// docs/manual/measuring.md, "Measuring your machine").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analyses/scaling_fit.hpp"
#include "measure/machine.hpp"

namespace pipesim {

// JPEG files held in memory: the set every thread decodes in turn.
struct JpegSet {
  std::vector<std::vector<unsigned char>> files;
  std::string source;       // the folder, or "synthetic"
  std::size_t skipped = 0;  // files in the folder that did not decode
  double mean_bytes = 0;
  double mean_pixels = 0;  // width x height
  double max_pixels = 0;   // the largest image's: what every measuring thread's buffer grows to
};

// What a JPEG file is to the decoder: one that decodes, one that does not parse or decode
// (Broken), or one whose decoded image (width x height x 3 bytes) would exceed the bound
// (TooLarge: its header is read, and nothing is allocated for its pixels).
enum class JpegCheck { Decodes, Broken, TooLarge };
// Checks one file by decoding it into `scratch` (grown as needed, kept for the next file) when
// its header parses and its image fits in `max_bytes`.
JpegCheck check_jpeg(const std::vector<unsigned char>& file, std::size_t max_bytes,
                     std::vector<unsigned char>& scratch);
// The most the measuring threads' decode buffers may hold together: each grows to the set's
// largest image, so thread count x largest image is bounded before any thread starts.
inline constexpr double kDecodeBuffersBytes = 4.0 * (1u << 30);

// Makes `count` JPEG files from a fixed seed: 375 to 640 pixels wide and 4:3 to 3:4, with
// detail at several scales and sensor-like noise, 4:2:0 at quality 85, 90 or 95 (what
// ImageNet-like photographs look like to a decoder). The same set every time.
JpegSet synthetic_jpegs(std::size_t count);
// Reads up to `max_files` JPEG files (*.jpg, *.jpeg, any case) below `folder`, in path order,
// at most `max_bytes` in all; keeps those that decode. Throws Error when the folder cannot be
// read or holds none that decode.
JpegSet read_jpegs(const std::string& folder, std::size_t max_files, std::size_t max_bytes);
// Writes the set to `folder` as 00000.jpg, 00001.jpg ... (the folder must exist).
void write_jpegs(const JpegSet& set, const std::string& folder);

struct DecodeOptions {
  double seconds = 1.0;  // per thread count, after a warm-up
  // Thread counts (1 is added, and the logical CPUs when a count is above them); empty: 1, 2,
  // 4 ... every logical CPU, and twice them.
  std::vector<unsigned> threads;
};

struct DecodePoint {
  unsigned threads = 1;
  std::uint64_t images = 0;            // decoded in all
  double seconds = 0;                  // the slowest thread's timed loop
  double images_per_s = 0;             // in all
  double bytes_per_s = 0;              // JPEG bytes decoded per second, in all
  double images_per_s_per_thread = 0;  // images_per_s / threads
  double bytes_per_s_per_thread = 0;   // bytes_per_s / threads
  double cpu_per_image = 0;            // CPU seconds per image, the mean over the threads
  double cpu_share = 1;                // each thread's CPU time over its wall time: the least of them
  double fitted = 0;                   // images/s in all by the fitted law (and time slicing past the CPUs)
  double residual = 0;                 // (fitted - measured) / measured
  bool oversubscribed = false;         // more threads than logical CPUs
};

// A thread decoding alone on a CPU runs for nearly all of its wall time; less than this share
// means the CPU was taken by other work while it measured.
inline constexpr double kTrustedCpuShare = 0.8;

struct DecodeCalibration {
  Machine machine;
  DecodeOptions options;
  std::string library;  // "libjpeg-turbo 2.1.5"
  std::size_t files = 0;
  std::string source;
  std::size_t skipped = 0;
  double mean_bytes = 0, mean_pixels = 0;
  std::vector<DecodePoint> points;
  ScalingFit fit;  // over images/s, up to the logical CPUs
  // cpu.oversubscription_cost from the CPU time per image past the logical CPUs against at them
  // (threads of one process: switching between them is cheaper than between a loader's worker
  // processes, so this is a lower bound for those); nullopt when no count was above them.
  std::optional<double> oversubscription;
  // Two threads or more decoded no faster than one (sigma >= 1 with two or more counts up to the
  // logical CPUs), or a thread got less than kTrustedCpuShare of its wall time on a CPU at a
  // count up to the logical CPUs (starved()): other work was taking the CPUs, so the rates and
  // the law are the busy machine's, not the decoder's.
  [[nodiscard]] bool busy() const { return (fit.sigma >= 1 && machine.logical_cpus >= 2) || starved() != nullptr; }
  // The first point up to the logical CPUs whose threads did not get their CPUs, or nullptr.
  [[nodiscard]] const DecodePoint* starved() const;
};

// The thread counts measured by default: 1, 2, 4 ... below `logical`, `logical`, and twice it
// (time slicing).
std::vector<unsigned> default_thread_counts(unsigned logical);

// `progress` (may be null) is called before each thread count is measured.
DecodeCalibration calibrate_decode(const JpegSet& set, const DecodeOptions& o, void (*progress)(unsigned threads));

}  // namespace pipesim
