// The Universal Scalability Law fitted to measured rates (calibrate decode).
#include <doctest/doctest.h>

#include <vector>

#include "core/analyses/scaling_fit.hpp"
#include "core/base/error.hpp"

using namespace pipesim;

TEST_CASE("scaling fit: rates made by the law give its sigma and kappa back") {
  ScalingFit law;
  law.single = 100;
  law.sigma = 0.05;
  law.kappa = 0.001;
  // 8 threads: 100 x 8 / (1 + 0.35 + 0.056) = 568.99 in all.
  CHECK(usl_rate(law, 8) == doctest::Approx(800 / 1.406));
  std::vector<ScalingPoint> points;
  for (double n : {1.0, 2.0, 4.0, 8.0, 16.0}) points.push_back({n, usl_rate(law, n)});
  const ScalingFit f = fit_scaling(points);
  CHECK(f.kappa_fitted);
  CHECK(f.single == 100);
  CHECK(f.sigma == doctest::Approx(0.05).epsilon(1e-9));
  CHECK(f.kappa == doctest::Approx(0.001).epsilon(1e-9));
  CHECK(f.max_abs_residual < 1e-9);
  REQUIRE(f.residuals.size() == 5);
}

TEST_CASE("scaling fit: two thread counts give sigma alone") {
  // 2 threads deliver 160 where 1 delivers 100: C = 1.6, 2 / 1.6 - 1 = 0.25.
  const ScalingFit f = fit_scaling({{1, 100}, {2, 160}});
  CHECK(f.sigma_fitted);
  CHECK_FALSE(f.kappa_fitted);
  CHECK(f.sigma == doctest::Approx(0.25));
  CHECK(f.kappa == 0);
  CHECK(f.max_abs_residual == doctest::Approx(0).epsilon(1e-12));
}

TEST_CASE("scaling fit: one thread count fits nothing") {
  const ScalingFit f = fit_scaling({{1, 100}});
  CHECK_FALSE(f.sigma_fitted);
  CHECK_FALSE(f.kappa_fitted);
  CHECK(f.single == 100);
}

TEST_CASE("scaling fit: better than linear is held at linear, and the residual says so") {
  // 2 threads at 210: y = 2 / 2.1 - 1 < 0, so sigma = 0 and the law says 200: -4.76%.
  const ScalingFit f = fit_scaling({{1, 100}, {2, 210}});
  CHECK(f.sigma == 0);
  CHECK(f.residuals[1] == doctest::Approx((200.0 - 210) / 210));
  CHECK(f.max_abs_residual == doctest::Approx(10.0 / 210));
}

TEST_CASE("scaling fit: a negative term is dropped and the other refitted") {
  // Rates that flatten less than linear contention alone: the free fit gives kappa < 0, so
  // the fit keeps sigma alone (least squares of y on N - 1).
  const std::vector<ScalingPoint> points{{1, 100}, {2, 150}, {4, 240}, {8, 400}};
  const ScalingFit f = fit_scaling(points);
  CHECK(f.kappa == 0);
  // y: 2/1.5-1 = 1/3, 4/2.4-1 = 2/3, 8/4-1 = 1 over x = 1, 3, 7: sigma = (1/3 + 2 + 7) / 59.
  CHECK(f.sigma == doctest::Approx((1.0 / 3 + 2 + 7) / 59));
}

TEST_CASE("scaling fit: refuses what it cannot fit") {
  CHECK_THROWS_AS(fit_scaling({{2, 100}}), Error);           // no single-thread point
  CHECK_THROWS_AS(fit_scaling({{1, 100}, {2, 0}}), Error);   // a rate of 0
  CHECK_THROWS_AS(fit_scaling({{1, 100}, {0, 50}}), Error);  // no threads
}

TEST_CASE("time slicing fit: the CPU per unit past the logical CPUs against at them") {
  // 2 CPUs: 2 threads 2.0 ms a unit, 3 threads 2.1 ms (x = 1/2, y = 0.05), 4 threads 2.2 ms
  // (x = 1, y = 0.1): o = (0.5 x 0.05 + 1 x 0.1) / (0.25 + 1) = 0.1 exactly.
  const auto o = fit_oversubscription({{1, 1.8e-3}, {2, 2.0e-3}, {3, 2.1e-3}, {4, 2.2e-3}}, 2);
  REQUIRE(o);
  CHECK(*o == doctest::Approx(0.1));
  // Only 4 against 2: y = 0.3 at x = 1.
  CHECK(*fit_oversubscription({{2, 1e-3}, {4, 1.3e-3}}, 2) == doctest::Approx(0.3));
  // Less CPU past the CPUs (noise) is held at 0; nothing past them: not measured.
  CHECK(*fit_oversubscription({{2, 1e-3}, {4, 0.9e-3}}, 2) == 0);
  CHECK_FALSE(fit_oversubscription({{1, 1e-3}, {2, 1.1e-3}}, 2));
  CHECK_THROWS_AS(fit_oversubscription({{1, 1e-3}, {4, 1.1e-3}}, 2), Error);  // nothing at the CPUs
  CHECK_THROWS_AS(fit_oversubscription({{2, 1e-3}, {4, 0}}, 2), Error);
}
