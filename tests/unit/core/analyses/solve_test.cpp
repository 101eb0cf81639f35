#include "core/analyses/solve.hpp"

#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <vector>

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

TEST_CASE("parse_observation: samples/s of one accelerator, of the node or of the cluster, said in words") {
  const Observation plain = parse_observation("790 samples/s");
  CHECK(plain.scope == Scope::Accelerator);
  CHECK(parse_observation("700 samples/s per accelerator").scope == Scope::Accelerator);
  CHECK(parse_observation("700 samples/s per GPU").scope == Scope::Accelerator);
  const Observation node = parse_observation("5600 samples/s for the node");
  CHECK(node.kind == Observed::SamplesPerS);
  CHECK(node.scope == Scope::Node);
  CHECK(node.value == 5600);
  CHECK(parse_observation("5.6k samples/s per node").scope == Scope::Node);
  CHECK(parse_observation("44800 samples/s for the cluster").scope == Scope::Cluster);
  CHECK(observation_text(node) == "5,600 samples/s for the node");
  // Steps and utilization are every accelerator's alike.
  CHECK_THROWS_WITH_AS(parse_observation("3.1 it/s for the node"), doctest::Contains("only samples/s"), Error);
  CHECK_THROWS_WITH_AS(parse_observation("utilization=40% for the node"), doctest::Contains("expected"), Error);
}

TEST_CASE("solve_observed: the node's samples/s solves as its accelerators' together") {
  // p4d: 8 accelerators. The node's 8x is one accelerator's x, and the same field value.
  const Scenario s = load_scenario("p4d-resnet50-nvme").scenario;
  const Solution node = solve_observed(s, Field::WorkerSampleRate, parse_observation("4000 samples/s for the node"));
  const Solution one = solve_observed(s, Field::WorkerSampleRate, parse_observation("500 samples/s"));
  CHECK(node.value.value == doctest::Approx(one.value.value).epsilon(1e-9));
  CHECK(node.result.throughput_per_node == doctest::Approx(4000).epsilon(1e-9));
  // A node's rate given as one accelerator's is out of reach, and the error says how to say it.
  const double compute_s = evaluate(resolve(s)).stages[static_cast<std::size_t>(Stage::Compute)].time_s;
  const double too_many = 2 * s.get(Field::BatchSize) / compute_s;  // twice the compute-bound rate
  CHECK_THROWS_WITH_AS(
      solve_observed(s, Field::WorkerSampleRate, Observation{Observed::SamplesPerS, too_many, Scope::Accelerator}),
      doctest::Contains("samples/s for the node\""), Error);
}

TEST_CASE("solve_observations: observations that agree fit as one, those that disagree say how far") {
  const Scenario s = reference_at(256);
  // Two figures of one model run agree: the fit is their common value.
  const Solution util = solve_observed(s, Field::WorkerThroughput, parse_observation("utilization=40%"));
  const double rate = 256 / util.result.step_s;
  const JointSolution agree = solve_observations(
      s, Field::WorkerThroughput, {parse_observation("utilization=40%"), Observation{Observed::SamplesPerS, rate}});
  CHECK(agree.spread == doctest::Approx(1).epsilon(1e-6));
  CHECK(agree.spread <= kAgreeWithin);
  CHECK(agree.fit.value.value == doctest::Approx(util.value.value).epsilon(1e-6));

  // Utilization 45% and half that rate cannot both hold: each alone, and between them the value
  // with the least squared log error, where one figure is over its observation and one under.
  const std::vector<Observation> both = {parse_observation("utilization=45%"),
                                         Observation{Observed::SamplesPerS, rate / 2}};
  const JointSolution j = solve_observations(s, Field::WorkerThroughput, both);
  REQUIRE(j.each.size() == 2);
  const double a = j.each[0].value.value;
  const double b = j.each[1].value.value;
  CHECK(a == doctest::Approx(solve_observed(s, Field::WorkerThroughput, both[0]).value.value));
  CHECK(j.spread == doctest::Approx(std::max(a, b) / std::min(a, b)));
  CHECK(j.spread > kAgreeWithin);
  CHECK(j.fit.value.value > std::min(a, b));
  CHECK(j.fit.value.value < std::max(a, b));
  CHECK(j.fitted[0] < 0.45);
  CHECK(j.fitted[1] > rate / 2);
  const auto misfit = [&](double v) {
    Scenario t = s;
    t.set(Field::WorkerThroughput, Quantity{v, Dim::Rate});
    const Inputs in = resolve(t);
    const Result r = evaluate(in);
    double sum = 0;
    for (const Observation& o : both) sum += std::pow(std::log(observed_figure(r, in.batch, o.kind) / o.value), 2);
    return sum;
  };
  const double fit = misfit(j.fit.value.value);
  CHECK(fit <= misfit(j.fit.value.value * 1.01));
  CHECK(fit <= misfit(j.fit.value.value / 1.01));
  CHECK(fit < misfit(a));
  CHECK(fit < misfit(b));
}
