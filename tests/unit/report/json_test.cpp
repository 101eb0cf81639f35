// The JSON renderer and writer: a diagnosis's own answers are in the JSON, and what the
// writer writes parses (nlohmann-json reads it back) with strings escaped.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/sweep_rows.hpp"
#include "config/loader.hpp"
#include "core/analyses/sweep.hpp"
#include "report/json_writer.hpp"
#include "report/output.hpp"

using namespace pipesim;
using nlohmann::json;

namespace {

// A JSON sweep's whole text, written on two threads as `pipesim sweep` writes it.
std::string json_sweep(const LoadedScenario& loaded, const std::vector<Axis>& axes) {
  const Scenario first = first_point(loaded.scenario, axes);
  const SweepLayout layout =
      sweep_layout(axes, first, grid_columns(loaded.scenario, axes, first_valid_point(loaded.scenario, axes)), false);
  const auto renderer = sweep_renderer(Format::Json);
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  write_sweep(*renderer, file, loaded.scenario, axes, layout, SweepRun{2, true, nullptr});
  std::rewind(file);
  std::string text;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, file)) > 0;) text.append(buf, n);
  std::fclose(file);
  return text;
}

json diagnose_json(const LoadedScenario& s) {
  const Diagnosis d = with_origins(s, [&] { return diagnose(s.scenario); });
  return json::parse(render(Format::Json, DiagnosisReport{s, d}));
}

}  // namespace

TEST_CASE("the JSON diagnosis holds what moves the wall, the needs and the capacity answers") {
  // The point's figures are the registry's (figures_test walks it against JSON, CSV and the
  // table); these are the diagnosis's own. A plan with storage, page cache, cores and capacity
  // answers: every part of the table's diagnosis has something to say.
  LoadedScenario s = load_scenario("p4d-resnet50-nfs");
  apply_assignment(s, "node.page_cache=100 GB");
  const Diagnosis d = diagnose(s.scenario);
  const json j = diagnose_json(s);
  const Result& r = d.result;
  CHECK(j["page_cache"]["dataset_bytes"] == d.inputs.dataset_bytes);
  CHECK(j["page_cache"]["hit"] == r.cache_hit);
  // What moves the wall: each fix with its kind, the needs and the capacity answers.
  REQUIRE(j["recommendations"].size() == d.fixes.size());
  for (std::size_t i = 0; i < d.fixes.size(); ++i) {
    CHECK(j["recommendations"][i]["kind"] == std::string(fix_key(d.fixes[i].kind)));
    CHECK(j["recommendations"][i]["utilization"] == d.fixes[i].result.utilization);
  }
  CHECK(j["needs"]["storage_read_bandwidth_bytes_per_s"] == d.storage_needed.bandwidth);
  CHECK(j["needs"]["storage_read_bandwidth_per_accelerator_bytes_per_s"] == d.storage_bandwidth_needed_per_accelerator);
  CHECK(j["needs"]["workers"] == *d.workers_needed);
  CHECK(j["needs"]["cores_per_accelerator"] == d.cores->cores_per_accelerator);
  CHECK(j["needs"]["link_bandwidth_bytes_per_s"] == *d.link_bandwidth_needed);
  CHECK(j["storage_capacity"]["demand_bytes_per_s"] == d.storage_capacity->demand);
  CHECK(j["storage_capacity"]["accelerators_sharing"] == d.storage_capacity->have);
}

TEST_CASE("the training process's figures the wall sentence shows are in the JSON diagnosis") {
  // docs/manual/commands.md's GPU node at batch 256 with 12 workers: the loop's launch and the pin thread take
  // turns on the interpreter lock; on cores shared by time each thread's share of a CPU.
  LoadedScenario s = load_scenario("pytorch-dataloader-gpu-node");
  for (const char* a :
       {"model.measured_overhead=65.9 ms", "model.measured_per_sample=0 s", "workload.sample_size=44 KB",
        "workload.device_sample_size=602112 B", "workload.transform_cost=3.2 ms", "pipeline.batch_size=256",
        "pipeline.workers=12", "pipeline.loop_cpu_share=0.81", "pipeline.launch_time=26.7 ms", "cpu.cores=16",
        "link.bandwidth=53.7 GB/s"})
    apply_assignment(s, a);
  const Diagnosis d = diagnose(s.scenario);
  const json j = diagnose_json(s);
  REQUIRE(d.result.stage(Stage::Transfer).limit == Limit::InterpreterLock);
  CHECK(j["stages"][2]["limit"] == "interpreter_lock");
  CHECK(j["lock_s"] == d.result.lock_s);
  CHECK(j["thread_rate"] == d.result.thread_rate);
}

