// The compute stage: the roofline with overheads, measured compute, precision, training
// and accelerator memory.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "../../../support/scenarios.hpp"
#include "config/loader.hpp"
#include "core/analyses/check.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/stages/model.hpp"

using namespace pipesim;
using namespace pipesim::test;

TEST_CASE("batch 1 is memory-bound: 5.04 ms") {
  // flop term 4.1e9 / 156e12 = 26.28 us < weight term 51.2 MB x 1.1 / 2039 GB/s = 27.62 us
  const Result r = evaluate(resolve(reference(1)));
  CHECK(r.memory_bound);
  CHECK(r.stage(Stage::Compute).time_s == doctest::Approx(5.015e-3 + 25.6e6 * 2 * 1.1 / 2039e9).epsilon(1e-14));
  CHECK(round2(ms(r.stage(Stage::Compute).time_s)) == 5.04);
  CHECK_FALSE(evaluate(resolve(reference(2))).memory_bound);
}

TEST_CASE("measured compute: overhead + B x per-sample time") {
  Scenario s = reference(400);
  s.set(Field::MeasuredPerSample, {0.435 / 400, Dim::Duration});
  const Result r = evaluate(resolve(s));
  CHECK(r.stage(Stage::Compute).time_s == doctest::Approx(0.435).epsilon(1e-14));
}

TEST_CASE("training: three passes and three times the layer overhead") {
  Scenario s = reference(256);
  s.set(Field::Passes, 3);
  const Result r = evaluate(resolve(s));
  CHECK(r.stage(Stage::Compute).time_s ==
        doctest::Approx(0.015e-3 + 3 * 50 * 0.10e-3 + 256 * 3 * 4.1e9 / 156e12).epsilon(1e-14));
}

TEST_CASE("precision picks the peak and the bytes per weight, and training sets passes") {
  LoadedScenario a = load_scenario_text(
      "use = [\"a100-80gb-sxm\", \"resnet50-reference\"]\n"
      "[pipeline]\nbatch_size = 256\nworkers = 8\n",
      Origin::file("s.toml"), "");
  // fp16 (the reference): 4.1 GFLOP / (312 TFLOPS x 0.5) per sample.
  CHECK(resolve(a.scenario).compute.per_sample == doctest::Approx(4.1e9 / 156e12).epsilon(1e-14));
  apply_assignment(a, "model.precision=tf32");  // 156 TFLOPS, 4-byte weights
  Inputs in = resolve(a.scenario);
  CHECK(in.compute.per_sample == doctest::Approx(4.1e9 / 78e12).epsilon(1e-14));
  CHECK(in.compute.weight_seconds == doctest::Approx(25.6e6 * 4 / 2039e9).epsilon(1e-14));
  apply_assignment(a, "model.precision=fp8");  // no FP8 on Ampere
  CHECK_THROWS_AS(resolve(a.scenario), FieldError);
  apply_assignment(a, "model.precision=bf16");
  unset(a.scenario, Field::Passes);
  apply_assignment(a, "model.training=true");  // 3 passes, 3x the layer overhead
  in = resolve(a.scenario);
  CHECK(in.compute.passes == 3);
  CHECK(in.compute.overhead == doctest::Approx(0.015e-3 + 3 * 50 * 0.1e-3).epsilon(1e-14));
}

TEST_CASE("accelerator memory: the training footprint, the largest batch, and check fails a batch that does not fit") {
  Scenario s = reference(256);
  s.set(Field::Training, {1, Dim::Bool});
  s.set(Field::AcceleratorMemory, {40e9, Dim::Size});
  s.set(Field::ActivationBytes, {100e6, Dim::Size});
  const Inputs in = resolve(s);
  CHECK(in.compute.memory_static == doctest::Approx(25.6e6 * 16).epsilon(1e-14));  // 409.6 MB
  // (40 GB - 409.6 MB) / 100 MB = 395.9 -> 395
  CHECK(*max_batch_that_fits(in.compute) == 395);
  CHECK(run(s).fits);
  CHECK(*run(s).memory_needed == doctest::Approx(409.6e6 + 256 * 100e6).epsilon(1e-14));
  s.set(Field::BatchSize, 396);
  CHECK_FALSE(run(s).fits);
  const Diagnosis d = diagnose(s);
  REQUIRE(d.fixes.size() == 1);
  CHECK(d.fixes[0].kind == FixKind::FitMemory);
  CHECK(d.fixes[0].changes[0].value.value == 395);
  CHECK(d.fixes[0].result.fits);
  Plan plan;
  const PlanOutcome o = check_plan(s, plan);
  REQUIRE(o.outcomes.size() == 1);
  CHECK(requirement_key(o.outcomes[0].requirement->metric) == "fits_in_memory");
  CHECK_FALSE(o.pass);
}

