// The variance closed form (core/stages/variance.hpp), fitted against `pipesim simulate` by
// scripts/validation/fit-variance: its limits worked by hand, and agreement with the simulation.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "../../../support/scenarios.hpp"
#include "core/sim/simulate.hpp"
#include "core/stages/variance.hpp"

using namespace pipesim;

TEST_CASE("the expected largest of n standard normals") {
  CHECK(expected_max_normal(1) == 0);
  CHECK(expected_max_normal(2) == doctest::Approx(0.5642).epsilon(0.05));  // exact: 1 / sqrt(pi)
  CHECK(expected_max_normal(4) == doctest::Approx(1.0294).epsilon(0.02));
  CHECK(expected_max_normal(16) == doctest::Approx(1.7660).epsilon(0.01));
}

TEST_CASE("the slowest of n lognormal steps: its mean and spread") {
  // One: the draw itself. No spread: 1 whatever n.
  CHECK(slowest_of(1, 0.3).mean == 1);
  CHECK(slowest_of(1, 0.3).sd == 0.3);
  CHECK(slowest_of(64, 0).mean == 1);
  CHECK(slowest_of(64, 0).sd == 0);
  // Two draws of exp(mu + sigma Z), mean 1: E[max^k] = 2 exp(k mu + k^2 sigma^2 / 2) Phi(k sigma / sqrt 2),
  // so the mean is 2 Phi(sigma / sqrt 2) and E[max^2] = 2 exp(sigma^2) Phi(sigma sqrt 2).
  for (double cv : {0.05, 0.2, 0.5, 1.0}) {
    const double sigma = std::sqrt(std::log1p(cv * cv));
    const auto Phi = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
    const double mean = 2 * Phi(sigma / std::sqrt(2.0));
    const double second = 2 * std::exp(sigma * sigma) * Phi(sigma * std::sqrt(2.0));
    const Slowest two = slowest_of(2, cv);
    CAPTURE(cv);
    CHECK(two.mean == doctest::Approx(mean).epsilon(1e-9));
    CHECK(two.sd == doctest::Approx(std::sqrt(second - mean * mean)).epsilon(1e-7));
  }
  // Small spread: close to 1 + cv x the expected largest of n standard normals (8: 1.4236).
  CHECK(slowest_of(8, 0.01).mean == doctest::Approx(1 + 0.01 * 1.4236).epsilon(1e-4));
  // More accelerators wait longer, and the slowest's own spread narrows.
  CHECK(slowest_of(64, 0.2).mean > slowest_of(8, 0.2).mean);
  CHECK(slowest_of(64, 0.2).sd < slowest_of(8, 0.2).sd);
  CHECK(slowest_of(100000, 0.2).mean < 3);
}

TEST_CASE("padding to the batch's longest: the longest of B lengths, within its bucket") {
  // Nothing to pad: one sample a batch, or every sample of one length.
  CHECK(padded_length(1, 0.5) == 1);
  CHECK(padded_length(64, 0) == 1);
  // Two samples, one bucket: the longer of two lognormal draws of mean 1 is 2 Phi(sigma / sqrt 2).
  const auto Phi = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
  for (double cv : {0.2, 0.5, 1.0}) {
    CAPTURE(cv);
    const double sigma = std::sqrt(std::log1p(cv * cv));
    CHECK(padded_length(2, cv) == doctest::Approx(2 * Phi(sigma / std::sqrt(2.0))).epsilon(1e-9));
    CHECK(padded_length(256, cv) == doctest::Approx(slowest_of(256, cv).mean).epsilon(1e-6));
  }
  // cv 1: 1.444 for two samples.
  CHECK(padded_length(2, 1.0) == doctest::Approx(1.44394).epsilon(1e-5));
  // Buckets pad less, and with one sample a batch each bucket's mean averages to the mean.
  // cv 0.5, 32 a batch (a fine quadrature done apart): 2.4456 with one bucket, 1.2589 with eight.
  CHECK(padded_length(32, 0.5) == doctest::Approx(2.4456).epsilon(1e-4));
  CHECK(padded_length(32, 0.5, 8) == doctest::Approx(1.2589).epsilon(1e-4));
  CHECK(padded_length(32, 0.5, 4) < padded_length(32, 0.5, 1));
  CHECK(padded_length(32, 0.5, 16) < padded_length(32, 0.5, 4));
  CHECK(padded_length(32, 0.5, 256) < 1.05);
  // Against drawing: lengths sorted into 4 buckets of equal share, batches of 8 from one bucket.
  std::mt19937_64 rng(7);
  const double sigma = std::sqrt(std::log1p(0.5 * 0.5));
  std::lognormal_distribution<double> length(-sigma * sigma / 2, sigma);
  std::vector<double> all(400000);
  for (double& x : all) x = length(rng);
  std::sort(all.begin(), all.end());
  const std::size_t per = all.size() / 4;
  std::uniform_int_distribution<std::size_t> pick(0, per - 1);
  double longest = 0;
  constexpr int kBatches = 200000;
  for (int b = 0; b < kBatches; ++b) {
    const std::size_t bucket = static_cast<std::size_t>(b % 4) * per;
    double m = 0;
    for (int i = 0; i < 8; ++i) m = std::max(m, all[bucket + pick(rng)]);
    longest += m;
  }
  CHECK(padded_length(8, 0.5, 4) == doctest::Approx(longest / kBatches).epsilon(2e-3));
}