TEST_CASE("crossovers carry the batch where the wall crosses and the last whole batch before it") {
  const LoadedScenario s = load_scenario("reference");
  const Diagnosis d = diagnose(s.scenario);
  REQUIRE_FALSE(d.crossovers.empty());
  const json j = diagnose_json(s);
  CHECK(j["crossovers"][0]["batch_size"] == d.crossovers[0].batch);
  CHECK(j["crossovers"][0]["last_batch_size"] == d.crossovers[0].last_batch);
}

TEST_CASE("the JSON writer nests, separates and escapes so that a JSON parser reads it back") {
  std::string text;
  {
    Out o(text);
    JsonWriter w(o);
    w.object().kv_str("text", "a \"b\" \\ c\n\t\x01 d").key("list").array(true);
    w.num(1).num(0.1).num(1e300).boolean(false).object().kv("x", -2.5).end();
    w.end().key("empty").array().end().end().finish();
  }
  const json j = json::parse(text);
  CHECK(j["text"] == "a \"b\" \\ c\n\t\x01 d");
  CHECK(j["list"].size() == 5);
  CHECK(j["list"][1] == 0.1);
  CHECK(j["list"][2] == 1e300);
  CHECK(j["list"][4]["x"] == -2.5);
  CHECK(j["empty"].is_array());
  CHECK(text.find("[\n1,\n0.1,") != std::string::npos);  // one element per line when asked
}

TEST_CASE("numbers past what a long long holds are written as doubles") {
  // Out::num takes a fast path for whole numbers; it must test the range before converting (a
  // double past 2^63 cast to long long is undefined: the sanitizer build checks it). Found by
  // the set fuzzer: a device sample size of 3.4e18 B makes 2.15e20 bytes per batch.
  std::string text;
  {
    Out o(text);
    for (double v : {2.15424e20, -9.3e18, 9.223372036854775807e18, 1e300, -1e300, 999999999999999.0}) {
      o.num(v);
      o.write(" ");
    }
  }
  CHECK(text == "2.15424e+20 -9.3e+18 9.223372036854776e+18 1e+300 -1e+300 999999999999999 ");
}

TEST_CASE("plain strings, long keys, non-ASCII names and the nesting limit") {
  // The writer's short cuts: a string with nothing to escape is written in one piece, a key
  // and its quotes are gathered on the stack when short (128 bytes) and appended in three
  // pieces when not; names with bytes past ASCII still go through the UTF-8 check.
  const std::string long_key(200, 'k');
  std::string text;
  {
    Out o(text);
    JsonWriter w(o);
    w.object().kv_str("plain", "storage").kv(long_key, 1).kv_str("name", "caf\xc3\xa9 \xff").end().finish();
  }
  const json j = json::parse(text);
  CHECK(j["plain"] == "storage");
  CHECK(j[long_key] == 1);
  CHECK(j["name"] == "caf\xc3\xa9 \xef\xbf\xbd");  // the invalid byte becomes U+FFFD
  CHECK(text.find("\"plain\": \"storage\"") != std::string::npos);

  // Nesting past the writer's inline stack is a programming error, never an overflow.
  std::string deep;
  Out o(deep);
  JsonWriter w(o);
  for (int i = 0; i < 16; ++i) w.array();
  CHECK_THROWS_AS(w.array(), std::logic_error);
}

