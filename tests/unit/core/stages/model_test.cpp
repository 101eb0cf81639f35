// The model composing the stages: the reference table (docs/model.md), clusters, required fields.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "../../../support/scenarios.hpp"
#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/stages/model.hpp"
#include "core/stages/variance.hpp"

using namespace pipesim;
using namespace pipesim::test;

TEST_CASE("the reference table of docs/model.md, to the printed digits") {
  struct Row {
    double batch, step_ms, transform_ms, util_pct;
  };
  // compute = 0.015 + 50 x 0.10 ms + B x 4.1e9 / (312e12 x 0.5) = 5.015 ms + B x 0.026282 ms
  // transform = B x 500 KB / (8 x 250 MB/s) = B x 0.25 ms
  for (const Row row : {Row{32, 5.86, 8.00, 73.2}, Row{64, 6.70, 16.00, 41.9}, Row{128, 8.38, 32.00, 26.2},
                        Row{256, 11.74, 64.00, 18.3}, Row{512, 18.47, 128.00, 14.4}, Row{1024, 31.93, 256.00, 12.5}}) {
    CAPTURE(row.batch);
    const Result r = evaluate(resolve(reference(row.batch)));
    CHECK(round2(ms(r.stage(Stage::Compute).time_s)) == row.step_ms);
    CHECK(round2(ms(r.stage(Stage::Transform).time_s)) == row.transform_ms);
    CHECK(round1(r.utilization * 100) == row.util_pct);
    CHECK(r.binding == 1u << static_cast<unsigned>(Stage::Transform));
    CHECK_FALSE(r.stage(Stage::Storage).modelled);
    CHECK_FALSE(r.stage(Stage::Transfer).modelled);
  }
}

TEST_CASE("reference at batch 256: exact stage times, slowdown and data demand") {
  const Result r = evaluate(resolve(reference(256)));
  const double compute = 0.015e-3 + 50 * 0.10e-3 + 256 * 4.1e9 / (312e12 * 0.5);
  CHECK(r.stage(Stage::Compute).time_s == doctest::Approx(compute).epsilon(1e-14));
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.064).epsilon(1e-14));
  CHECK(r.step_s == doctest::Approx(0.064).epsilon(1e-14));
  CHECK(r.utilization == doctest::Approx(compute / 0.064).epsilon(1e-14));
  CHECK(round2(r.slowdown) == 5.45);
  CHECK(r.data_demand == doctest::Approx(256 * 500e3 / compute).epsilon(1e-14));
  CHECK(round1(r.data_demand / 1e9) == 10.9);
  CHECK(r.throughput == doctest::Approx(4000).epsilon(1e-14));
}

TEST_CASE("the embedded reference preset is the same scenario") {
  const LoadedScenario loaded = load_scenario("");
  const Result a = evaluate(resolve(loaded.scenario));
  const Result b = evaluate(resolve(reference(256)));
  CHECK(a.step_s == b.step_s);
  CHECK(a.stage(Stage::Compute).time_s == b.stage(Stage::Compute).time_s);
}

TEST_CASE("missing required fields are reported by field") {
  Scenario s = reference(256);
  s.unset(Field::PeakFlops);
  try {
    resolve(s);
    FAIL("expected an error");
  } catch (const FieldError& e) {
    CHECK(e.field() == Field::PeakFlops);
  }
  Scenario t = reference(256);
  t.unset(Field::BatchSize);
  CHECK_THROWS_AS(resolve(t), FieldError);
  // Every missing field at once: the workload's, then what the compute stage lacks.
  Scenario u;
  u.set(Field::Workers, 4);
  try {
    resolve(u);
    FAIL("expected an error");
  } catch (const FieldError& e) {
    CHECK(e.field() == Field::BatchSize);
    CHECK(std::string(e.what()) ==
          "missing required fields pipeline.batch_size (samples per batch), workload.sample_size (bytes read and "
          "transformed per sample); and the accelerator compute stage needs accelerator.peak_flops, "
          "model.flops_per_sample and accelerator.efficiency, or model.measured_per_sample; missing: "
          "accelerator.peak_flops (or model.precision with the accelerator's per-precision peaks), "
          "model.flops_per_sample, accelerator.efficiency");
  }
}

TEST_CASE("clusters: throughput per accelerator, node and cluster, and the price is per node") {
  Scenario s = reference();
  s.set(Field::AcceleratorCount, 4);
  s.set(Field::Nodes, 3);
  s.set(Field::DatasetSamples, 1.2e6);
  s.set(Field::PricePerHour, {10, Dim::MoneyRate});
  const Result r = run(s);
  // Transform binds at 64 ms: 256 / 0.064 = 4000 per accelerator, x4 = 16000 per node, x3 = 48000.
  CHECK(r.throughput_per_accelerator == doctest::Approx(4000).epsilon(1e-14));
  CHECK(r.throughput_per_node == doctest::Approx(16000).epsilon(1e-14));
  CHECK(r.throughput == doctest::Approx(48000).epsilon(1e-14));
  CHECK(*r.epoch_s == doctest::Approx(25).epsilon(1e-14));                       // 1.2e6 / 48000
  CHECK(*r.price_per_hour == doctest::Approx(30).epsilon(1e-14));                // 3 nodes x $10/h
  CHECK(*r.cost_per_epoch == doctest::Approx(25.0 / 3600 * 30).epsilon(1e-12));  // $0.2083
  CHECK(*r.samples_per_usd == doctest::Approx(48000 * 3600 / 30.0).epsilon(1e-12));
}

TEST_CASE("accelerators that step together wait for the slowest: the step's spread over them") {
  // loader(16, 0.5): compute 10 ms a step, workers far ahead. Step cv 0.2 on 8 accelerators
  // over 2 nodes: every step waits for the slowest of 16, 10 ms x (E[max of 16] - 1) longer.
  Scenario s = test::loader(16, 0.5);
  s.set(Field::StepCv, 0.2);
  CHECK(test::run(s).sync_wait_s == 0);  // one accelerator waits for none
  CHECK(test::run(s).utilization == 1);
  s.set(Field::AcceleratorCount, 8);
  s.set(Field::Nodes, 2);
  const Result r = test::run(s);
  const double slowest = slowest_of(16, 0.2).mean;
  CHECK(r.sync_wait_s == doctest::Approx(10e-3 * (slowest - 1)).epsilon(1e-12));
  CHECK(r.step_s == doctest::Approx(10e-3 * slowest).epsilon(1e-12));
  CHECK(r.utilization == doctest::Approx(1 / slowest).epsilon(1e-12));
  CHECK(r.binds(Stage::Compute));
  CHECK(r.compute_bound());
  // A diagnosis says what no input pipeline recovers.
  const Diagnosis d = diagnose(s);
  REQUIRE(d.spread_ceiling);
  CHECK(*d.spread_ceiling == doctest::Approx(1 / slowest).epsilon(1e-12));
  REQUIRE_FALSE(d.losses.empty());
  CHECK(d.losses[0].kind == LossKind::StepSpread);
}
