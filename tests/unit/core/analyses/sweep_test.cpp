// Sweeps: axes, the grid walk, the alternatives rule at every point, and crossovers decided on
// binding stages.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>

#include "../../../support/reference.hpp"
#include "../../../support/sweep_pass.hpp"
#include "core/analyses/sweep.hpp"
#include "core/analyses/sweep_run.hpp"

using namespace pipesim;

namespace {

// A scenario where every alternative field has something to act on: the reference case with
// a host link and device bytes, a price and a dataset.
Scenario base() {
  Scenario s = test::reference_case(256);
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::DeviceSampleSize, {150528, Dim::Size});
  s.set(Field::DeviceDtype, {0, Dim::Choice});  // uint8
  s.set(Field::PurchasePrice, {250000, Dim::Money});
  s.set(Field::DatasetSamples, 1281167);
  s.set(Field::Amortization, {3 * 365 * 86400.0, Dim::Duration});
  return s;
}

// Two values for each alternative field, each different from what the others say.
const std::map<Field, std::pair<Quantity, Quantity>>& two_values() {
  static const std::map<Field, std::pair<Quantity, Quantity>> v = {
      {Field::WorkerThroughput, {{100e6, Dim::Rate}, {200e6, Dim::Rate}}},
      {Field::WorkerSampleRate, {{1000, Dim::SampleRate}, {2000, Dim::SampleRate}}},
      {Field::TransformCost, {{2e-3, Dim::Duration}, {3e-3, Dim::Duration}}},
      {Field::FrameCost, {{0.5e-3, Dim::Duration}, {5e-3, Dim::Duration}}},
      {Field::PricePerHour, {{10, Dim::MoneyRate}, {20, Dim::MoneyRate}}},
      {Field::PurchasePrice, {{100000, Dim::Money}, {400000, Dim::Money}}},
      {Field::DeviceSampleSize, {{150e3, Dim::Size}, {300e3, Dim::Size}}},
      {Field::DeviceShape, {{3 * 224 * 224, Dim::Number}, {3 * 512 * 512, Dim::Number}}},
  };
  return v;
}

Result run(const Scenario& s) { return evaluate(resolve(s)); }

}  // namespace

TEST_CASE("sweeping an alternative field replaces the others at every point") {
  // Every alternative field, swept from a scenario that sets each of its alternatives: each point
  // equals the scenario where only the swept field is set (the bug was the swept value ignored, or
  // refused as a conflict with a line the user never wrote).
  std::size_t checked = 0;
  for (const auto& [field, values] : two_values()) {
    for (Field other : alternatives(field)) {
      if (other == field) continue;
      Scenario s = base();
      s.set(other, two_values().at(other).first);
      CHECK(s.has(other));
      const std::vector<Axis> axes{{field, Range::list({values.first.value, values.second.value}, values.first.dim)}};
      std::vector<Result> got;
      sweep(s, axes, false, [&](const SweepPoint& p) {
        CHECK_FALSE(p.scenario.has(other));
        got.push_back(p.result);
      });
      REQUIRE(got.size() == 2);
      for (int i = 0; i < 2; ++i) {
        Scenario only = base();
        only.set(field, i == 0 ? values.first : values.second);
        const Result want = run(only);
        CAPTURE(spec(field).key);
        CAPTURE(spec(other).key);
        CHECK(got[static_cast<std::size_t>(i)].step_s == want.step_s);
        CHECK(got[static_cast<std::size_t>(i)].stage(Stage::Transfer).time_s == want.stage(Stage::Transfer).time_s);
        CHECK(got[static_cast<std::size_t>(i)].price_per_hour == want.price_per_hour);
      }
      // The two points differ: the swept value is used.
      const bool differ = got[0].step_s != got[1].step_s ||
                          got[0].stage(Stage::Transfer).time_s != got[1].stage(Stage::Transfer).time_s ||
                          got[0].price_per_hour != got[1].price_per_hour;
      CHECK(differ);
      ++checked;
    }
  }
  // 4 transform rates x 3 others + 2 prices x 1 + 2 device-bytes fields x 1.
  CHECK(checked == 16);
}

TEST_CASE("Scenario::set replaces a field's alternatives, and says which one is set") {
  Scenario s = base();
  CHECK(s.set_alternative(Field::WorkerSampleRate) == Field::WorkerThroughput);
  s.set(Field::TransformCost, {1e-3, Dim::Duration});
  CHECK_FALSE(s.has(Field::WorkerThroughput));
  CHECK(s.set_alternative(Field::WorkerThroughput) == Field::TransformCost);
  CHECK_FALSE(s.set_alternative(Field::BatchSize).has_value());
}

