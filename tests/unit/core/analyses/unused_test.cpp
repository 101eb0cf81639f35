// Keys the user set that change nothing the diagnosis computes are named, with why; keys that
// act are not.
#include "core/analyses/unused.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "../../../support/scenarios.hpp"

using namespace pipesim;
using test::loader;

namespace {

std::vector<Field> fields(const std::vector<UnusedKey>& list) {
  std::vector<Field> out;
  for (const UnusedKey& u : list) out.push_back(u.field);
  return out;
}

const UnusedKey* find(const std::vector<UnusedKey>& list, Field f) {
  const auto it = std::find_if(list.begin(), list.end(), [&](const UnusedKey& u) { return u.field == f; });
  return it == list.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("unused keys: a measured compute time leaves the roofline's inputs unused") {
  // loader(): 4 workers, 10 ms of measured compute a batch. The FLOPs per sample set beside it
  // change nothing; the workers do.
  Scenario s = loader(4, 2);
  s.set(Field::FlopsPerSample, {8e9, Dim::Flop});
  const std::vector<Field> set = {Field::FlopsPerSample, Field::Workers};
  const std::vector<UnusedKey> u = unused_keys(s, set);
  CHECK(fields(u) == std::vector<Field>{Field::FlopsPerSample});
  CHECK(u[0].reason.find("model.measured_per_sample") != std::string::npos);
}

TEST_CASE("unused keys: a node's network bandwidth with storage per node, used once storage is shared") {
  // Two nodes, each reading 100 KB samples from storage at 1 GB/s, through a 4 Gb/s network.
  Scenario s = loader(8, 1);
  s.set(Field::Nodes, 2);
  s.set(Field::ReadBandwidth, {1e9, Dim::Rate});
  s.set(Field::NetworkBandwidth, {0.5e9, Dim::Rate});
  const std::vector<Field> set = {Field::Nodes, Field::NetworkBandwidth};
  const std::vector<UnusedKey> u = unused_keys(s, set);
  REQUIRE(find(u, Field::NetworkBandwidth) != nullptr);
  CHECK(find(u, Field::NetworkBandwidth)->reason.find("storage.scope = \"cluster\"") != std::string::npos);
  CHECK(find(u, Field::Nodes) == nullptr);  // two nodes double the throughput
  s.set(Field::StorageScope, {1, Dim::Choice});
  CHECK(find(unused_keys(s, set), Field::NetworkBandwidth) == nullptr);
}

TEST_CASE("unused keys: the prefetch factor acts on the closed forms only with variance") {
  Scenario s = loader(4, 2);
  s.set(Field::PrefetchFactor, 4);
  const std::vector<Field> set = {Field::PrefetchFactor};
  const std::vector<UnusedKey> u = unused_keys(s, set);
  REQUIRE(u.size() == 1);
  CHECK(u[0].reason.find("pipesim simulate") != std::string::npos);
  // With a transform that varies and 2 workers at the balance (20 ms batches, a 10 ms step),
  // in-order delivery waits for slow batches: more prefetch helps.
  s.set(Field::TransformCv, 0.5);
  s.set(Field::Workers, 2);
  CHECK(unused_keys(s, set).empty());
}

TEST_CASE("unused keys: nothing to say about a scenario that cannot be diagnosed, or keys not set") {
  Scenario s;
  s.set(Field::Workers, 4);
  const std::vector<Field> set = {Field::Workers};
  CHECK(unused_keys(s, set).empty());
  CHECK(unused_keys(loader(4, 2), std::vector<Field>{Field::NetworkBandwidth}).empty());
}
