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
