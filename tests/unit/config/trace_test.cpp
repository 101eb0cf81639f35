#include "config/trace.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/base/error.hpp"

using namespace pipesim;

namespace {

struct TempFile {
  std::string path;
  TempFile(const std::string& name, const std::string& text, bool gzip = false)
      : path((std::filesystem::temp_directory_path() / ("pipesim-trace-test-" + name)).string()) {
    if (gzip) {
      gzFile f = gzopen(path.c_str(), "wb");
      gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
      gzclose(f);
    } else {
      std::ofstream(path, std::ios::binary) << text;
    }
  }
  ~TempFile() { std::remove(path.c_str()); }
};

std::string error_of(const std::string& path) {
  try {
    (void)read_profiler_trace(path);
  } catch (const Error& e) {
    return e.line();
  }
  return "read";
}

// Kineto's form: an object with traceEvents; a device kernel, a copy with its bytes, the step's
// mark on the device's timeline (not a step of the loop) and events of no interest.
const std::string kKineto = R"json({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU"}],
 "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 1000, "dur": 10000,
   "args": {"External id": 1}},
  {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
   "pid": 1, "tid": 1, "ts": 1000, "dur": 2500},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 3600,
   "dur": 400, "args": {"device": 0, "bytes": 1204224, "nested": {"bytes": 5}}},
  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<\"\\\\x\">", "pid": 0,
   "tid": 7, "ts": 4000, "dur": 5000, "args": {"stream": 7}},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#3", "pid": 0, "tid": 7, "ts": 3600, "dur": 5400},
  {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 1, "ts": 3500},
  {"ph": "M", "name": "process_name", "args": {"name": "python"}}
 ]})json";

}  // namespace

TEST_CASE("read_profiler_trace: Kineto's object, plain and gzip-compressed") {
  for (bool gzip : {false, true}) {
    TempFile f(gzip ? "kineto.json.gz" : "kineto.json", kKineto, gzip);
    const RankTrace t = read_profiler_trace(f.path);
    REQUIRE(t.steps.size() == 1);
    CHECK(t.steps[0].start == 0);  // seconds from the file's first span that matters
    CHECK(t.steps[0].end == doctest::Approx(0.01));
    REQUIRE(t.loader.size() == 1);
    REQUIRE(t.copies.size() == 1);
    CHECK(t.copies[0].bytes == 1204224);
    REQUIRE(t.kernels.size() == 1);
    CHECK(t.device_events);
  }
}

TEST_CASE("read_profiler_trace: Kineto's timestamps, microseconds since the epoch") {
  TempFile f("epoch.json", R"({"traceEvents": [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#10",
    "ts": 1712667379482786, "dur": 112202}, {"ph": "X", "cat": "user_annotation",
    "name": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", "ts": 1712667379482806,
    "dur": 2674}]})");
  const RankTrace t = read_profiler_trace(f.path);
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].end - t.steps[0].start == doctest::Approx(0.112202).epsilon(1e-12));
  REQUIRE(t.loader.size() == 1);
  // Twenty microseconds apart, to a billionth: taken to seconds since the epoch, each would be
  // up to a quarter of a microsecond off.
  CHECK(t.loader[0].start - t.steps[0].start == doctest::Approx(20e-6).epsilon(1e-9));
  // The summary's lengths are the trace's own, to the nanosecond, with no rounding noise past it.
  const TraceSummary s = summarise_traces({t});
  CHECK(s.ranks[0].steps[0].step_s == 0.112202);
  CHECK(s.ranks[0].steps[0].data_wait_s == 0.002674);
  CHECK(s.ranks[0].steps[0].loop_s == 0.109528);
}

TEST_CASE("read_profiler_trace: the bare array torch's CPU profiler writes") {
  TempFile f("cpu.json", R"([{"name": "ProfilerStep#1", "ph": "X", "ts": 406, "dur": 52501, "tid": 1,
    "pid": "CPU functions", "args": {}}, {"name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
    "ph": "X", "ts": 438, "dur": 37853, "tid": 1, "pid": "CPU functions", "args": {}}])");
  const RankTrace t = read_profiler_trace(f.path);
  CHECK(t.steps.size() == 1);
  CHECK(t.loader.size() == 1);
  CHECK_FALSE(t.device_events);
}

