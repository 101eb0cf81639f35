#include "core/sim/random.hpp"

#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <vector>

using namespace pipesim;

namespace {

// The Kolmogorov-Smirnov distance between two samples (the largest gap of their empirical
// distribution functions).
double ks_distance(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0;
  double most = 0;
  while (i < a.size() && j < b.size()) {
    const double v = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= v) ++i;
    while (j < b.size() && b[j] <= v) ++j;
    most = std::max(most, std::fabs(static_cast<double>(i) / static_cast<double>(a.size()) -
                                    static_cast<double>(j) / static_cast<double>(b.size())));
  }
  return most;
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

}  // namespace

TEST_CASE("a sum drawn at once has the sum's mean, variance and skewness") {
  // 0.1 ms samples with cv 0.5, 64 to a batch: mean 6.4 ms, deviation 0.05 ms x 8 = 0.4 ms,
  // skewness 0.5 x 3.25 / 8 = 0.203125. The shifted lognormal's cv u solves u^3 + 3u = 0.203125.
  const LognormalSum s(1e-4, 0.5, 64);
  REQUIRE(s.at_once());
  Rng rng(3);
  constexpr int kDraws = 400000;
  double sum = 0, sq = 0, cube = 0;
  std::vector<double> draws(kDraws);
  for (double& d : draws) sum += d = s.draw(rng);
  const double mean = sum / kDraws;
  for (const double d : draws) sq += (d - mean) * (d - mean), cube += std::pow(d - mean, 3);
  const double deviation = std::sqrt(sq / kDraws);
  CHECK(mean == doctest::Approx(6.4e-3).epsilon(2e-4));
  CHECK(deviation == doctest::Approx(4e-4).epsilon(5e-3));
  CHECK(cube / kDraws / std::pow(deviation, 3) == doctest::Approx(0.203125).epsilon(0.1));
  CHECK(*std::min_element(draws.begin(), draws.end()) > 0);
}

TEST_CASE("a sum of one is the lognormal itself; no variance is the mean; past the kurtosis bound, n draws") {
  Rng a(9), b(9);
  const Lognormal one(2e-3, 1.5);
  const LognormalSum sum(2e-3, 1.5, 1);
  for (int i = 0; i < 100; ++i) CHECK(sum.draw(a) == doctest::Approx(one.draw(b)).epsilon(1e-12));
  CHECK(LognormalSum(2e-3, 0, 256).draw(a) == doctest::Approx(0.512));
  // cv 1: excess kurtosis 38 per draw, so n = 19 is the least drawn at once (38 / 19 = 2).
  CHECK(LognormalSum(1, 1, 19).at_once());
  CHECK_FALSE(LognormalSum(1, 1, 18).at_once());
  CHECK_FALSE(LognormalSum(1, 0.5, 256, false).at_once());
}

TEST_CASE("batch draws against per-sample draws: distribution within the stated error") {
  // At and well inside the bound: cv 1 with 19 and 256 samples, cv 1.5 with 103 (kurtosis
  // 206 / 103 = 2), cv 0.5 with 8. KS distance at most 0.011 and p50, p95, p99 within 0.6% of the
  // mean (docs/manual/commands.md, "Simulation"), with room for 100,000 draws' own noise (KS about 0.006).
  struct Case {
    double cv;
    std::size_t n;
  };
  for (const Case c : {Case{1, 19}, Case{1, 256}, Case{1.5, 103}, Case{0.5, 8}}) {
    CAPTURE(c.cv);
    CAPTURE(c.n);
    const LognormalSum at_once(1, c.cv, c.n), per_sample(1, c.cv, c.n, false);
    REQUIRE(at_once.at_once());
    Rng r1(1), r2(2);
    std::vector<double> x(100000), y(100000);
    for (double& v : x) v = at_once.draw(r1);
    for (double& v : y) v = per_sample.draw(r2);
    CHECK(ks_distance(x, y) < 0.017);
    for (const double q : {0.5, 0.95, 0.99})
      CHECK(std::fabs(quantile(x, q) - quantile(y, q)) < 0.009 * static_cast<double>(c.n));
  }
}

TEST_CASE("the generator's normals have mean 0 and variance 1, both of each pair used") {
  Rng rng(5);
  double sum = 0, sq = 0;
  constexpr int kDraws = 200000;
  for (int i = 0; i < kDraws; ++i) {
    const double z = rng.normal();
    sum += z;
    sq += z * z;
  }
  CHECK(std::fabs(sum / kDraws) < 0.01);
  CHECK(sq / kDraws == doctest::Approx(1).epsilon(0.01));
}