TEST_CASE("a staged writer writes exactly what a direct one does, across the edges of its buffer") {
  // A document of every kind of piece, strings around the sizes where the staged writer hands
  // its buffer on or writes past it (4 KB and 8 KB), with and without bytes to escape.
  const auto document = [](JsonWriter& w) {
    w.object(true).stamp();
    for (int i = 0; i < 600; ++i) {
      w.key("row").object().kv("i", i).kv("x", 0.1 * i).kv_bool("odd", i % 2 == 1).kv_str("name", "storage");
      w.key("list").array().num(1e300).null().boolean(true).end();
      w.raw_member("\"raw\": [1, 2]").end();
    }
    for (std::size_t size : {4094u, 4095u, 4096u, 4097u, 8190u, 8191u, 8192u, 8193u, 20000u}) {
      std::string plain(size, 'a');
      std::string escaped = plain;
      escaped[size / 2] = '"';
      escaped[size - 1] = '\x01';
      w.kv_str("plain", plain).kv_str("escaped", escaped).key(std::string(200, 'k')).str(plain);
    }
    w.key("caf\xc3\xa9").str("caf\xc3\xa9 \xff").end().finish();
  };
  std::string direct;
  {
    Out o(direct);
    JsonWriter w(o);
    document(w);
  }
  std::string staged;
  {
    Out o(staged);
    JsonWriter w(o, JsonWriter::Mode::Staged);
    document(w);
    w.flush();
  }
  CHECK(staged == direct);
  CHECK(json::parse(staged)["row"]["raw"].size() == 2);

  // A staged writer holds its text until flush() (or until it goes).
  std::string held;
  Out o(held);
  {
    JsonWriter w(o, JsonWriter::Mode::Staged);
    w.object().kv("a", 1).end();
    CHECK(held.empty());
    w.flush();
    CHECK(held == "{\"a\": 1}");
    w.num(2);
  }
  CHECK(held == "{\"a\": 1}2");
}

TEST_CASE("a string is written in one piece only when no byte of it needs escaping, wherever the byte is") {
  // The writer looks at eight bytes at a time: each byte that needs escaping or checking (a
  // quote, a backslash, a control character, a byte past ASCII), at every place in strings of
  // every length around a word, must take the escaping path; bytes just beside those classes
  // must not change the text.
  for (const char special : {'"', '\\', '\n', '\x01', '\x1f', '\x7f', '\x80', '\xff', ' ', '!', '#', '[', ']', '~'}) {
    for (std::size_t size = 1; size <= 20; ++size) {
      for (std::size_t at = 0; at < size; ++at) {
        std::string value(size, 'a');
        value[at] = special;
        std::string text;
        {
          Out o(text);
          JsonWriter w(o);
          w.object().kv_str("k", value).key("s").str(value).end();
        }
        CAPTURE(static_cast<int>(static_cast<unsigned char>(special)));
        CAPTURE(size);
        CAPTURE(at);
        const json j = json::parse(text);
        // What a JSON reader gets back: the string itself, or (a lone byte past ASCII is not
        // UTF-8) the string with that byte replaced by U+FFFD.
        const std::string expected =
            static_cast<unsigned char>(special) >= 0x80 ? std::string(value).replace(at, 1, "\xEF\xBF\xBD") : value;
        CHECK(j["k"] == expected);
        CHECK(j["s"] == expected);
        // ASCII from the space up (DEL included) other than a quote and a backslash is written as
        // it is.
        const auto byte = static_cast<unsigned char>(special);
        const bool as_is = byte >= 0x20 && byte < 0x80 && special != '"' && special != '\\';
        CHECK((text == "{\"k\": \"" + value + "\", \"s\": \"" + value + "\"}") == as_is);
      }
    }
  }
}

TEST_CASE("a number's text is fmt's, over doubles of every magnitude and sign") {
  // Out writes a non-whole number from its shortest digits itself: the text must be fmt's "{}".
  std::uint64_t x = 0x2545F4914F6CDD1DULL;
  const auto text_of = [](double v) {
    std::string text;
    {
      Out o(text);
      o.num(v);
    }
    return text;
  };
  for (int i = 0; i < 300000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift
    double v = 0;
    if (i % 3 == 0) {  // any bits: every exponent, subnormals, infinities and NaN
      std::memcpy(&v, &x, sizeof v);
    } else {  // the magnitudes pipesim writes, with few and with many digits
      const double unit = static_cast<double>(x >> 11) / 9007199254740992.0;
      v = std::pow(10.0, -12 + 34 * unit) * (i % 2 ? -1 : 1);
      if (i % 5 == 0) v = std::round(v * 1000) / 1000;
    }
    CAPTURE(v);
    REQUIRE(text_of(v) == fmt::format("{}", v));
  }
  for (const double v : {1e-5, 1e-4, 1.5e-5, 0.0001234, 1e15, 1e16, 1.5e16, 9.999999999999999e15, 123456.789, 1e100,
                         1e-100, 5e-324, -0.0, 0.5, 2.5e-308, 1.7976931348623157e308})
    CHECK(text_of(v) == fmt::format("{}", v));
}

