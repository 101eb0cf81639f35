#include <doctest/doctest.h>

#include <cmath>

#include "../support/reference.hpp"
#include "config/loader.hpp"
#include "core/model.hpp"

using namespace pipesim;

namespace {

// The DESIGN.md reference case, built field by field (not from the preset file).
Scenario reference(double batch = 256) { return test::reference_case(batch); }

double ms(double s) { return s * 1e3; }
// Rounds to the printed digits of the published table.
double round2(double v) { return std::round(v * 100) / 100; }
double round1(double v) { return std::round(v * 10) / 10; }

}  // namespace

TEST_CASE("the reference table of DESIGN.md section 1, to the printed digits") {
  struct Row {
    double batch, step_ms, transform_ms, util_pct;
  };
  // compute = 0.015 + 50 x 0.10 ms + B x 4.1e9 / (312e12 x 0.5) = 5.015 ms + B x 0.026282 ms
  // transform = B x 500 KB / (8 x 250 MB/s) = B x 0.25 ms
  for (const Row row : {Row{32, 5.86, 8.00, 73.2}, Row{64, 6.70, 16.00, 41.9}, Row{128, 8.38, 32.00, 26.2},
                        Row{256, 11.74, 64.00, 18.3}, Row{512, 18.47, 128.00, 14.4},
                        Row{1024, 31.93, 256.00, 12.5}}) {
    CAPTURE(row.batch);
    const Result r = evaluate(resolve(reference(row.batch)));
    CHECK(round2(ms(r.stage(Stage::Compute).time_s)) == row.step_ms);
    CHECK(round2(ms(r.stage(Stage::Transform).time_s)) == row.transform_ms);
    CHECK(round1(r.utilization * 100) == row.util_pct);
    CHECK(r.binding == 1u << static_cast<unsigned>(Stage::Transform));
    CHECK_FALSE(r.stage(Stage::Storage).modelled);
    CHECK_FALSE(r.stage(Stage::Transfer).modelled);
  }
}

TEST_CASE("reference at batch 256: exact stage times, slowdown and data demand") {
  const Result r = evaluate(resolve(reference(256)));
  const double compute = 0.015e-3 + 50 * 0.10e-3 + 256 * 4.1e9 / (312e12 * 0.5);
  CHECK(r.stage(Stage::Compute).time_s == doctest::Approx(compute).epsilon(1e-14));
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.064).epsilon(1e-14));
  CHECK(r.step_s == doctest::Approx(0.064).epsilon(1e-14));
  CHECK(r.utilization == doctest::Approx(compute / 0.064).epsilon(1e-14));
  CHECK(round2(r.slowdown) == 5.45);
  CHECK(r.data_demand == doctest::Approx(256 * 500e3 / compute).epsilon(1e-14));
  CHECK(round1(r.data_demand / 1e9) == 10.9);
  CHECK(r.throughput == doctest::Approx(4000).epsilon(1e-14));
}

TEST_CASE("the embedded reference preset is the same scenario") {
  const LoadedScenario loaded = load_scenario("");
  const Result a = evaluate(resolve(loaded.scenario));
  const Result b = evaluate(resolve(reference(256)));
  CHECK(a.step_s == b.step_s);
  CHECK(a.stage(Stage::Compute).time_s == b.stage(Stage::Compute).time_s);
}

TEST_CASE("batch 1 is memory-bound: 5.04 ms") {
  // flop term 4.1e9 / 156e12 = 26.28 us < weight term 51.2 MB x 1.1 / 2039 GB/s = 27.62 us
  const Result r = evaluate(resolve(reference(1)));
  CHECK(r.memory_bound);
  CHECK(r.stage(Stage::Compute).time_s ==
        doctest::Approx(5.015e-3 + 25.6e6 * 2 * 1.1 / 2039e9).epsilon(1e-14));
  CHECK(round2(ms(r.stage(Stage::Compute).time_s)) == 5.04);
  CHECK_FALSE(evaluate(resolve(reference(2))).memory_bound);
}

TEST_CASE("workers = 0: the main process does everything in turn") {
  Scenario s = reference(32);
  s.set(Field::Workers, 0);
  const Result r = evaluate(resolve(s));
  // transform on one process: 32 x 500 KB / 250 MB/s = 64 ms; compute 5.856 ms; step = sum
  CHECK(r.serial);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.064).epsilon(1e-14));
  CHECK(r.step_s == doctest::Approx(0.064 + r.stage(Stage::Compute).time_s).epsilon(1e-14));
  CHECK(r.utilization == doctest::Approx(r.stage(Stage::Compute).time_s / r.step_s).epsilon(1e-14));
  CHECK(r.binds(Stage::Transform));
}

TEST_CASE("more workers than cores add nothing") {
  Scenario s = reference(256);
  s.set(Field::Workers, 64);
  s.set(Field::Cores, 48);
  s.set(Field::AcceleratorCount, 4);  // (48 - 4 reserved for the training processes) / 4 = 11 cores each
  Result r = evaluate(resolve(s));
  CHECK(r.effective_workers == 11);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(256 * 500e3 / (11 * 250e6)).epsilon(1e-14));
  s.set(Field::ReservedCores, 0);  // 48 / 4 = 12
  r = evaluate(resolve(s));
  CHECK(r.effective_workers == 12);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(256 * 500e3 / (12 * 250e6)).epsilon(1e-14));
  CHECK(r.throughput == doctest::Approx(4 * 256 / r.step_s).epsilon(1e-14));
}