TEST_CASE("accelerator memory is checked on the activations alone, and says the weights are not counted") {
  // 16 GB, 1 GB of activations per sample, no model.parameters: batch 16 fits exactly, 17 does not.
  Scenario s = reference(16);
  s.unset(Field::Parameters);
  s.set(Field::AcceleratorMemory, {16e9, Dim::Size});
  s.set(Field::ActivationBytes, {1e9, Dim::Size});
  const Inputs in = resolve(s);
  REQUIRE(in.compute.memory_capacity);
  CHECK_FALSE(in.compute.weights_counted);
  CHECK(in.compute.memory_static == 0);
  CHECK(*max_batch_that_fits(in.compute) == 16);
  CHECK(*run(s).memory_needed == 16e9);
  CHECK(run(s).fits);
  const std::vector<Assumption> assumed = assumptions(s, in);
  const auto said =
      std::find_if(assumed.begin(), assumed.end(), [](const Assumption& a) { return a.field == Field::Parameters; });
  REQUIRE(said != assumed.end());
  CHECK(said->text.find("activations only") != std::string::npos);
  s.set(Field::BatchSize, 256);
  Plan plan;
  const PlanOutcome o = check_plan(s, plan);
  REQUIRE(o.outcomes.size() == 1);
  CHECK(o.outcomes[0].value == 256e9);
  CHECK(o.outcomes[0].verdict == Verdict::Fail);
  // In fp32 (or tf32) every activation takes 4 bytes where the figure counts 2: 2 GB a sample, and
  // 8 samples fit where 16 did; bf16 and fp16 keep the figure (the A100 has no fp8 to try).
  s.set(Field::BatchSize, 16);
  s.set(Field::Precision, {static_cast<double>(Precision::Fp32), Dim::Choice});
  CHECK(*resolve(s).compute.activation_bytes == 2e9);
  CHECK(*max_batch_that_fits(resolve(s).compute) == 8);
  CHECK(*run(s).memory_needed == 32e9);
  CHECK_FALSE(run(s).fits);
  s.set(Field::Precision, {static_cast<double>(Precision::Tf32), Dim::Choice});
  CHECK(*resolve(s).compute.activation_bytes == 2e9);
  for (Precision p : {Precision::Bf16, Precision::Fp16}) {
    s.set(Field::Precision, {static_cast<double>(p), Dim::Choice});
    CHECK(*resolve(s).compute.activation_bytes == 1e9);
  }
  // Neither term known: no memory line, and the assumptions say memory is not checked.
  s.unset(Field::ActivationBytes);
  CHECK_FALSE(resolve(s).compute.memory_capacity);
  CHECK(check_plan(s, plan).outcomes.empty());
}

TEST_CASE("a step measured at several batch sizes: between them on the points, outside on the nearest two") {
  // 64: 32.9 ms, 128: 35.76 ms, 256: 65.87 ms (the H100's ResNet-50 step).
  StepPoints p;
  p.at[0] = {64, 32.9e-3};
  p.at[1] = {128, 35.76e-3};
  p.at[2] = {256, 65.87e-3};
  p.count = 3;
  Scenario s = measured(64, 100e3);
  s.set_step_points(p);
  CHECK_FALSE(s.has(Field::MeasuredPerSample));
  const auto step = [&](double batch) {
    s.set(Field::BatchSize, batch);
    const Inputs in = resolve(s);
    return std::pair(model_compute_time(in.compute, batch), in.compute.measured_range->outside());
  };
  // On the points, exactly; between them on the line through its neighbours.
  CHECK(step(64) == std::pair(32.9e-3, false));
  CHECK(step(128).first == doctest::Approx(35.76e-3).epsilon(1e-14));
  CHECK(step(256).first == doctest::Approx(65.87e-3).epsilon(1e-14));
  CHECK(step(96).first == doctest::Approx(0.5 * (32.9e-3 + 35.76e-3)).epsilon(1e-14));
  CHECK(step(192).first == doctest::Approx(0.5 * (35.76e-3 + 65.87e-3)).epsilon(1e-14));
  // Outside, the nearest two's line, and said to be outside: batch 512 = 65.87 + 256 x 0.2352 ms.
  CHECK(step(512).first == doctest::Approx(65.87e-3 + 256 * (65.87e-3 - 35.76e-3) / 128).epsilon(1e-12));
  CHECK(step(512).second);
  // batch 32: 32.9 - 32 x (35.76 - 32.9) / 64 ms = 31.47 ms.
  CHECK(step(32).first == doctest::Approx(32.9e-3 - 32 * (35.76e-3 - 32.9e-3) / 64).epsilon(1e-12));
  CHECK(step(32).second);
  const Inputs in = resolve(s);
  CHECK(in.compute.measured_range->first == 64);
  CHECK(in.compute.measured_range->last == 256);
  // A line through the first two steeper than the first point's time per sample would reach zero:
  // below the first point the step is then that time per sample times the batch.
  StepPoints steep;
  steep.at[0] = {100, 10e-3};
  steep.at[1] = {200, 30e-3};
  steep.count = 2;
  CHECK(step_line(steep, 50).overhead == 0);
  CHECK(step_line(steep, 50).per_sample == doctest::Approx(1e-4).epsilon(1e-14));
  CHECK(step_line(steep, 300).per_sample == doctest::Approx(2e-4).epsilon(1e-14));
  // One point: in proportion to the batch everywhere.
  StepPoints one;
  one.at[0] = {256, 256 / 2470.0};
  one.count = 1;
  CHECK(step_line(one, 128).overhead == 0);
  CHECK(step_line(one, 128).per_sample == doctest::Approx(1 / 2470.0).epsilon(1e-14));
  // The step set itself replaces the points.
  s.set(Field::MeasuredPerSample, {1e-3, Dim::Duration});
  CHECK(s.step_points().empty());
  CHECK_FALSE(resolve(s).compute.measured_range);
}

