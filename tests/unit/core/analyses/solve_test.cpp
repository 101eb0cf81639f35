#include "core/analyses/solve.hpp"

#include <doctest/doctest.h>

#include "config/loader.hpp"
#include "core/base/error.hpp"

using namespace pipesim;

namespace {

Scenario reference_at(double batch) {
  Scenario s = load_scenario("reference").scenario;
  s.set(Field::BatchSize, batch);
  return s;
}

double figure(const Scenario& s, Observed kind) {
  const Inputs in = resolve(s);
  return observed_figure(evaluate(in), in.batch, kind);
}

}  // namespace

TEST_CASE("parse_observation: utilization, steps and samples per second") {
  CHECK(parse_observation("utilization=40%").kind == Observed::Utilization);
  CHECK(parse_observation("utilization = 0.4").value == doctest::Approx(0.4));
  CHECK(parse_observation("3.1 it/s").kind == Observed::StepsPerS);
  CHECK(parse_observation("3.1 steps/s").value == doctest::Approx(3.1));
  CHECK(parse_observation("790 samples/s").kind == Observed::SamplesPerS);
  CHECK_THROWS_AS(parse_observation("utilization=140%"), Error);
  CHECK_THROWS_AS(parse_observation("3.1 GB/s"), Error);
  CHECK_THROWS_AS(parse_observation("0 it/s"), Error);
  CHECK_THROWS_AS(parse_observation("usage=40%"), Error);
}

TEST_CASE("solve_observed: the worker's rate round-trips through the model") {
  // The reference case at batch 256: 8 workers at 250 MB/s give 18.3%. Observed 40%: the worker
  // must be faster, and diagnose of the solved scenario gives 40%.
  const Scenario s = reference_at(256);
  CHECK(default_unknown(s) == Field::WorkerThroughput);
  const Solution sol = solve_observed(s, Field::WorkerThroughput, parse_observation("utilization=40%"));
  CHECK(sol.exact);
  CHECK(sol.value.dim == Dim::Rate);
  CHECK(sol.previous->value == doctest::Approx(250e6));
  CHECK(figure(sol.scenario, Observed::Utilization) == doctest::Approx(0.40).epsilon(1e-9));
  // Transform-bound: utilization = compute / (B x 500 KB / (8 x rate)), so the rate is exact.
  const double compute = 5.015e-3 + 256 * 0.026282e-3;
  CHECK(sol.value.value == doctest::Approx(256 * 500e3 / 8 / (compute / 0.40)).epsilon(1e-4));

  const Solution steps = solve_observed(s, Field::WorkerThroughput, parse_observation("30 it/s"));
  CHECK(1 / steps.result.step_s == doctest::Approx(30).epsilon(1e-9));
  const Solution samples = solve_observed(s, Field::WorkerThroughput, parse_observation("9000 samples/s"));
  CHECK(256 / samples.result.step_s == doctest::Approx(9000).epsilon(1e-9));
}

TEST_CASE("solve_observed: a time per sample falls as the rate rises") {
  Scenario s = reference_at(64);
  s.set(Field::TransformCost, Quantity{4e-3, Dim::Duration});
  CHECK(default_unknown(s) == Field::TransformCost);
  const Solution sol = solve_observed(s, Field::TransformCost, parse_observation("utilization=50%"));
  CHECK(sol.exact);
  CHECK(figure(sol.scenario, Observed::Utilization) == doctest::Approx(0.5).epsilon(1e-9));
  CHECK_FALSE(sol.scenario.has(Field::WorkerThroughput));  // the alternative is replaced
}

TEST_CASE("solve_observed: the scenario's best figure bounds the field, beyond it is out of reach") {
  const Scenario s = reference_at(32);
  // Compute-bound at best: utilization 100% once the workers keep up.
  const Solution sol = solve_observed(s, Field::WorkerThroughput, parse_observation("utilization=100%"));
  CHECK_FALSE(sol.exact);
  CHECK(figure(sol.scenario, Observed::Utilization) == doctest::Approx(1.0).epsilon(1e-8));
  // The least rate that keeps up: 8 workers deliver B x 500 KB per compute step.
  const double compute = 5.015e-3 + 32 * 0.026282e-3;
  CHECK(sol.value.value == doctest::Approx(32 * 500e3 / 8 / compute).epsilon(1e-4));
  const double best_steps = 1 / compute;
  CHECK_THROWS_WITH_AS(solve_observed(s, Field::WorkerThroughput, Observation{Observed::StepsPerS, best_steps * 1.1}),
                       doctest::Contains("is out of reach"), Error);
}

TEST_CASE("solve_observed: refuses what cannot be solved") {
  const Scenario s = reference_at(32);
  CHECK_THROWS_WITH_AS(solve_observed(s, Field::Workers, parse_observation("utilization=50%")),
                       doctest::Contains("is a count"), Error);
  CHECK_THROWS_WITH_AS(solve_observed(s, Field::PricePerHour, parse_observation("utilization=50%")),
                       doctest::Contains("does not depend on cost.price_per_hour"), Error);
}

TEST_CASE("solve_observed: values the model refuses are left out of the search (cpu.cores below the reserved)") {
  // p4d: 96 vCPUs, 8 reserved; below 8 the model refuses the scenario, which must not end the search.
  const Scenario s = load_scenario("p4d-resnet50-nvme").scenario;
  const Solution sol = solve_observed(s, Field::Cores, {Observed::Utilization, 0.4});
  CHECK(sol.exact);
  CHECK(sol.value.value > 8);
  CHECK(sol.result.utilization == doctest::Approx(0.4).epsilon(1e-6));
}
