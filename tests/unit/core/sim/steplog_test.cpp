#include "core/sim/steplog.hpp"

#include <doctest/doctest.h>

#include "core/base/error.hpp"

using namespace pipesim;

TEST_CASE("summarise_step_log: the input-bound fraction, the loop's step and the loader's rate") {
  const std::vector<StepRecord> records = {{2.0, 2.5, 1}, {0.1, 0.4, 2}, {0.3, 0.6, 3}, {0.2, 0.5, 4}};
  const StepLogSummary s = summarise_step_log(records, 1, 64.0);
  CHECK(s.records == 3);
  CHECK(s.mean_time_s == doctest::Approx(0.5));
  CHECK(s.input_bound_fraction == doctest::Approx(0.2 / 0.5));
  CHECK(s.input_bound);
  CHECK(s.loop_step_s == doctest::Approx(0.3));
  CHECK(s.loader_steps_per_s == doctest::Approx(2.0));
  CHECK(*s.loader_samples_per_s == doctest::Approx(128.0));
  CHECK(s.wait.max == doctest::Approx(0.3));
  // A loader that keeps up: waits under 5% of the time.
  const StepLogSummary k = summarise_step_log({{0.01, 0.5, 1}, {0.01, 0.5, 2}}, 0, std::nullopt);
  CHECK_FALSE(k.input_bound);
  CHECK_FALSE(k.loader_samples_per_s);
  CHECK_THROWS_WITH_AS(summarise_step_log(records, 4, std::nullopt), doctest::Contains("nothing is left"), Error);
}
