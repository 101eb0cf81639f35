// `pipesim calibrate decode|storage|memory|loop`: measures this machine and prints a TOML fragment (or
// JSON) that a scenario can `use` (docs/manual/measuring.md, "Measuring your machine").
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/common.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "measure/decode.hpp"
#include "measure/loop.hpp"
#include "measure/memory.hpp"
#include "measure/storage.hpp"
#include "report/calibration.hpp"

namespace pipesim {

namespace {

struct CalibrateOptions {
  Format format = Format::Toml;
  std::string output;  // -o FILE; stdout when empty
  double seconds = 0.5;
  unsigned threads = 0;
  // decode
  std::string folder;  // JPEG files; synthetic when empty
  std::vector<unsigned> thread_counts;
  std::size_t images = 64;  // synthetic set, or the most files read from the folder
  std::string save;         // write the synthetic set here
  // storage
  std::vector<unsigned> concurrency;
  std::size_t files = 100000;
};

void storage_progress(const char* pass, unsigned concurrency) {
  if (isatty(STDERR_FILENO)) fmt::print(stderr, "pipesim calibrate storage: {}, {} readers...\n", pass, concurrency);
}

// A long measurement says what it is doing on stderr, when that is a terminal.
void decode_progress(unsigned threads) {
  if (isatty(STDERR_FILENO))
    fmt::print(stderr, "pipesim calibrate decode: {} thread{}...\n", threads, threads == 1 ? "" : "s");
}

void add_output_options(CLI::App& cmd, CalibrateOptions& o, Output what) {
  add_format_option(cmd, o.format, what, "calibrate", "toml is a fragment a scenario can use");
  cmd.add_option("-o,--output", o.output, "Write to FILE (whole or not at all) instead of standard output")
      ->type_name("FILE");
}

Destinations destinations(const CalibrateOptions& o) { return {o.format, o.output, {}, {}, {}}; }

// Whether `path` lies in `folder` or below it (links resolved where they exist).
bool inside(const std::string& path, const std::string& folder) {
  const auto p = resolved_path(path), f = resolved_path(folder);
  auto a = p.begin();
  for (auto b = f.begin(); b != f.end(); ++b, ++a) {
    if (b->empty()) continue;  // a trailing separator
    if (a == p.end() || *a != *b) return false;
  }
  return true;
}

// Before anything is measured: --output must be writable and must not land in a folder this run
// reads (`measured`) or writes (`saved`, the synthetic set).
void check_output(const CalibrateOptions& o, const std::string& measured, const std::string& saved = {}) {
  check_destinations(destinations(o), {});
  if (o.output.empty() || o.output == "-") return;
  const Origin where = Origin::argument("--output " + o.output);
  if (!measured.empty() && inside(o.output, measured))
    throw Error(where, fmt::format("{} is inside the folder being measured ({}): write it elsewhere", echo(o.output),
                                   echo(measured)));
  if (!saved.empty() && inside(o.output, saved))
    throw Error(where, fmt::format("{} is inside --save-synthetic's folder ({}), where the set's files are written: "
                                   "write it elsewhere",
                                   echo(o.output), echo(saved)));
}

// calibrate decode: libjpeg-turbo's rate on a folder of JPEGs or a synthetic set.
void setup_decode(CLI::App& calibrate) {
  auto dec = std::make_shared<CalibrateOptions>();
  dec->seconds = 1.0;
  auto* decode = calibrate.add_subcommand(
      "decode", "JPEG decode rate per thread with libjpeg-turbo on 1, 2, 4 ... threads, and the scaling law fitted");
  decode
      ->add_option("folder", dec->folder,
                   "Folder of JPEG files (searched below; default: a synthetic set pipesim makes)")
      ->type_name("DIR");
  add_output_options(*decode, *dec, Output::Decode);
  decode->add_option("--time", dec->seconds, "Seconds per thread count")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  decode
      ->add_option("--threads", dec->thread_counts,
                   "Thread counts, e.g. 1,2,4 (default: 1, 2, 4 ... and every logical CPU; 1 is always measured)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 4096u));
  decode->add_option("--images", dec->images, "Files in the synthetic set, or the most read from the folder")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  decode->add_option("--save-synthetic", dec->save, "Also write the synthetic set to this folder (it must exist)")
      ->type_name("DIR");
  decode->callback([dec] {
    if (!dec->save.empty() && !dec->folder.empty())
      throw Error(Origin::argument("--save-synthetic"), "there is no synthetic set when a folder of files is given");
    check_output(*dec, dec->folder, dec->save);
    const JpegSet set = dec->folder.empty() ? synthetic_jpegs(dec->images)
                                            : read_jpegs(dec->folder, dec->images, std::size_t{512} << 20);
    if (!dec->save.empty()) write_jpegs(set, dec->save);
    DecodeOptions o;
    o.seconds = dec->seconds;
    o.threads = dec->thread_counts;
    const DecodeCalibration c = calibrate_decode(set, o, decode_progress);
    emit(destinations(*dec), DecodeReport{c});
  });
}

// calibrate storage: a dataset folder read as a loader reads it.
void setup_storage(CLI::App& calibrate) {
  auto sto = std::make_shared<CalibrateOptions>();
  sto->seconds = 1.0;
  auto* storage = calibrate.add_subcommand(
      "storage", "Read a dataset folder's files as a loader does, cold and warm, at 1 to 64 readers; never writes");
  storage->add_option("folder", sto->folder, "The folder of dataset files (searched below)")
      ->type_name("DIR")
      ->required();
  add_output_options(*storage, *sto, Output::Storage);
  storage->add_option("--time", sto->seconds, "Seconds per level and pass, at most")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  storage->add_option("--concurrency", sto->concurrency, "Reader counts, e.g. 1,4,16 (default: 1, 2, 4 ... 64)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 4096u));
  storage->add_option("--files", sto->files, "Files read at most (a shuffled sample of the folder)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}));
  storage->callback([sto] {
    check_output(*sto, sto->folder);
    StorageOptions o;
    o.seconds = sto->seconds;
    o.concurrency = sto->concurrency;
    o.max_files = sto->files;
    const StorageCalibration c = calibrate_storage(sto->folder, o, storage_progress);
    emit(destinations(*sto), StorageReport{c});
  });
}

// calibrate memory: the copy rates behind cpu.memcpy_bandwidth.
void setup_memory(CLI::App& calibrate) {
  auto mem = std::make_shared<CalibrateOptions>();
  auto* memory = calibrate.add_subcommand(
      "memory", "One thread's and every thread's copy rate, into fresh shared memory (cpu.memcpy_bandwidth) and warm");
  add_output_options(*memory, *mem, Output::Memory);
  memory->add_option("--time", mem->seconds, "Seconds per figure (four figures)")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 60.0));
  memory->add_option("--threads", mem->threads, "Threads for the all-threads figures (default: every logical CPU)")
      ->check(CLI::Range(1u, 4096u));
  memory->callback([mem] {
    check_output(*mem, {});
    MemoryOptions o;
    o.seconds = mem->seconds;
    o.threads = mem->threads;
    const MemoryCalibration c = calibrate_memory(o);
    emit(destinations(*mem), MemoryReport{c});
  });
}

// calibrate loop: the share of the CPUs a waiting training loop takes from busy workers.
void setup_loop(CLI::App& calibrate) {
  auto opt = std::make_shared<CalibrateOptions>();
  opt->seconds = 0.4;
  auto rounds = std::make_shared<unsigned>(5);
  auto wait = std::make_shared<std::string>("spin");
  auto poll = std::make_shared<double>(1e-3);
  auto* loop = calibrate.add_subcommand(
      "loop",
      "The share of the CPUs a training loop takes while it waits (spin, yield, poll, sleep) beside busy workers "
      "(pipeline.loop_cpu_share)");
  add_output_options(*loop, *opt, Output::Loop);
  loop->add_option("--time", opt->seconds, "Seconds per round of a figure (five figures)")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 60.0));
  loop->add_option("--rounds", *rounds, "Rounds of each figure, the threads started afresh each time")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100u));
  loop->add_option("--threads", opt->threads, "Busy threads beside the waiting one (default: one per logical CPU)")
      ->check(CLI::Range(1u, 4096u));
  loop->add_option("--wait", *wait,
                   "The wait whose CPUs the fragment sets, all four measured: spin, yield, poll or sleep")
      ->type_name("WAIT")
      ->capture_default_str()
      ->check(CLI::IsMember({"spin", "yield", "poll", "sleep"}));
  loop->add_option("--poll-interval", *poll, "Seconds a polling loop sleeps between its checks")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->check(CLI::Range(1e-5, 1.0));
  loop->callback([opt, rounds, wait, poll] {
    check_output(*opt, {});
    LoopOptions o;
    o.seconds = opt->seconds;
    o.threads = opt->threads;
    o.poll_interval = *poll;
    o.rounds = *rounds;
    for (WaitStyle w : kWaitStyles)
      if (wait_style_name(w) == *wait) o.wait = w;
    const LoopCalibration c = calibrate_loop(o);
    emit(destinations(*opt), LoopReport{c});
  });
}

}  // namespace

void setup_calibrate(CLI::App& app) {
  auto* cmd = app.add_subcommand("calibrate", "Measure this machine and print the scenario keys it gives (TOML)");
  cmd->require_subcommand(1);
  setup_decode(*cmd);
  setup_storage(*cmd);
  setup_memory(*cmd);
  setup_loop(*cmd);
}

}  // namespace pipesim
