// Plan labels in check's and compare's output: one per plan argument, all different.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli/common.hpp"

namespace pipesim {

using Labels = std::vector<std::string>;

TEST_CASE("plan labels: a file's stem, a preset's name") {
  CHECK(plan_labels({"plans/gpu.toml", "reference", "-"}) == Labels{"gpu", "reference", "stdin"});
}

TEST_CASE("plan labels that two plans share take more of their paths until they differ") {
  CHECK(plan_labels({"a/plan.toml", "b/plan.toml", "c.toml"}) == Labels{"a/plan", "b/plan", "c"});
  // Only as much as it takes: x/a/plan and y/a/plan differ first at the third part from the end.
  CHECK(plan_labels({"x/a/plan.toml", "y/a/plan.toml"}) == Labels{"x/a/plan", "y/a/plan"});
  // ./ and a trailing path form do not count as a difference of their own.
  CHECK(plan_labels({"./a/plan.toml", "b/plan.toml"}) == Labels{"a/plan", "b/plan"});
  // A shorter path beside a longer one: the whole of it.
  CHECK(plan_labels({"plan.toml", "b/plan.toml"}) == Labels{"plan", "b/plan"});
}

TEST_CASE("plan labels: the same plan named twice is told apart by its place") {
  CHECK(plan_labels({"a/plan.toml", "a/plan.toml", "a/plan.toml"}) == Labels{"a/plan", "a/plan (2)", "a/plan (3)"});
  CHECK(plan_labels({"reference", "reference"}) == Labels{"reference", "reference (2)"});
}

}  // namespace pipesim