TEST_CASE("no variation: the slower side's rate exactly; variation: less, more so in order") {
  VarianceInputs v;
  v.workers = 4;
  v.worker_rate = 100;
  v.loop_rate = 120;
  CHECK(delivered_rate(v) == 100);
  v.worker_rate = 150;
  CHECK(delivered_rate(v) == 120);
  v.worker_rate = 120;
  v.batch_cv = 0.3;
  const double in_order = delivered_rate(v);
  CHECK(in_order < 120);
  v.in_order = false;
  const double any = delivered_rate(v);
  CHECK(any > in_order);
  CHECK(any < 120);
  v.in_order = true;
  v.prefetch = 8;
  CHECK(delivered_rate(v) > in_order);
  // At the balance point with a long buffer the starved rate is s2 / 2K: a loop of step cv 0.2
  // and no batch variation over K = 2 x 4 batches loses 120 x 0.04 / 16 = 0.3 batches/s.
  v = VarianceInputs{};
  v.workers = 4;
  v.worker_rate = v.loop_rate = 120;
  v.loop_cv = 0.2;
  CHECK(delivered_rate(v) == doctest::Approx(120 - 0.3).epsilon(1e-9));
  // Huge variation over a short buffer: never nothing (1% of the slower side at least).
  v.workers = 1;
  v.prefetch = 1;
  v.batch_cv = 1e6;
  CHECK(delivered_rate(v) >= 1.2);
  CHECK(delivered_rate(v) <= 120);
}

TEST_CASE("the closed form follows the simulation where it was fitted") {
  // Batch 16 of per-sample cv 1.5 (batch cv 0.375) at the balance point: simulate's steady
  // utilization and the closed form agree within 0.03 for 6 and 8 workers, in order or not,
  // prefetch 2 and 4, and within 0.1 with prefetch 1, the form's weakest cell (the fit's
  // held-out error at batch cv 0.3 to 0.55: mean 0.020, largest 0.12).
  for (double w : {6, 8})
    for (double p : {1, 2, 4})
      for (double in_order : {1, 0}) {
        Scenario s = test::reference(16);
        s.set(Field::Workers, w);
        s.set(Field::TransformCv, 1.5);
        s.set(Field::PrefetchFactor, p);
        s.set(Field::InOrder, in_order);
        SimOptions o;
        o.batches = 20000;
        const Simulation m = simulate(resolve(s), o);
        CAPTURE(w);
        CAPTURE(p);
        CAPTURE(in_order);
        CHECK(std::abs(m.analytic.utilization - m.utilization) < (p == 1 ? 0.1 : 0.03));
        if (m.analytic.utilization < 0.999) CHECK(m.analytic.stage(Stage::Transform).limit == Limit::Variance);
      }
}