TEST_CASE("axes: unknown keys are suggested, two axes on one field or on alternatives are refused") {
  CHECK(parse_axis("pipeline.batch_size", "8,16").range.size() == 2);
  try {
    parse_axis("pipeline.batchsize", "8,16");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "unknown key 'pipeline.batchsize'; did you mean 'pipeline.batch_size'?");
  }
  const Axis batch = parse_axis("pipeline.batch_size", "8,16");
  CHECK(grid_size({batch, parse_axis("pipeline.workers", "1..4:+1")}) == 8);
  CHECK_THROWS_AS(grid_size({batch, batch}), Error);
  CHECK_THROWS_AS(
      grid_size({parse_axis("cpu.worker_throughput", "1GB/s,2GB/s"), parse_axis("cost.price_per_hour", "1,2"),
                 parse_axis("workload.transform_cost", "1ms,2ms")}),
      Error);
}

TEST_CASE("crossovers are decided on the binding stages along the inner axis") {
  // Reference case with 16 workers: transform B x 0.125 ms against compute 5.015 ms + B x 0.0263 ms
  // crosses at B = 5.015 / (0.125 - 0.0263) = 50.8: batch 32 is compute-bound, 64 transform-bound.
  Scenario s = base();
  s.set(Field::Workers, 16);
  std::vector<Axis> axes{parse_axis("cpu.cores", "100,200"), parse_axis("pipeline.batch_size", "16,32,64,128")};
  std::vector<std::optional<unsigned>> crossed;
  sweep(s, axes, false, [&](const SweepPoint& p) { crossed.push_back(p.crossed_from); });
  REQUIRE(crossed.size() == 8);
  const unsigned compute = 1u << static_cast<unsigned>(Stage::Compute);
  // Not at the start of a run of the inner axis (index 4: the outer axis moved).
  CHECK(crossed == std::vector<std::optional<unsigned>>{std::nullopt, std::nullopt, compute, std::nullopt, std::nullopt,
                                                        std::nullopt, compute, std::nullopt});
}

TEST_CASE("a sweep cut in slices gives the same points and crossovers as one pass") {
  // Slices may start inside a run of the inner axis (as the threads of `sweep` cut it): the
  // point before a slice seeds its crossover state.
  Scenario s = base();
  s.set(Field::Workers, 16);
  const std::vector<Axis> axes{parse_axis("cpu.cores", "20,100,200"), parse_axis("pipeline.batch_size", "8..256:+8")};
  const std::size_t total = grid_size(axes);
  std::vector<std::pair<double, std::optional<unsigned>>> whole;
  sweep(s, axes, false, [&](const SweepPoint& p) { whole.emplace_back(p.result.step_s, p.crossed_from); });
  REQUIRE(whole.size() == total);
  std::size_t crossings = 0;
  for (const auto& w : whole) crossings += w.second ? 1u : 0u;
  CHECK(crossings >= 2);
  for (std::size_t slice : {1u, 5u, 7u, 32u, 33u}) {
    std::vector<std::pair<double, std::optional<unsigned>>> parts;
    for (std::size_t begin = 0; begin < total; begin += slice)
      sweep(s, axes, begin, std::min(total, begin + slice), false,
            [&](const SweepPoint& p) { parts.emplace_back(p.result.step_s, p.crossed_from); });
    CAPTURE(slice);
    CHECK(parts == whole);
  }
}

TEST_CASE("invalid points are rows that say why, exactly where diagnose refuses the scenario") {
  // 16 cores with one reserved per training process: 16 or more accelerators leave no core for
  // workers, which the model refuses; 1, 4 and 15 accelerators are valid.
  Scenario s = base();
  s.set(Field::Cores, 16);
  const std::vector<Axis> axes{parse_axis("accelerator.count", "1,16,4,32,15"),
                               parse_axis("pipeline.batch_size", "64,128")};
  std::vector<bool> invalid;
  std::vector<std::optional<unsigned>> crossed;
  sweep(s, axes, true, [&](const SweepPoint& p) {
    bool refused = false;
    try {
      diagnose(p.scenario);
    } catch (const Error&) {
      refused = true;
    }
    CHECK(refused == !p.invalid.empty());
    CHECK((p.diagnosis == nullptr) == refused);
    if (refused) CHECK(std::string(p.invalid).find("leaves no CPU for workers") != std::string::npos);
    invalid.push_back(!p.invalid.empty());
    crossed.push_back(p.crossed_from);
  });
  CHECK(invalid == std::vector<bool>{false, false, true, true, false, false, true, true, false, false});
  for (std::size_t i = 0; i < crossed.size(); ++i)
    if (invalid[i]) CHECK_FALSE(crossed[i].has_value());
}