TEST_CASE("a transformer's activations per token from its shape (Korthikanti et al.)") {
  // Llama-3 8B's shape: 32 layers, hidden 4096, 32 heads, 8192 tokens.
  Scenario s = measured(8192, 4);
  s.set(Field::Layers, 32);
  s.set(Field::HiddenSize, 4096);
  s.set(Field::SequenceLength, 8192);
  // No recomputation: the attention's scores need the heads.
  CHECK_FALSE(transformer_activation_bytes(s));
  s.set(Field::AttentionHeads, 32);
  // 32 x 4096 x (34 + 5 x 32 x 8192 / 4096) = 46,399,488 bytes a token.
  CHECK(*transformer_activation_bytes(s) == 32.0 * 4096 * (34 + 5.0 * 32 * 8192 / 4096));
  s.set(Field::ActivationCheckpointing, {static_cast<double>(Checkpointing::Selective), Dim::Choice});
  CHECK(*transformer_activation_bytes(s) == 32.0 * 4096 * 34);  // 4,456,448
  s.set(Field::ActivationCheckpointing, {static_cast<double>(Checkpointing::Full), Dim::Choice});
  CHECK(*transformer_activation_bytes(s) == 32.0 * 4096 * 2);
  // They count in the memory, and model.activation_bytes, given, stands instead.
  s.set(Field::AcceleratorMemory, {80e9, Dim::Size});
  CHECK(*resolve(s).compute.activation_bytes == 32.0 * 4096 * 2);
  s.set(Field::ActivationBytes, {1e6, Dim::Size});
  CHECK(*resolve(s).compute.activation_bytes == 1e6);
}

TEST_CASE("memory with a term not counted: a batch that misses fails, one that fits is not verified") {
  Scenario s = reference(16);
  s.set(Field::Training, {1, Dim::Bool});
  s.set(Field::AcceleratorMemory, {40e9, Dim::Size});
  Plan plan;
  // Weights, gradients and optimizer state alone (409.6 MB): activations not counted.
  PlanOutcome o = check_plan(s, plan);
  REQUIRE(o.outcomes.size() == 1);
  CHECK(o.outcomes[0].memory_unknown == Field::ActivationBytes);
  CHECK(o.outcomes[0].verdict == Verdict::Unverified);
  CHECK(o.verdict == Verdict::Unverified);
  // Setting the key named resolves it.
  s.set(Field::ActivationBytes, {100e6, Dim::Size});
  o = check_plan(s, plan);
  CHECK_FALSE(o.outcomes[0].memory_unknown);
  CHECK(o.outcomes[0].verdict == Verdict::Pass);
  // What is counted already too much: a failure whatever the rest.
  s.unset(Field::ActivationBytes);
  s.set(Field::AcceleratorMemory, {100e6, Dim::Size});
  CHECK(check_plan(s, plan).outcomes[0].verdict == Verdict::Fail);
  // Activations alone: the weights not counted, named.
  s.unset(Field::Parameters);
  s.set(Field::AcceleratorMemory, {40e9, Dim::Size});
  s.set(Field::ActivationBytes, {100e6, Dim::Size});
  o = check_plan(s, plan);
  CHECK(o.outcomes[0].memory_unknown == Field::Parameters);
  CHECK(o.outcomes[0].verdict == Verdict::Unverified);
  s.set(Field::Parameters, 25.6e6);
  CHECK(check_plan(s, plan).outcomes[0].verdict == Verdict::Pass);
}
