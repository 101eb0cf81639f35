#include "core/analyses/trace.hpp"

#include <doctest/doctest.h>

#include "core/base/error.hpp"

using namespace pipesim;

namespace {

// Two steps of 100 ms: in the first the loop waits 30 ms for data, in the second 20 ms; kernels
// overlap one another and the step's end.
RankTrace two_steps(std::string path = "rank0.json") {
  RankTrace t;
  t.path = std::move(path);
  t.steps = {{0.100, 0.200}, {0.000, 0.100}};  // out of order, as a file may hold them
  t.loader = {{0.000, 0.030}, {0.100, 0.120}};
  t.kernels = {{0.040, 0.070}, {0.060, 0.080}, {0.190, 0.230}};
  t.copies = {{0.031, 0.035, 4e6}, {0.121, 0.123, 2e6}};
  t.device_events = true;
  return t;
}

}  // namespace

TEST_CASE("summarise_traces: each step's wait, loop, copies and the union of its kernels") {
  const TraceSummary s = summarise_traces({two_steps()});
  REQUIRE(s.ranks.size() == 1);
  const auto& steps = s.ranks[0].steps;
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].step_s == doctest::Approx(0.100));
  CHECK(steps[0].data_wait_s == doctest::Approx(0.030));
  CHECK(steps[0].loop_s == doctest::Approx(0.070));
  CHECK(steps[0].busy_s == doctest::Approx(0.040));  // 40-80 ms: two kernels' union
  CHECK(steps[0].h2d_s == doctest::Approx(0.004));
  CHECK(steps[0].h2d_bytes == 4e6);
  CHECK(steps[1].data_wait_s == doctest::Approx(0.020));
  CHECK(steps[1].busy_s == doctest::Approx(0.010));  // 190-200 ms: the kernel clipped at the step's end
  CHECK(s.steps == 2);
  CHECK(s.step_s == doctest::Approx(0.100));
  CHECK(s.steps_per_s == doctest::Approx(10.0));  // the pace the loader kept: 1 / 100 ms
  CHECK(s.data_wait_fraction == doctest::Approx(0.050 / 0.200));
  REQUIRE(s.busy_fraction);
  CHECK(*s.busy_fraction == doctest::Approx(0.050 / 0.200));
  REQUIRE(s.h2d_bytes_per_s);
  CHECK(*s.h2d_bytes_per_s == doctest::Approx(6e6 / 0.006));
  CHECK(s.input_bound);  // 25% of the time: input-bound, and highly
  CHECK(s.highly_input_bound);
  CHECK(s.loop_s == doctest::Approx(0.075));
}

TEST_CASE("summarise_traces: no device events, no busy fraction; a slow rank is a straggler") {
  RankTrace a = two_steps("a.json"), b = two_steps("b.json"), c = two_steps("c.json");
  for (RankTrace* t : {&a, &b, &c}) {
    t->kernels.clear();
    t->copies.clear();
    t->device_events = false;
  }
  c.steps = {{0.000, 0.100}, {0.100, 0.250}};  // 125 ms a step against 100 ms
  const TraceSummary s = summarise_traces({a, b, c});
  CHECK_FALSE(s.busy_fraction);
  CHECK_FALSE(s.h2d_bytes_per_s);
  CHECK_FALSE(s.ranks[0].straggler);
  CHECK(s.ranks[2].straggler);
  CHECK(s.steps == 6);
}

TEST_CASE("summarise_traces: a trace without steps, or whose steps take no batch, is an error") {
  RankTrace none = two_steps();
  none.steps.clear();
  CHECK_THROWS_WITH_AS(summarise_traces({none}), doctest::Contains("no ProfilerStep marks"), Error);
  RankTrace no_loader = two_steps();
  no_loader.loader = {{0.300, 0.310}};
  CHECK_THROWS_WITH_AS(summarise_traces({no_loader}), doctest::Contains("iterates a DataLoader"), Error);
  RankTrace some = two_steps();
  some.loader = {{0.000, 0.030}};
  CHECK(summarise_traces({some}).steps_without_loader == 1);
}

TEST_CASE("summarise_traces: overlapping and nested kernels count once, clipped to each step") {
  RankTrace t;
  t.path = "rank0.json";
  t.steps = {{0, 10}, {2, 25}, {10, 20}};
  t.loader = {{0, 1}, {2, 3}, {10, 11}};
  t.kernels = {{5, 9}, {0, 4}, {1, 2}, {3, 6}, {20, 30}};
  t.device_events = true;
  const TraceSummary summary = summarise_traces({t});
  const auto& steps = summary.ranks[0].steps;
  CHECK(steps[0].busy_s == doctest::Approx(9.0));
  CHECK(steps[1].busy_s == doctest::Approx(12.0));
  CHECK(steps[2].busy_s == doctest::Approx(0.0));
}