TEST_CASE("a run of the grid: every point once, written in order, the refused ones summed up") {
  // The grid above (10 points, 4 refused, the first at index 2) over 300 batch sizes: 1,500
  // points in chunks of 128 (64 when diagnosed), on 1 and 3 threads. Each row's text is its index;
  // what is written must be every index in order, whatever the threads.
  Scenario s = base();
  s.set(Field::Cores, 16);
  const std::vector<Axis> axes{parse_axis("accelerator.count", "1,16,4,32,15"),
                               parse_axis("pipeline.batch_size", "1..300:+1")};
  for (const bool diagnose_points : {false, true})
    for (const unsigned jobs : {1u, 3u}) {
      std::string written;
      std::vector<std::size_t> done;
      std::vector<int> diagnosed(grid_size(axes), -1);
      const SweepSummary summary = run_sweep(
          s, axes, SweepRun{jobs, diagnose_points, nullptr},
          [&](std::size_t i, const SweepPoint& p, std::string& text) {
            text += std::to_string(i) + "\n";
            diagnosed[i] = p.diagnosis != nullptr;
          },
          [&](const std::string& text, std::size_t n) {
            written += text;
            done.push_back(n);
          });
      std::string want;
      for (std::size_t i = 0; i < grid_size(axes); ++i) want += std::to_string(i) + "\n";
      CHECK(written == want);
      const std::size_t chunk = diagnose_points ? 64 : 128;
      REQUIRE(done.size() == (1500 + chunk - 1) / chunk);
      CHECK(done.front() == chunk);
      CHECK(done.back() == 1500);
      CHECK(summary.invalid == 600);  // 16 and 32 accelerators, 300 batch sizes each
      CHECK(summary.first_invalid == 300);
      CHECK(summary.first_point == "accelerator.count=16, pipeline.batch_size=1");
      CHECK(summary.first_reason.find("leaves no CPU for workers") != std::string::npos);
      // Diagnosed where the run asks, and then at every valid point.
      CHECK(std::count(diagnosed.begin(), diagnosed.end(), 1) == (diagnose_points ? 900 : 0));
    }
}

TEST_CASE("the first valid point is found before anything is written, and with none the first error is thrown") {
  Scenario s = base();
  s.set(Field::Cores, 16);
  CHECK(first_valid_point(s, {parse_axis("accelerator.count", "32,16,8")}) == 2);
  CHECK(first_valid_point(s, {parse_axis("accelerator.count", "8,32")}) == 0);
  try {
    first_valid_point(s, {parse_axis("accelerator.count", "16,32")});
    FAIL("no error");
  } catch (const FieldError& e) {
    CHECK(e.field() == Field::Cores);
  }
  // Simulated: a point the model accepts but whose run would be too long to simulate is not
  // valid either; with none valid, the first point's reason.
  SimOptions too_long;
  too_long.batches = 100'000'000'000;
  CHECK_THROWS_WITH_AS(first_valid_point(s, {parse_axis("accelerator.count", "8,4")}, &too_long),
                       doctest::Contains("would take too long"), Error);
  SimOptions fine;
  fine.batches = 1000;
  CHECK(first_valid_point(s, {parse_axis("accelerator.count", "16,8")}, &fine) == 1);
}

TEST_CASE("sweep columns hold every stage modelled at any point, not only at the first") {
  // Decoding on the GPU (first value) models no transform stage; on the CPU it does. The columns
  // must equal the union over every point, found by brute force.
  Scenario s = base();
  s.set(Field::GpuTime, {0.1e-3, Dim::Duration});
  const std::vector<Axis> axes{parse_axis("pipeline.batch_size", "32,64"), parse_axis("transform.device", "gpu,cpu"),
                               parse_axis("pipeline.workers", "4,8")};
  unsigned all = 0;
  sweep(s, axes, false, [&](const SweepPoint& p) {
    for (Stage st : kStages)
      if (p.result.stage(st).modelled) all |= stage_bit(st);
  });
  const Result first = run(first_point(s, axes));
  CHECK_FALSE(first.stage(Stage::Transform).modelled);
  const GridColumns c = grid_columns(s, axes, first_valid_point(s, axes));
  CHECK(c.stages == all);
  CHECK((c.stages & stage_bit(Stage::Transform)) != 0);
}

