// compare: one row per metric, the best plan(s) in each, and each plan's value over the best.
#include <doctest/doctest.h>

#include "../../../support/reference.hpp"
#include "core/analyses/compare.hpp"

using namespace pipesim;

TEST_CASE("compare: the best in each row and each value over the best") {
  // The reference case delivers 4000 samples/s (8 workers x 250 MB/s / 500 KB); with 16
  // workers 8000 samples/s, utilization 0.18349 -> 0.36698 (compute 11.743 ms over a step of
  // 64 and 32 ms). Ratios to the best: 4000 / 8000 = 0.5 and 1.
  Scenario more = test::reference_case(256);
  more.set(Field::Workers, 16);
  const std::vector<Result> results = {evaluate(resolve(test::reference_case(256))), evaluate(resolve(more))};
  const auto rows = compare(results);
  const auto row = [&](CompareMetric m) {
    for (const auto& r : rows)
      if (r.metric == m) return r;
    FAIL("no row");
    return rows.front();
  };
  const CompareRow tp = row(CompareMetric::Throughput);
  CHECK(*tp.values[0] == doctest::Approx(4000));
  CHECK(*tp.values[1] == doctest::Approx(8000));
  CHECK(tp.best == std::vector<bool>{false, true});
  CHECK(*tp.ratio[0] == doctest::Approx(0.5));
  CHECK(*tp.ratio[1] == 1);
  const CompareRow util = row(CompareMetric::Utilization);
  CHECK(*util.ratio[0] == doctest::Approx(0.5));
  // Beside the plan's throughput, each accelerator's: a node of 8 at the same rates delivers 8
  // times the throughput, the same per accelerator.
  Scenario eight = test::reference_case(256);
  eight.set(Field::AcceleratorCount, 8);
  const auto sized = compare({results[0], evaluate(resolve(eight))});
  const auto sized_row = [&](CompareMetric m) {
    for (const auto& r : sized)
      if (r.metric == m) return r;
    FAIL("no row");
    return sized.front();
  };
  CHECK(*sized_row(CompareMetric::Throughput).values[1] == doctest::Approx(32000));
  const CompareRow per = sized_row(CompareMetric::ThroughputPerAccelerator);
  CHECK(*per.values[0] == doctest::Approx(4000));
  CHECK(*per.values[1] == doctest::Approx(4000));
  CHECK(per.best == std::vector<bool>{false, false});
  // No dataset: no epoch time, no best, no ratio.
  const CompareRow epoch = row(CompareMetric::EpochTime);
  CHECK_FALSE(epoch.any);
  CHECK_FALSE(epoch.ratio[0].has_value());
  // Equal values have no best and no ratio.
  const auto same = compare({results[0], results[0]});
  CHECK(same.front().best == std::vector<bool>{false, false});
  CHECK_FALSE(same.front().ratio[0].has_value());
}

TEST_CASE("compare: a smaller-is-better row takes the smallest as best; ratios are above 1") {
  // With 1,281,167 samples the epochs take 1281167 / 4000 = 320.3 s and half that.
  Scenario a = test::reference_case(256), b = test::reference_case(256);
  a.set(Field::DatasetSamples, 1281167);
  b.set(Field::DatasetSamples, 1281167);
  b.set(Field::Workers, 16);
  const auto rows = compare({evaluate(resolve(a)), evaluate(resolve(b))});
  for (const auto& r : rows) {
    if (r.metric != CompareMetric::EpochTime) continue;
    CHECK(*r.values[0] == doctest::Approx(1281167.0 / 4000));
    CHECK(r.best == std::vector<bool>{false, true});
    CHECK(*r.ratio[0] == doctest::Approx(2));
  }
}

TEST_CASE("compare: a plan that fails its requirements is best only when every plan fails") {
  // 16 workers deliver twice the throughput (8000 against 4000 samples/s), but that plan fails.
  Scenario more = test::reference_case(256);
  more.set(Field::Workers, 16);
  const std::vector<Result> results = {evaluate(resolve(test::reference_case(256))), evaluate(resolve(more))};
  const auto throughput = [](const std::vector<CompareRow>& rows) { return rows.front(); };
  const CompareRow passing = throughput(compare(results, {false, true}));
  CHECK(passing.best == std::vector<bool>{true, false});
  CHECK(*passing.ratio[1] == doctest::Approx(2));  // over the best that does not fail
  CHECK(throughput(compare(results, {true, true})).best == std::vector<bool>{false, true});
  CHECK(throughput(compare(results, {true, false})).best == std::vector<bool>{false, true});
}

TEST_CASE("compare: the first epoch, the run's utilization, time and cost") {
  // 1,281,167 samples at 4000 samples/s over 3 epochs, at $36/h ($0.01 a second).
  Scenario a = test::reference_case(256);
  a.set(Field::DatasetSamples, 1281167);
  a.set(Field::Epochs, 3);
  a.set(Field::PricePerHour, {36, Dim::MoneyRate});
  const Result r = evaluate(resolve(a));
  REQUIRE(r.run_s);
  CHECK(*compare_value(CompareMetric::RunTime, r) == *r.run_s);
  CHECK(*compare_value(CompareMetric::RunCost, r) == doctest::Approx(*r.run_s * 0.01));
  CHECK(*compare_value(CompareMetric::RunUtilization, r) == *r.run_utilization);
  CHECK(*compare_value(CompareMetric::WorstEpochUtilization, r) == r.worst_epoch->utilization);
  CHECK(r.worst_epoch->utilization < r.utilization);  // the epoch's start
}
