#include <doctest/doctest.h>

#include "config/loader.hpp"
#include "core/diagnosis.hpp"

using namespace pipesim;

namespace {
Scenario reference() { return load_scenario("reference").scenario; }
const Fix* find(const Diagnosis& d, FixKind k) {
  for (const auto& f : d.fixes)
    if (f.kind == k) return &f;
  return nullptr;
}
}  // namespace

TEST_CASE("reference: 44 workers make it compute-bound") {
  const Diagnosis d = diagnose(reference());
  // 256 x 500 KB / (11.7432 ms x 250 MB/s) = 43.6 -> 44
  REQUIRE(d.workers_needed);
  CHECK(*d.workers_needed == 44);
  const Fix* f = find(d, FixKind::Workers);
  REQUIRE(f);
  CHECK(f->changes.at(0).value.value == 44);
  CHECK(f->result.utilization == 1);
  // 43 workers would not be enough.
  Scenario s = reference();
  s.set(Field::Workers, 43);
  CHECK(evaluate(resolve(s)).utilization < 1);
}

TEST_CASE("each proposed fix, applied, gives the utilization it promised") {
  Scenario s = reference();
  s.set(Field::AcceleratorCount, 8);
  s.set(Field::Cores, 96);
  s.set(Field::ReadBandwidth, {3.5e9, Dim::Rate});
  s.set(Field::Iops, 20000);
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::LinkSharedBy, 2);
  s.set(Field::DeviceSampleSize, {602112, Dim::Size});
  s.set(Field::LinkPinned, {0, Dim::Bool});
  const Diagnosis d = diagnose(s);
  CHECK(d.fixes.size() >= 3);
  for (const auto& f : d.fixes) {
    Scenario applied = s;
    for (const auto& c : f.changes) applied.set(c.field, c.value);
    const Result r = evaluate(resolve(applied));
    CHECK(r.utilization == f.result.utilization);
    CHECK(r.throughput == f.result.throughput);
  }
  const Fix* cores = find(d, FixKind::WorkersAndCores);
  REQUIRE(cores);  // (96 - 8 reserved) / 8 = 11 cores per accelerator < 44 workers needed
  CHECK(cores->changes.at(1).value.value == 44 * 8 + 8);  // and one core per training process
}

TEST_CASE("crossover: compute binds up to batch 22, the transform above") {
  // 0.25 ms x B = 5.015 ms + 0.0262821 ms x B  ->  B = 5.015 / 0.2237179 = 22.4166
  const Diagnosis d = diagnose(reference());
  REQUIRE(d.crossovers.size() == 1);
  CHECK(d.crossovers[0].batch == doctest::Approx(5.015e-3 / (0.25e-3 - 4.1e9 / 156e12)).epsilon(1e-12));
  CHECK(d.crossovers[0].input_stage == Stage::Transform);
  CHECK(d.crossovers[0].input_binds_above);
  Scenario s = reference();
  s.set(Field::BatchSize, 22);
  CHECK(evaluate(resolve(s)).binds(Stage::Compute));
  s.set(Field::BatchSize, 23);
  CHECK(evaluate(resolve(s)).binds(Stage::Transform));
}

TEST_CASE("compute-bound: nothing to fix") {
  Scenario s = reference();
  s.set(Field::Workers, 64);
  const Diagnosis d = diagnose(s);
  CHECK(d.result.utilization == 1);
  CHECK(d.fixes.empty());
}