TEST_CASE("inert axes: an axis that changes no row is named, with the known cause") {
  // A per-sample transform rate (1000 samples/s per worker): the sample size reaches no
  // modelled stage, so every row is the same at 100 KB and 200 KB; the batch size changes rows.
  Scenario s = test::reference_case(256);
  s.set(Field::WorkerSampleRate, {1000, Dim::SampleRate});
  const auto inert = test::inert_axes(
      s, {parse_axis("workload.sample_size", "100KB,200KB"), parse_axis("pipeline.batch_size", "32,64")});
  REQUIRE(inert.size() == 1);
  CHECK(inert[0].field == Field::SampleSize);
  CHECK(inert[0].reason.find("per sample") != std::string::npos);
  // A per-byte rate (250 MB/s): the transform's time grows with the sample size.
  CHECK(test::inert_axes(test::reference_case(256), {parse_axis("workload.sample_size", "100KB,200KB")}).empty());
  // One value is not an axis that could change anything.
  CHECK(test::inert_axes(s, {parse_axis("workload.sample_size", "100KB")}).empty());
  // Larger grids are not checked.
  CHECK(test::inert_axes(
            s, {parse_axis("workload.sample_size", "1KB..30KB:+1KB"), parse_axis("pipeline.batch_size", "1..1000:+1")})
            .empty());
}

TEST_CASE("grid_columns: the effective-workers column when cores cap the workers somewhere") {
  // 8 cores, one reserved for the training process: 7 workers run at once, so 4..16 workers
  // are capped at 16 (the axis's end), not at 4.
  Scenario capped = test::reference_case(256);
  capped.set(Field::Cores, 8);
  CHECK(grid_columns(capped, {parse_axis("pipeline.workers", "4,16")}, 0).effective_workers);
  CHECK_FALSE(grid_columns(capped, {parse_axis("pipeline.workers", "2,4")}, 0).effective_workers);
  CHECK_FALSE(grid_columns(test::reference_case(256), {parse_axis("pipeline.workers", "4,16")}, 0).effective_workers);
}

TEST_CASE("a rate per step cannot be swept: it is samples/s only at one batch size") {
  CHECK_THROWS_WITH_AS(parse_axis("cpu.worker_sample_rate", "1,2 it/s"),
                       "cpu.worker_sample_rate: a rate per step (it/s) is samples/s only at one batch size; sweep "
                       "it in samples/s",
                       Error);
  CHECK(parse_axis("cpu.worker_sample_rate", "100,200 samples/s").range.size() == 2);
}

TEST_CASE("a sweep's plan: checked before any row, the plan judged at each row's own batch size") {
  const Scenario s = base();
  SweepRequest r;
  r.axes = {parse_axis("pipeline.workers", "0,8,16")};
  SweepPlan p = plan_sweep(s, r);
  CHECK(p.points == 3);
  CHECK(p.valid == 0);
  CHECK(p.first.value(Field::Workers) == 0);
  CHECK_FALSE(p.verdict);
  // A plan's requirements judge every row; its batch sizes stand while the batch is not swept,
  // and give way to each row's own where it is.
  r.plan.requirements.push_back(Requirement{Metric::Throughput, 1, 0, {}, false});
  r.plan.batch_sizes = parse_range("64,128", spec(Field::BatchSize));
  p = plan_sweep(s, r);
  CHECK(p.verdict);
  CHECK(p.plan.batch_sizes.has_value());
  r.axes.push_back(parse_axis("pipeline.batch_size", "32,64"));
  p = plan_sweep(s, r);
  CHECK_FALSE(p.plan.batch_sizes.has_value());
  // --cost without a price, and a grid past kLargeSweepPoints without --force, are refused.
  Scenario unpriced = s;
  unpriced.unset(Field::PurchasePrice);
  unpriced.unset(Field::Amortization);
  SweepRequest c;
  c.axes = {parse_axis("pipeline.workers", "4,8")};
  c.cost = true;
  CHECK_THROWS_WITH_AS(plan_sweep(unpriced, c), doctest::Contains("--cost needs a price"), Error);
  CHECK_NOTHROW(plan_sweep(s, c));
  SweepRequest big;
  big.axes = {parse_axis("pipeline.batch_size", "1..5000:+1"), parse_axis("pipeline.workers", "1..2001:+1")};
  CHECK_THROWS_WITH_AS(plan_sweep(s, big), doctest::Contains("pass --force to run it"), Error);
  // A simulated sweep whose --batches cannot reach the steady state (at 4 workers, two rounds of
  // the prefetching workers and more) is refused before any row.
  SimOptions sim;
  sim.batches = 2;
  SweepRequest few;
  few.axes = {parse_axis("pipeline.workers", "4,8")};
  few.simulate = &sim;
  CHECK_THROWS_WITH_AS(plan_sweep(s, few), doctest::Contains("--batches 2 is too few"), Error);
  sim.batches = 10000;
  CHECK_NOTHROW(plan_sweep(s, few));
}