TEST_CASE("worker throughput in samples/s, or a transform cost per sample") {
  Scenario s = reference(256);
  s.unset(Field::WorkerThroughput);
  s.set(Field::WorkerSampleRate, {500, Dim::SampleRate});
  CHECK(evaluate(resolve(s)).stage(Stage::Transform).time_s == doctest::Approx(256.0 / (8 * 500)).epsilon(1e-14));
  Scenario c = reference(256);
  c.unset(Field::WorkerThroughput);
  c.set(Field::TransformCost, {4e-3, Dim::Duration});
  CHECK(evaluate(resolve(c)).stage(Stage::Transform).time_s == doctest::Approx(256 * 4e-3 / 8).epsilon(1e-14));
  // Setting one rate replaces the others: the scenario never holds two.
  c.set(Field::WorkerThroughput, {250e6, Dim::Rate});
  CHECK_FALSE(c.has(Field::TransformCost));
  CHECK(evaluate(resolve(c)).stage(Stage::Transform).time_s == doctest::Approx(256 * 500e3 / (8 * 250e6)).epsilon(1e-14));
}

TEST_CASE("storage: bandwidth shared by the node's accelerators, IOPS, latency, cache") {
  Scenario s = reference(256);
  s.set(Field::AcceleratorCount, 8);
  s.set(Field::ReadBandwidth, {8e9, Dim::Rate});  // 1 GB/s each
  Result r = evaluate(resolve(s));
  CHECK(r.stage(Stage::Storage).time_s == doctest::Approx(256 * 500e3 / 1e9).epsilon(1e-14));  // 128 ms
  CHECK(r.binds(Stage::Storage));
  CHECK(r.stage(Stage::Storage).limit == Limit::Bandwidth);

  s.set(Field::CacheHit, 0.5);
  r = evaluate(resolve(s));
  CHECK(r.stage(Stage::Storage).time_s == doctest::Approx(0.064).epsilon(1e-14));
  CHECK(r.binding == ((1u << 0) | (1u << 1)));  // storage and transform co-bind at 64 ms

  s.set(Field::Iops, 8000);  // 1000 requests/s each, one request per sample
  r = evaluate(resolve(s));
  CHECK(r.stage(Stage::Storage).limit == Limit::Iops);
  CHECK(r.stage(Stage::Storage).time_s == doctest::Approx(128 / 1000.0).epsilon(1e-14));

  Scenario l = reference(256);
  l.set(Field::ReadBandwidth, {100e9, Dim::Rate});
  l.set(Field::Latency, {10e-3, Dim::Duration});
  l.set(Field::QueueDepth, 16);  // 16 x 500 KB per 10 ms = 800 MB/s
  r = evaluate(resolve(l));
  CHECK(r.stage(Stage::Storage).limit == Limit::Latency);
  CHECK(r.stage(Stage::Storage).time_s == doctest::Approx(256 * 500e3 / 800e6).epsilon(1e-14));
}

TEST_CASE("transfer: pinned overlaps, pageable serialises with compute") {
  Scenario s = reference(256);
  s.set(Field::WorkerThroughput, {2500e6, Dim::Rate});  // transform 6.4 ms, out of the way
  s.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  s.set(Field::DeviceSampleSize, {602112, Dim::Size});  // 224 x 224 x 3 fp32
  Result r = evaluate(resolve(s));
  const double copy = 256 * 602112 / 25e9;  // 6.17 ms
  const double compute = r.stage(Stage::Compute).time_s;
  CHECK(r.stage(Stage::Transfer).time_s == doctest::Approx(copy).epsilon(1e-14));
  CHECK(r.step_s == compute);
  CHECK(r.utilization == 1);

  // Pageable: 0.4 x 25 GB/s = 10 GB/s by default -> 15.41 ms, added to compute.
  s.set(Field::LinkPinned, {0, Dim::Bool});
  r = evaluate(resolve(s));
  CHECK(r.transfer_serialised);
  const double pageable_copy = 256 * 602112 / 10e9;
  CHECK(r.stage(Stage::Transfer).time_s == doctest::Approx(pageable_copy).epsilon(1e-14));
  CHECK(r.step_s == doctest::Approx(compute + pageable_copy).epsilon(1e-14));
  s.set(Field::PageableBandwidth, {12.5e9, Dim::Rate});  // measured: 12.5 GB/s -> 12.33 ms
  r = evaluate(resolve(s));
  CHECK(r.step_s == doctest::Approx(compute + 256 * 602112 / 12.5e9).epsilon(1e-14));
  s.unset(Field::PageableBandwidth);
  CHECK(r.binds(Stage::Transfer));
  CHECK_FALSE(r.binds(Stage::Compute));

  Scenario missing = reference(256);
  missing.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  CHECK_THROWS_AS(resolve(missing), FieldError);
}

TEST_CASE("measured compute: overhead + B x per-sample time") {
  Scenario s = reference(400);
  s.set(Field::MeasuredPerSample, {0.435 / 400, Dim::Duration});
  const Result r = evaluate(resolve(s));
  CHECK(r.stage(Stage::Compute).time_s == doctest::Approx(0.435).epsilon(1e-14));
}

TEST_CASE("missing required fields are reported by field") {
  Scenario s = reference(256);
  s.unset(Field::PeakFlops);
  try {
    resolve(s);
    FAIL("expected an error");
  } catch (const FieldError& e) {
    CHECK(e.field() == Field::PeakFlops);
  }
  Scenario t = reference(256);
  t.unset(Field::BatchSize);
  CHECK_THROWS_AS(resolve(t), FieldError);
}

TEST_CASE("training: three passes and three times the layer overhead") {
  Scenario s = reference(256);
  s.set(Field::Passes, 3);
  const Result r = evaluate(resolve(s));
  CHECK(r.stage(Stage::Compute).time_s ==
        doctest::Approx(0.015e-3 + 3 * 50 * 0.10e-3 + 256 * 3 * 4.1e9 / 156e12).epsilon(1e-14));
}
