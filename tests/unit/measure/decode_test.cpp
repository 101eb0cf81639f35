// calibrate decode's measurement, on JPEG files made with the same library (no timing is
// checked: the machine is shared).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/base/error.hpp"
#include "measure/decode.hpp"

using namespace pipesim;

TEST_CASE("the synthetic JPEG set is the same every time, and ImageNet-sized") {
  const JpegSet a = synthetic_jpegs(3), b = synthetic_jpegs(3);
  REQUIRE(a.files.size() == 3);
  CHECK(a.files == b.files);
  CHECK(a.source == "synthetic");
  // 375 to 640 pixels wide, 4:3 to 3:4: 0.1 to 0.55 megapixels; tens of kilobytes each.
  CHECK(a.mean_pixels > 0.1e6);
  CHECK(a.mean_pixels < 0.55e6);
  CHECK(a.mean_bytes > 20e3);
  CHECK(a.mean_bytes < 300e3);
}

TEST_CASE("a folder's JPEG files are read below it, and those that do not decode are left out") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pipesim-decode-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "class_a");
  const JpegSet made = synthetic_jpegs(3);
  write_jpegs(made, (dir / "class_a").string());
  std::ofstream(dir / "broken.JPG") << "not a jpeg";
  std::ofstream(dir / "notes.txt") << "ignored";
  const JpegSet read = read_jpegs(dir.string(), 100, 1 << 30);
  CHECK(read.files.size() == 3);
  CHECK(read.skipped == 1);
  CHECK(read.files == made.files);                                // class_a/00000.jpg ... in path order
  CHECK(read_jpegs(dir.string(), 2, 1 << 30).files.size() == 2);  // at most max_files

  DecodeOptions o;
  o.seconds = 0.01;
  o.threads = {1, 2};
  const DecodeCalibration c = calibrate_decode(read, o, nullptr);
  REQUIRE(c.points.size() == 2);
  CHECK(c.points[0].threads == 1);
  CHECK(c.points[1].threads == 2);
  for (const auto& p : c.points) {
    CHECK(p.images > 0);
    CHECK(p.images_per_s > 0);
    CHECK(p.bytes_per_s > 0);
    CHECK(p.cpu_per_image > 0);
    CHECK(p.images_per_s_per_thread == p.images_per_s / p.threads);
    CHECK(p.bytes_per_s_per_thread == p.bytes_per_s / p.threads);
    CHECK(p.fitted > 0);
    CHECK(std::isfinite(p.residual));
    CHECK(p.oversubscribed == (p.threads > c.machine.logical_cpus));
    CHECK(p.cpu_share > 0);
    CHECK(p.cpu_share <= 1.05);  // a thread's CPU time never much exceeds its wall time
  }
  CHECK(c.fit.single == c.points[0].images_per_s);
  // Time slicing is fitted when a count is above the logical CPUs (on a machine with one).
  CHECK(c.oversubscription.has_value() == (c.machine.logical_cpus < 2));
  CHECK(c.library.rfind("libjpeg-turbo 2.", 0) == 0);

  fs::remove_all(dir / "class_a");
  CHECK_THROWS_AS(read_jpegs(dir.string(), 100, 1 << 30), Error);  // only a broken one left
  fs::remove_all(dir);
  CHECK_THROWS_AS(read_jpegs(dir.string(), 100, 1 << 30), Error);  // not a folder
}

TEST_CASE("a JPEG whose header claims more pixels than the budget left is not decoded") {
  // A synthetic file with its frame header (SOF0: FF C0, length, precision, then height and
  // width, big-endian) set to 16000 x 16000: 768 MB decoded from a file of tens of KB. With
  // 64 MiB to read, it is left out before anything is allocated for it; the honest file is kept.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pipesim-decode-bomb-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const JpegSet made = synthetic_jpegs(1);
  write_jpegs(made, dir.string());
  std::vector<unsigned char> bomb = made.files[0];
  std::size_t sof = 0;
  for (std::size_t i = 0; i + 8 < bomb.size(); ++i)
    if (bomb[i] == 0xFF && bomb[i + 1] == 0xC0) {
      sof = i;
      break;
    }
  REQUIRE(sof > 0);
  for (const std::size_t k : {std::size_t{5}, std::size_t{7}}) {
    bomb[sof + k] = 16000 >> 8;
    bomb[sof + k + 1] = 16000 & 0xFF;
  }
  std::ofstream(dir / "bomb.jpg", std::ios::binary)
      .write(reinterpret_cast<const char*>(bomb.data()), static_cast<std::streamsize>(bomb.size()));
  const JpegSet read = read_jpegs(dir.string(), 100, std::size_t{64} << 20);
  CHECK(read.files.size() == 1);
  CHECK(read.skipped == 1);
  CHECK(read.files[0] == made.files[0]);
  fs::remove(dir / "00000.jpg");
  CHECK_THROWS_WITH_AS(read_jpegs(dir.string(), 100, std::size_t{64} << 20),
                       doctest::Contains("larger, or decoding larger, than the 64 MiB read at most"), Error);
  fs::remove_all(dir);
}

TEST_CASE("default thread counts: 1, 2, 4 ... every logical CPU, and twice them for time slicing") {
  CHECK(default_thread_counts(1) == std::vector<unsigned>{1, 2});
  CHECK(default_thread_counts(2) == std::vector<unsigned>{1, 2, 4});
  CHECK(default_thread_counts(6) == std::vector<unsigned>{1, 2, 4, 6, 12});
  CHECK(default_thread_counts(8) == std::vector<unsigned>{1, 2, 4, 8, 16});
}

TEST_CASE("the measuring threads' buffers are bounded together before any thread starts") {
  // Each thread decodes into its own buffer, which grows to the largest image: a set whose
  // largest image is 100 MB decoded leaves room for 42 threads in 4 GiB, not 43.
  JpegSet set = synthetic_jpegs(1);
  set.max_pixels = 100e6 / 3;
  DecodeOptions o;
  o.seconds = 0.01;
  o.threads = {43};
  CHECK_THROWS_WITH_AS(calibrate_decode(set, o, nullptr), doctest::Contains("43 threads would each hold"), Error);
}

TEST_CASE("check_jpeg: decodes, broken, or too large for the bound, read from the header") {
  const JpegSet set = synthetic_jpegs(1);
  std::vector<unsigned char> scratch;
  CHECK(check_jpeg(set.files[0], std::size_t{64} << 20, scratch) == JpegCheck::Decodes);
  CHECK(static_cast<double>(scratch.size()) >= set.max_pixels * 3);
  CHECK(check_jpeg(set.files[0], 1000, scratch) == JpegCheck::TooLarge);
  CHECK(check_jpeg({}, std::size_t{64} << 20, scratch) == JpegCheck::Broken);
  std::vector<unsigned char> cut(set.files[0].begin(), set.files[0].begin() + 20);
  CHECK(check_jpeg(cut, std::size_t{64} << 20, scratch) == JpegCheck::Broken);
}