TEST_CASE("a number's text is the same whether it was written before or not") {
  // Out keeps nothing from one number to the next: a value written again, and values written in
  // turn, read exactly as fmt writes them every time.
  std::vector<double> values;
  for (int i = 1; i <= 2000; ++i) values.push_back(1.0 / i + i * 1e-7);
  values.push_back(-0.0);
  values.push_back(0.1);
  values.push_back(5e-324);
  for (int pass = 0; pass < 3; ++pass)
    for (const double v : values) {
      std::string text;
      {
        Out o(text);
        o.num(v);
      }
      CHECK(text == fmt::format("{}", v));
    }
}

TEST_CASE("a file gets every byte in order, whatever the sizes of the pieces written") {
  // Out buffers writes to a file and flushes what it holds before a piece that would not fit (the
  // buffer never grows); a piece of a chunk or more goes to the file as it is. Pieces of 1 byte to
  // 50 KB, around the 32 KiB chunk and the buffer's capacity, must arrive whole and in order.
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  std::string expected;
  {
    Out out(file);
    std::uint32_t x = 12345;
    for (int i = 0; i < 400; ++i) {
      x = x * 1664525u + 1013904223u;  // LCG
      const std::size_t sizes[] = {1, 10, 4096, 10000, 32767, 32768, 36000, 50000};
      const std::size_t n = i % 3 == 0 ? sizes[(x >> 8) % 8] : (x >> 8) % 12000;
      const std::string piece(n, static_cast<char>('a' + i % 26));
      expected += piece;
      out.write(piece);
      if (i % 7 == 0) {
        out.put('\n');
        expected += '\n';
      }
    }
    out.flush();
  }
  std::rewind(file);
  std::string text;
  char buf[65536];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, file)) > 0;) text.append(buf, n);
  std::fclose(file);
  CHECK(text.size() == expected.size());
  CHECK(text == expected);
}

TEST_CASE("each row of a JSON sweep holds its point's inputs, in the order diagnose writes them") {
  // The renderer writes the inputs a sweep does not vary once, as runs between the ones it varies:
  // here one near the start (the batch size), one in the middle (the cores) and one whose
  // alternatives are set in the base (the transform's cost, against cpu.worker_throughput), so
  // the runs start, stop and skip. Every row must read as the point's own diagnosis does.
  const LoadedScenario loaded = load_scenario("reference");
  const std::vector<Axis> axes = {parse_axis("pipeline.batch_size", "16,32"), parse_axis("cpu.cores", "2,8"),
                                  parse_axis("workload.transform_cost", "1ms,3ms")};
  using ordered = nlohmann::ordered_json;  // keeps the members in the order they were written
  const ordered rows = ordered::parse(json_sweep(loaded, axes))["rows"];
  REQUIRE(rows.size() == 8);
  std::size_t i = 0;
  for_each_point(loaded.scenario, axes, [&](const Scenario& point, std::size_t) {
    LoadedScenario at = loaded;
    at.scenario = point;
    const Diagnosis d = with_origins(at, [&] { return diagnose(at.scenario); });
    const ordered expected = ordered::parse(render(Format::Json, DiagnosisReport{at, d}))["inputs"];
    CHECK(rows[i]["inputs"].dump() == expected.dump());
    CHECK(!rows[i]["inputs"].contains("cpu.worker_throughput"));
    ++i;
  });
}

TEST_CASE("each row's recommendations are its point's own, where the sweep looked fixes up in its memo") {
  // A grid where the workers fix of every row of one batch size, and the batch-size fix of every
  // row of one worker count, land on scenarios other rows reach (the sweep's memo answers them),
  // with an axis over one of three alternative fields: every row's recommendations must be those
  // diagnose gives its point alone, figure for figure and word for word.
  const LoadedScenario loaded = load_scenario("reference");
  const std::vector<Axis> axes = {parse_axis("pipeline.batch_size", "64,128,256"),
                                  parse_axis("workload.transform_cost", "1ms,3ms"),
                                  parse_axis("pipeline.workers", "1..24:+1")};
  const json rows = json::parse(json_sweep(loaded, axes))["rows"];
  REQUIRE(rows.size() == 144);
  std::size_t i = 0;
  std::size_t fixes = 0;
  for_each_point(loaded.scenario, axes, [&](const Scenario& point, std::size_t) {
    LoadedScenario at = loaded;
    at.scenario = point;
    const json expected = diagnose_json(at)["recommendations"];
    CAPTURE(i);
    CHECK(rows[i]["recommendations"] == expected);
    fixes += expected.size();
    ++i;
  });
  CHECK(fixes > 200);
}
