#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "config/presets.hpp"

using namespace pipesim;

namespace {
std::string load_error(std::string_view toml) {
  try {
    load_scenario_text(toml, Origin::file("s.toml"), "");
  } catch (const Error& e) {
    return e.line();
  }
  return "(no error)";
}
std::string set_error(const char* assignment) {
  LoadedScenario s = load_scenario("");
  try {
    apply_assignment(s, assignment);
  } catch (const Error& e) {
    return e.line();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("a scenario uses presets and overrides their fields") {
  const LoadedScenario s =
      load_scenario_text("use = \"reference\"\n[pipeline]\nbatch_size = 64\n[storage]\nread_bandwidth = \"3.5 GB/s\"\n",
                         Origin::file("s.toml"), "");
  CHECK(s.scenario.get(Field::BatchSize) == 64);
  CHECK(s.scenario.get(Field::Workers) == 8);  // from the preset
  CHECK(s.scenario.get(Field::ReadBandwidth) == 3.5e9);
  CHECK(s.origins[static_cast<std::size_t>(Field::BatchSize)].str() == "s.toml:3:14");
  CHECK(s.origins[static_cast<std::size_t>(Field::Workers)].label() == "preset:configs/reference.toml");
}

TEST_CASE("every embedded preset parses") {
  for (const auto& p : embedded_presets()) {
    CAPTURE(p.name);
    CHECK_NOTHROW(load_scenario(p.name));
  }
  CHECK(find_preset("accelerators/a100-80gb-sxm"));
  CHECK(find_preset("a100-80gb-sxm.toml"));
  CHECK_FALSE(find_preset("a100"));
}

TEST_CASE("bad files get one line with file:line:col") {
  CHECK(load_error("[storage]\nread_bandwith = \"2 GB/s\"\n") ==
        "s.toml:2:1: error: unknown key 'storage.read_bandwith'; did you mean 'storage.read_bandwidth'?");
  CHECK(load_error("[storage]\nread_bandwidth = \"2 GB\"\n") ==
        "s.toml:2:18: error: storage.read_bandwidth: expected a rate (e.g. \"2 GB/s\"), got a size \"2 GB\"");
  CHECK(load_error("[storage]\nread_bandwidth = \"-2 GB/s\"\n") ==
        "s.toml:2:18: error: storage.read_bandwidth must be greater than zero, got -2 GB/s");
  CHECK(load_error("[pipeline]\nbatch_size = 0\n") ==
        "s.toml:2:14: error: pipeline.batch_size must be greater than zero, got 0");
  CHECK(load_error("[pipeline]\nbatch_size = 2.5\n") ==
        "s.toml:2:14: error: pipeline.batch_size must be a whole number, got 2.5");
  CHECK(load_error("[pipeline]\nbatch_size = nan\n") ==
        "s.toml:2:14: error: pipeline.batch_size: the value is not finite");
  CHECK(load_error("batch_size = 8\n") ==
        "s.toml:1:1: error: unknown key 'batch_size'; did you mean 'pipeline.batch_size'?");
  CHECK(load_error("[pipeline\nbatch_size = 8\n").rfind("s.toml:1:", 0) == 0);
  CHECK(load_error("[link]\npinned = \"maybe\"\n") ==
        "s.toml:2:10: error: link.pinned: expected true or false, got \"maybe\"");
  CHECK(load_error("use = \"referense\"\n") ==
        "s.toml:1:7: error: `use` names 'referense', which is neither a preset nor a readable file; did you mean "
        "'reference'?");
  CHECK(load_error("[storage]\nread_bandwidth = 2e9\n").find("got the bare number 2000000000; write it with a unit") !=
        std::string::npos);
}

TEST_CASE("keys of more dotted parts than a scenario can use are refused before parsing") {
  // toml++ nests a table per part, recursively: 200,000 parts overflowed the stack.
  std::string header = "[a";
  for (int i = 0; i < 200000; ++i) header += ".a";
  CHECK(load_error(header + "]\n") ==
        "s.toml:1:65: error: a key of more than 32 dotted parts (pipesim's keys have two to four)");
  std::string dotted = "x";
  for (int i = 0; i < 40; ++i) dotted += ".x";
  CHECK(load_error(dotted + " = 1\n") ==
        "s.toml:1:64: error: a key of more than 32 dotted parts (pipesim's keys have two to four)");
  // Dots inside values and quoted keys are not parts; 32 parts are read (and named unknown).
  CHECK(load_error("use = \"reference\"\n[pipeline]\nbatch_size = 1.0e2\n\"a.b.c.d\" = 1\n").find("parts") ==
        std::string::npos);
  std::string most = "[a";
  for (int i = 1; i < 32; ++i) most += ".a";
  CHECK(load_error(most + "]\n").find("unknown key") != std::string::npos);
}

TEST_CASE("every unknown key and bad value of a file is reported at once, in file order") {
  // toml++ iterates keys sorted ([cpux] before [pipeline]); the report follows the file.
  CHECK(load_error("[pipeline]\nbatch_sise = 8\nworkers = \"2 GB\"\n[workload]\nsampel_size = \"1 MB\"\n"
                   "[cpux]\nworker_throughput = \"1 GB/s\"\n[require]\nmin_utilisation = 0.9\n") ==
        "s.toml:2:1: error: unknown key 'pipeline.batch_sise'; did you mean 'pipeline.batch_size'?\n"
        "s.toml:3:11: error: pipeline.workers: expected a plain number (e.g. 8), got a size \"2 GB\"\n"
        "s.toml:5:1: error: unknown key 'workload.sampel_size'; did you mean 'workload.sample_size'?\n"
        "s.toml:7:1: error: unknown key 'cpux.worker_throughput'; did you mean 'cpu.worker_throughput'?\n"
        "s.toml:9:19: error: unknown requirement 'min_utilisation'; did you mean 'min_utilization'?");
  // At most kMaxErrorLines lines, then a count of the rest.
  std::string many = "[pipeline]\n";
  for (int i = 0; i < 25; ++i) many += "k" + std::to_string(i) + " = 1\n";
  const std::string lines = load_error(many);
  CHECK(std::count(lines.begin(), lines.end(), '\n') == 19);
  CHECK(lines.substr(lines.rfind('\n') + 1) == "s.toml: error: 6 more errors not shown");
  CHECK(lines.rfind("s.toml:2:1: error: unknown key 'pipeline.k0'", 0) == 0);
}

TEST_CASE("--set assignments") {
  LoadedScenario s = load_scenario("");
  apply_assignment(s, "storage.read_bandwidth=2GB/s");
  apply_assignment(s, "link.pinned=false");
  CHECK(s.scenario.get(Field::ReadBandwidth) == 2e9);
  CHECK(s.scenario.get(Field::LinkPinned) == 0);
  CHECK(set_error("pipeline.batch_size=0") ==
        "--set pipeline.batch_size=0: error: pipeline.batch_size must be greater than zero, got 0");
  CHECK(set_error("cpu.corse=8") == "--set cpu.corse=8: error: unknown key 'cpu.corse'; did you mean 'cpu.cores'?");
  CHECK(set_error("cpu.cores") == "--set cpu.cores: error: expected KEY=VALUE, e.g. --set pipeline.batch_size=64");
  CHECK(set_error("cpu.worker_throughput=3ms") ==
        "--set cpu.worker_throughput=3ms: error: cpu.worker_throughput: expected a rate (e.g. \"2 GB/s\"), "
        "got a duration \"3ms\"");
  CHECK(set_error("cpu.worker_sample_rate=1200 samples/s") == "(no error)");
}

TEST_CASE("a later source replaces a field's alternatives, and one file may not set two") {
  LoadedScenario s = load_scenario("");
  apply_assignment(s, "cpu.worker_sample_rate=500 samples/s");
  CHECK_FALSE(s.scenario.has(Field::WorkerThroughput));
  CHECK(s.scenario.get(Field::WorkerSampleRate) == 500);
  CHECK(load_error("[cpu]\nworker_throughput = \"1 GB/s\"\nworker_sample_rate = \"9 samples/s\"\n") ==
        "s.toml:2:21: error: cpu.worker_throughput and cpu.worker_sample_rate (line 3) say the same thing in two "
        "ways: keep one");
  const LoadedScenario o =
      load_scenario_text("use = \"reference\"\n[workload]\ntransform_cost = \"2 ms\"\n", Origin::file("s.toml"), "");
  CHECK_FALSE(o.scenario.has(Field::WorkerThroughput));
}

TEST_CASE("resolve errors point at where the field was set") {
  LoadedScenario s =
      load_scenario_text("use = \"reference\"\n[link]\nbandwidth = \"25 GB/s\"\n", Origin::file("s.toml"), "");
  try {
    with_origins(s, [&] { return resolve(s.scenario); });
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.origin().str() == "s.toml:3:13");
  }
}

TEST_CASE("the TOML gate keeps toml++ 3.3 away from its undefined behaviour") {
  // marzer/tomlplusplus #190/#295: non-ASCII where the parser looks for white space.
  CHECK(load_error("[pipeline]\xc2\xa1\nbatch_size = 8\n") ==
        "s.toml:1:11: error: a non-ASCII character outside a string or comment (TOML keys and syntax are "
        "ASCII; quote the text)");
  CHECK(load_error("\xcc\xaa").rfind("s.toml:1:1: error: a non-ASCII character outside", 0) == 0);
  CHECK(load_error("s = \"\"\"\\\n\xc2\xa7\"\"\"\n")
            .rfind("s.toml:2:1: error: a non-ASCII character first on a line "
                   "after a line-ending backslash",
                   0) == 0);
  // Found by scenario_fuzz: a quote inside a bare value does not open a string.
  CHECK(load_error("ath = 05\"noe:p|\xef\xb7\xbb"
                   "A\n")
            .rfind("s.toml:1:16: error: a non-ASCII character outside", 0) == 0);
  CHECK(load_error("uve =\"\"\"\\\\\\\xef\xbb\xaa"
                   "at\n") == "s.toml:1:12: error: a backslash before a non-ASCII character is not a TOML escape");
  CHECK(load_error("name = \"\xff\"\n") == "s.toml:1:9: error: the file is not valid UTF-8 here");
  // Non-ASCII inside strings and comments is fine.
  CHECK(load_error("name = \"Résumé \\\" ü\" # café\ndescription = '''naïve'''\n") == "(no error)");
  CHECK(load_error("description = \"\"\"\nline one é\nline \\\n  two\"\"\"\n") == "(no error)");
  CHECK(load_error("name = 'ü' # ß\n[pipeline] # Ж\nbatch_size = 8\n") == "(no error)");
}

TEST_CASE("the TOML gate follows keys and values: a quote inside a bare token opens no string") {
  // Found by scenario_fuzz: `31$[c[` is one bare value to toml++, quote and all, so the
  // non-ASCII code point after it reached toml++ 3.3's unreachable branch.
  CHECK(load_error(std::string("us=31$[c[\"?\xef\xbb\xbb\0\0\n", 17))
            .rfind("s.toml:1:12: error: a non-ASCII character outside", 0) == 0);
  CHECK(load_error("a = 12=\"\xc3\xa9\"\n").rfind("s.toml:1:9: error: a non-ASCII character outside", 0) == 0);
  CHECK(load_error("k\"\xc3\xa9\" = 1\n").rfind("s.toml:1:3: error: a non-ASCII character outside", 0) == 0);
  // Found by scenario_fuzz: a backslash, white space, then a non-ASCII code point.
  CHECK(load_error("name = \"\"\"r__p\\\\\\\\p\\\t\t\t\t\xef\xb3\xbf\n")
            .rfind("s.toml:1:25: error: a backslash before a non-ASCII character is not a TOML escape", 0) == 0);
  CHECK(load_error("name = \"a\\ \xc3\xa9\"\n").rfind("s.toml:1:12: error: a backslash before a non-ASCII", 0) == 0);
  // Strings where TOML allows them still take any text.
  // Arrays and inline tables of strings pass the gate (then fail as unknown keys, by name).
  CHECK(load_error("x = [\"\xc3\xa9\", {a = \"\xc3\xa9\"}, [\"\xc3\xa9\"]]\n").find("unknown key 'x'") !=
        std::string::npos);
  CHECK(load_error("name=\"\xc3\xa9\"\ndescription = '\xc3\xa9' # \xc3\xa9\n[pipeline]\nbatch_size = 8\n") ==
        "(no error)");
  CHECK(load_error("\"name\" = \"\xc3\xa9\"\n[pipeline]\nbatch_size = 8 # \xc3\xa9\n") == "(no error)");
}

TEST_CASE("a rate per step (it/s) becomes samples/s with the batch size in force where it is given") {
  // A file: 0.5 it/s at its own batch size 128 (set after the rate, in file order) is 64
  // samples/s; the rate keeps the line it came from.
  const LoadedScenario f = load_scenario_text(
      "use = \"reference\"\n[cpu]\nworker_sample_rate = \"0.5 it/s\"\n[pipeline]\nbatch_size = 128\n",
      Origin::file("s.toml"), "");
  CHECK(f.scenario.get(Field::WorkerSampleRate) == 64);
  CHECK(f.scenario.dim(Field::WorkerSampleRate) == Dim::SampleRate);
  CHECK(f.origins[static_cast<std::size_t>(Field::WorkerSampleRate)].line == 3);
  // --set: the batch size set before it (64), then a later batch size leaves it in samples/s.
  LoadedScenario s = load_scenario("");
  apply_assignment(s, "pipeline.batch_size=64");
  apply_assignment(s, "cpu.worker_sample_rate=3 it/s");
  apply_assignment(s, "pipeline.batch_size=256");
  CHECK(s.scenario.get(Field::WorkerSampleRate) == 192);
  // steps/s and batches/s are the same unit; the decoder's rate takes it too.
  apply_assignment(s, "accelerator.decoder_rate=20 steps/s");
  CHECK(s.scenario.get(Field::DecoderRate) == 20 * 256);
  // No batch size to multiply by: the rate's own line says so.
  CHECK(load_error("[cpu]\nworker_sample_rate = \"0.5 it/s\"\n") ==
        "s.toml:2:22: error: cpu.worker_sample_rate is given per step (0.5 it/s): it needs pipeline.batch_size to "
        "become samples/s");
  // A field that is not a sample rate does not take it.
  CHECK(set_error("cpu.worker_throughput=2 it/s").find("expected a rate") != std::string::npos);
}

namespace {
LoadedScenario load_picked(std::string_view toml) {
  LoadedScenario s = load_scenario_text(toml, Origin::file("s.toml"), "");
  pick_step(s);
  return s;
}
constexpr std::string_view kTwoSteps =
    "[model]\nmeasured_per_sample = \"1 ms\"\nmeasured_on = \"a100-80gb-sxm\"\n"
    "[model.on.h200]\nmeasured_overhead = \"2 ms\"\nmeasured_per_sample = \"0.5 ms\"\n";
double on(const LoadedScenario& s) { return s.scenario.get(Field::MeasuredOn); }
double choice(const char* name) { return parse_field_value(spec(Field::MeasuredOn), name).value; }
}  // namespace

TEST_CASE("a model's step measured on the scenario's accelerator is taken from [model.on]") {
  // No accelerator named: the step written beside the table.
  LoadedScenario s = load_picked(kTwoSteps);
  CHECK(s.scenario.get(Field::MeasuredPerSample) == doctest::Approx(1e-3));
  CHECK_FALSE(s.scenario.has(Field::MeasuredOverhead));
  CHECK(on(s) == choice("a100-80gb-sxm"));
  // The scenario's own accelerator: its step, located in the table.
  apply_assignment(s, "accelerator.type=h200");
  CHECK(s.scenario.get(Field::MeasuredPerSample) == doctest::Approx(0.5e-3));
  CHECK(s.scenario.get(Field::MeasuredOverhead) == doctest::Approx(2e-3));
  CHECK(on(s) == choice("h200"));
  CHECK(s.origins[static_cast<std::size_t>(Field::MeasuredOverhead)].str() == "s.toml:5:21");
  CHECK(s.origins[static_cast<std::size_t>(Field::MeasuredOn)].str() == "s.toml:4:11");
  // Another accelerator without a step of its own: back to the one beside the table.
  apply_assignment(s, "accelerator.type=a10g");
  CHECK(s.scenario.get(Field::MeasuredPerSample) == doctest::Approx(1e-3));
  CHECK_FALSE(s.scenario.has(Field::MeasuredOverhead));
  CHECK(on(s) == choice("a100-80gb-sxm"));
  CHECK(s.origins[static_cast<std::size_t>(Field::MeasuredOn)].str() == "s.toml:3:15");
  // model.measured_on alone, later, takes that accelerator's step whatever the scenario runs on.
  apply_assignment(s, "model.measured_on=h200");
  CHECK(s.scenario.get(Field::MeasuredPerSample) == doctest::Approx(0.5e-3));
  CHECK(on(s) == choice("h200"));
  CHECK(s.origins[static_cast<std::size_t>(Field::MeasuredOn)].label() == "--set model.measured_on=h200");
  // The step itself, later, replaces the table: no accelerator picks from it any more.
  apply_assignment(s, "model.measured_per_sample=3 ms");
  apply_assignment(s, "accelerator.type=a10g");
  CHECK(s.scenario.get(Field::MeasuredPerSample) == doctest::Approx(3e-3));
  CHECK_FALSE(s.steps);
}

TEST_CASE("the shipped models take their accelerator's measured step") {
  const auto points = [](const char* name) {
    const LoadedScenario s = load_scenario(name);
    std::vector<std::pair<double, double>> out;
    for (const StepPoint& p : s.scenario.step_points().points()) out.emplace_back(p.batch, p.seconds);
    return out;
  };
  using Points = std::vector<std::pair<double, double>>;
  // The H100 SXM's and H200's own ResNet-50 steps; an A100 40GB has none: the A100 80GB's.
  CHECK(points("dgx-h100+resnet50-imagenet-amp") == Points{{64, 32.9e-3}, {128, 35.76e-3}, {256, 65.87e-3}});
  CHECK(points("h200+resnet50-imagenet-amp") ==
        Points{{64, 21.09e-3}, {128, 32.75e-3}, {192, 43.34e-3}, {256, 55.77e-3}, {384, 81.31e-3}});
  CHECK(points("p4d-24xlarge+resnet50-imagenet-amp") == Points{{256, 256 / 2470.0}});
  // The per-accelerator presets name one step whatever the accelerator, the same numbers.
  CHECK(points("h200+resnet50-imagenet-h100") == points("dgx-h100+resnet50-imagenet-amp"));
  CHECK(points("resnet50-imagenet-h200") == points("h200+resnet50-imagenet-amp"));
  CHECK(points("dgx-h100+resnet18-imagenet") == Points{{128, 14.07e-3}, {256, 22.02e-3}});
  CHECK(points("dgx-h100+resnet18-imagenet-h200") == Points{{32, 8.02e-3}, {128, 11.03e-3}, {256, 19.96e-3}});
  CHECK(points("h200+resnet18-imagenet") == points("resnet18-imagenet-h200"));
  // A file using a model that sets its own step later leaves the table and the points behind.
  const LoadedScenario s =
      load_picked("use = [\"h200\", \"resnet50-imagenet-amp\"]\n[model]\nmeasured_per_sample = \"1 ms\"\n");
  CHECK_FALSE(s.steps);
  CHECK(s.scenario.step_points().empty());
  CHECK(s.scenario.get(Field::MeasuredPerSample) == doctest::Approx(1e-3));
}

TEST_CASE("model.measured_steps: the step at several batch sizes, in place of the line") {
  LoadedScenario s =
      load_picked("[model]\nmeasured_steps = { 256 = \"4 it/s\", 64 = \"100 ms\", 128 = \"1280 samples/s\" }\n");
  const auto p = s.scenario.step_points().points();
  REQUIRE(p.size() == 3);  // sorted by batch; a rate becomes the step's time
  CHECK(p[0].batch == 64);
  CHECK(p[0].seconds == doctest::Approx(0.1));
  CHECK(p[1].seconds == doctest::Approx(0.1));
  CHECK(p[2].seconds == doctest::Approx(0.25));
  CHECK(s.scenario.step_measured());
  CHECK_FALSE(s.scenario.has(Field::MeasuredPerSample));
  CHECK(s.origins[static_cast<std::size_t>(Field::MeasuredPerSample)].str() == "s.toml:2:18");
  // The step itself, later, replaces the points.
  apply_assignment(s, "model.measured_per_sample=3 ms");
  CHECK(s.scenario.step_points().empty());
  // In a [model.on] table, picked by the accelerator.
  LoadedScenario t =
      load_picked("[model]\nmeasured_per_sample = \"1 ms\"\n[model.on.h200]\nmeasured_steps = { 32 = \"10 ms\" }\n");
  CHECK(t.scenario.step_points().empty());
  apply_assignment(t, "accelerator.type=h200");
  REQUIRE(t.scenario.step_points().count == 1);
  CHECK_FALSE(t.scenario.has(Field::MeasuredPerSample));
  apply_assignment(t, "accelerator.type=a10g");
  CHECK(t.scenario.step_points().empty());
  CHECK(t.scenario.get(Field::MeasuredPerSample) == doctest::Approx(1e-3));
}

TEST_CASE("a bad model.measured_steps gets one line with file:line:col") {
  CHECK(load_error("[model]\nmeasured_steps = 3\n")
            .starts_with("s.toml:2:18: error: model.measured_steps takes a batch size with the step measured there"));
  CHECK(load_error("[model]\nmeasured_steps = { x = \"1 ms\" }\n")
            .starts_with("s.toml:2:20: error: model.measured_steps: 'x' is not a batch size"));
  CHECK(load_error("[model]\nmeasured_steps = { 0 = \"1 ms\" }\n")
            .starts_with("s.toml:2:20: error: model.measured_steps: '0' is not a batch size"));
  CHECK(load_error("[model]\nmeasured_steps = { 8 = 1 }\n")
            .starts_with("s.toml:2:24: error: model.measured_steps.8: expected the step's time"));
  CHECK(load_error("[model]\nmeasured_steps = { 8 = \"1 GB\" }\n")
            .starts_with("s.toml:2:24: error: model.measured_steps.8: "));
  CHECK(load_error("[model]\nmeasured_steps = { 8 = \"2 ms\", 16 = \"1 ms\" }\n") ==
        "s.toml:2:18: error: model.measured_steps: the step at batch 16 (1 ms) is shorter than at batch 8 (2 ms): "
        "a larger batch takes at least as long; keep the points where it does");
  CHECK(load_error("[model]\nmeasured_steps = { 8 = \"2 ms\", 08 = \"3 ms\" }\n")
            .ends_with("model.measured_steps: batch size 8 is given twice"));
  CHECK(load_error("[model]\nmeasured_per_sample = \"1 ms\"\nmeasured_steps = { 8 = \"2 ms\" }\n") ==
        "s.toml:3:18: error: model.measured_steps and model.measured_per_sample (line 2) say the same thing in two "
        "ways: keep one");
  CHECK(load_error("[model.on.h200]\nmeasured_per_sample = \"1 ms\"\nmeasured_steps = { 8 = \"2 ms\" }\n") ==
        "s.toml:3:18: error: [model.on.h200]: model.measured_steps and model.measured_per_sample say the same thing "
        "in two ways: keep one");
}

TEST_CASE("a bad [model.on] table gets one line with file:line:col") {
  CHECK(load_error("[model.on.h900]\nmeasured_per_sample = \"1 ms\"\n")
            .starts_with("s.toml:1:11: error: [model.on.h900]: model.measured_on: expected one of"));
  CHECK(load_error("[model.on.h200]\nprecision = \"bf16\"\n") ==
        "s.toml:2:1: error: [model.on.h200] holds model.measured_overhead and model.measured_per_sample, or "
        "model.measured_steps, only, not 'precision'");
  CHECK(load_error("[model]\non = 3\n") ==
        "s.toml:2:6: error: model.on takes a table per accelerator: [model.on.h100-sxm]");
  CHECK(load_error("[model.on]\nh200 = 3\n") ==
        "s.toml:2:1: error: model.on.h200 must be a table of the step measured there (measured_overhead, "
        "measured_per_sample)");
}

TEST_CASE("a use of the file's own whose every key is set again after it is named, with who set them") {
  const LoadedScenario twice =
      load_scenario_text("use = [\"reference\", \"nvme-gen4\", \"nvme-gen5\"]\n", Origin::file("s.toml"), "");
  REQUIRE(twice.shadowed.size() == 1);
  CHECK(twice.shadowed[0].name == "nvme-gen4");
  CHECK(twice.shadowed[0].where.str() == "s.toml:1:21");
  CHECK(twice.shadowed[0].by == std::vector<std::string>{"nvme-gen5"});
  // Its own keys set again by the file itself.
  const LoadedScenario own =
      load_scenario_text("use = [\"reference\", \"nvme-gen4\"]\n[storage]\nread_bandwidth = \"1 GB/s\"\niops = 1000\n",
                         Origin::file("s.toml"), "");
  REQUIRE(own.shadowed.size() == 1);
  CHECK(own.shadowed[0].by == std::vector<std::string>{"s.toml"});
  // One key of it stays: it changes something (a100-80gb-sxm's decoder rate; h200 gives none).
  CHECK(load_scenario_text("use = [\"reference\", \"a100-80gb-sxm\", \"h200\"]\n", Origin::file("s.toml"), "")
            .shadowed.empty());
  // A later preset that uses it again applies its keys from the same place: they stay.
  CHECK(load_scenario_text("use = [\"reference\", \"h100-sxm\", \"p5-48xlarge\"]\n", Origin::file("s.toml"), "")
            .shadowed.empty());
  // Only the file's own uses: the presets' own layering (reference over its parts) says nothing.
  CHECK(load_scenario("reference").shadowed.empty());
  // A composition on the command line is the uses of the scenario it names.
  const LoadedScenario composed = load_scenario("reference+nvme-gen4+nvme-gen5");
  REQUIRE(composed.shadowed.size() == 1);
  CHECK(composed.shadowed[0].name == "nvme-gen4");
}

TEST_CASE("a use replaced by an alternative of its key is set again too") {
  const auto dir = std::filesystem::temp_directory_path() / "pipesim-loader-test";
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "w.toml") << "[cpu]\nworker_throughput = \"1 GB/s\"\n"; }
  const LoadedScenario s =
      load_scenario_text("use = [\"reference\", \"w.toml\"]\n[workload]\ntransform_cost = \"2 ms\"\n",
                         Origin::file("s.toml"), dir.string());
  REQUIRE(s.shadowed.size() == 1);
  CHECK(s.shadowed[0].name == "w.toml");
  CHECK(s.shadowed[0].by == std::vector<std::string>{"s.toml"});
  std::filesystem::remove_all(dir);
}