TEST_CASE("read_profiler_trace: bad input is one error at the file") {
  TempFile truncated("truncated.json", kKineto.substr(0, 300));
  CHECK(error_of(truncated.path).find("pipesim-trace-test-truncated.json:") != std::string::npos);
  CHECK(error_of(truncated.path).find("not a profiler trace") != std::string::npos);
  TempFile other("other.json", R"({"a": [1, 2, {"traceEvents": []}]})");
  CHECK(error_of(other.path).find("no traceEvents") != std::string::npos);
  TempFile empty("empty.json", "");
  CHECK(error_of(empty.path).find("empty") != std::string::npos);
  TempFile deep("deep.json", std::string(100, '[') + std::string(100, ']'));
  CHECK(error_of(deep.path).find("nested more than") != std::string::npos);
  TempFile bad_ts("bad-ts.json", R"([{"name": "ProfilerStep#1", "ph": "X", "ts": 1, "dur": -5}])");
  CHECK(error_of(bad_ts.path).find("no valid ts and dur") != std::string::npos);
  TempFile long_string("long.json", "[\"" + std::string(kMaxTraceString + 10, 'a') + "\"]");
  CHECK(error_of(long_string.path).find("a string of more than") != std::string::npos);
  TempFile gz_bad("bad.json.gz", std::string("\x1f\x8b\x08\x00garbage", 12));
  CHECK(error_of(gz_bad.path) != "read");
  CHECK(error_of("/nonexistent/trace.json").find("cannot read the trace") != std::string::npos);
  CHECK(error_of("/dev/null").find("not a regular file") != std::string::npos);
}

TEST_CASE("read_profiler_trace: a file past the size pipesim reads is refused before a byte is read") {
  const std::string path = (std::filesystem::temp_directory_path() / "pipesim-trace-test-huge.json").string();
  std::ofstream(path).put('[');
  std::error_code ec;
  std::filesystem::resize_file(path, std::uintmax_t{10} << 30, ec);  // sparse: no 10 GB written
  if (!ec) CHECK(error_of(path).find("GiB pipesim reads") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("set_trace_keys: the keys that reproduce a trace, each from the trace") {
  LoadedScenario s = load_scenario("");
  const Origin from = Origin::argument("the trace (t.json)");
  TraceKeys k;
  k.compute_s = 0.064;
  k.loop_overhead_s = 0.0025;
  set_from(s, "pipeline.batch_size", "32", Origin::argument("--batch 32"));
  set_trace_keys(s, k, 32, from);
  CHECK(s.scenario.get(Field::BatchSize) == 32);
  CHECK(s.scenario.get(Field::MeasuredPerSample) == 0.002);
  CHECK(s.scenario.get(Field::MeasuredOverhead) == 0);
  CHECK(s.scenario.get(Field::LoopOverhead) == 0.0025);
  CHECK(s.scenario.get(Field::ReceiveTime) == 0);
  CHECK(s.origins[static_cast<std::size_t>(Field::BatchSize)].str() == "--batch 32");
  CHECK(s.origins[static_cast<std::size_t>(Field::LoopOverhead)].str() == "the trace (t.json)");
  // Without copies in the trace the link stays the scenario's.
  const double link = s.scenario.get(Field::LinkBandwidth);
  CHECK(s.origins[static_cast<std::size_t>(Field::LinkBandwidth)].str() != "the trace (t.json)");
  k.link_bytes_per_s = 2.5e10;
  k.device_sample_bytes = 602112;
  set_trace_keys(s, k, 32, from);
  CHECK(s.scenario.get(Field::LinkBandwidth) == 2.5e10);
  CHECK(s.scenario.get(Field::DeviceSampleSize) == 602112);
  CHECK(link != 2.5e10);
}
