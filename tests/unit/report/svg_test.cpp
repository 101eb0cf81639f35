#include "report/svg.hpp"

#include <doctest/doctest.h>

#include "../../support/sweep_pass.hpp"
#include "cli/sweep_rows.hpp"
#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep.hpp"
#include "core/stages/model.hpp"
#include "report/output.hpp"

using namespace pipesim;

TEST_CASE("nice_ticks: 1, 2 or 5 times a power of ten, covering the range") {
  CHECK(nice_ticks(0, 1, 5) == std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0});
  CHECK(nice_ticks(0, 8800, 5) == std::vector<double>{0, 2000, 4000, 6000, 8000});
  CHECK(nice_ticks(0, 0.28, 5) == std::vector<double>{0, 0.1, 0.2});
  CHECK(nice_ticks(3, 3, 5) == std::vector<double>{3});
}

TEST_CASE("log_ticks: the powers of ten inside, with 2 and 5 when there are few") {
  CHECK(log_ticks(0.0004, 0.3) == std::vector<double>{0.001, 0.01, 0.1});
  CHECK(log_ticks(0.003, 0.3) == std::vector<double>{0.005, 0.01, 0.02, 0.05, 0.1, 0.2});
  CHECK(log_ticks(1, 1000) == std::vector<double>{1, 10, 100, 1000});
  CHECK(log_ticks(0, 10).empty());
}

TEST_CASE("Scale: linear and logarithmic maps") {
  const Scale lin{0, 10, 100, 200};
  CHECK(lin(5) == doctest::Approx(150));
  const Scale log{8, 1024, 0, 700, true};
  CHECK(log(64) == doctest::Approx(300));  // 3 of 7 doublings
  const Scale flipped{0, 1, 300, 100};     // y grows upwards
  CHECK(flipped(0.25) == doctest::Approx(250));
}

TEST_CASE("Svg: text is escaped and the document is one svg element") {
  Svg svg(100, 50, "a <b> & \"c\"");
  svg.text(1, 2, "x < y & \x01");
  const std::string out = svg.finish();
  CHECK(out.find("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>") != std::string::npos);
  CHECK(out.find(">x &lt; y &amp; \\x01</text>") != std::string::npos);
  CHECK(out.rfind("</svg>\n") == out.size() - 7);
}

TEST_CASE("a sweep's curves: one curve per outer value, the crossover where the rows mark it") {
  const Scenario base = load_scenario("reference").scenario;
  const std::vector<Axis> axes = {parse_axis("pipeline.workers", "8,16"), parse_axis("pipeline.batch_size", "8..64")};
  const std::vector<Curve> curves = test::sweep_curves(base, axes);
  REQUIRE(curves.size() == 2);
  CHECK(curves[0].outer == std::vector<double>{8});
  REQUIRE(curves[0].points.size() == 4);
  CHECK(curves[0].points[2].x == 32);
  CHECK(curves[0].points[2].utilization == doctest::Approx(0.7317).epsilon(1e-3));
  CHECK(curves[0].points[2].crossed_from.has_value());
  CHECK_FALSE(curves[0].points[1].crossed_from.has_value());
  CHECK(curves[1].points[3].crossed_from.has_value());  // 16 workers cross at 64
  // Where they cross between the two points: both stages are linear in the batch size, so the
  // interpolation is the diagnosis's crossing (22.4 with 8 workers, 50.8 with 16).
  const std::vector<Crossover> at8 = find_crossovers(resolve(base));
  REQUIRE(at8.size() == 1);
  CHECK(curves[0].points[2].crossed_at == doctest::Approx(at8[0].batch).epsilon(1e-12));
  CHECK(curves[0].points[2].crossed_at == doctest::Approx(22.42).epsilon(1e-3));
  CHECK(curves[1].points[3].crossed_at == doctest::Approx(50.81).epsilon(1e-3));
  const std::vector<Axis> big = {parse_axis("pipeline.batch_size", "1..30000:+1")};
  CHECK_THROWS_AS(test::sweep_curves(base, big), Error);
}

TEST_CASE("a plot's x axis: the swept axis with the most values, curves along it, crossovers along it") {
  const std::vector<Axis> axes = {parse_axis("pipeline.workers", "6,8,10"), parse_axis("pipeline.batch_size", "16,32")};
  CHECK(plot_x_axis(axes) == 0);  // workers: 3 values against 2
  const std::vector<Axis> tied = {parse_axis("pipeline.workers", "6,8"), parse_axis("pipeline.batch_size", "16,32")};
  CHECK(plot_x_axis(tied) == 1);  // a tie: the innermost
  const std::vector<Axis> ordered = plot_axes(axes, 0);
  REQUIRE(ordered.size() == 2);
  CHECK(ordered[0].field == Field::BatchSize);
  CHECK(ordered[1].field == Field::Workers);

  // Along workers: one curve per batch size, each point the same figures as the grid's point.
  const Scenario base = load_scenario("reference").scenario;
  const std::vector<Axis> grid = {parse_axis("pipeline.batch_size", "32,64"),
                                  parse_axis("pipeline.workers", "8..14:+2")};
  const std::vector<Curve> innermost = test::sweep_curves(base, grid);  // x by default: the last axis
  const std::vector<Curve> along_workers = test::sweep_curves(base, grid, 1);
  const std::vector<Curve> by_batch = test::sweep_curves(base, grid, 0);
  REQUIRE(by_batch.size() == 4);  // one per worker count
  for (std::size_t w = 0; w < 4; ++w) {
    CHECK(by_batch[w].outer == std::vector<double>{8.0 + 2.0 * static_cast<double>(w)});
    REQUIRE(by_batch[w].points.size() == 2);
    for (std::size_t b = 0; b < 2; ++b) {
      CHECK(by_batch[w].points[b].x == along_workers[b].outer[0]);
      CHECK(by_batch[w].points[b].utilization == along_workers[b].points[w].utilization);
    }
  }
  // Batch 32 at 8 workers binds on the transform (8 ms against 5.856 ms of compute), at 12 on the
  // compute (5.333 ms): along workers the wall changes between 10 and 12; along batch size it
  // changes from 32 to 64 only where the two differ.
  CHECK_FALSE(along_workers[0].points[1].crossed_from.has_value());
  REQUIRE(along_workers[0].points[2].crossed_from.has_value());
  CHECK(*along_workers[0].points[2].crossed_from == stage_bit(Stage::Transform));
  CHECK(along_workers[0].points[2].binding == stage_bit(Stage::Compute));
  for (std::size_t w = 0; w < 4; ++w)
    CHECK(by_batch[w].points[1].crossed_from.has_value() ==
          (by_batch[w].points[0].binding != by_batch[w].points[1].binding));
  REQUIRE(innermost.size() == 2);
  CHECK(innermost[0].points[2].crossed_from == along_workers[0].points[2].crossed_from);
}

TEST_CASE("a sweep's one pass gathers the curves and inert axes that passes of their own find") {
  // Rows on 3 threads in slices of 128 points, some starting inside a curve: each point is added
  // once, from whichever thread evaluates it.
  Scenario s = load_scenario("reference").scenario;
  s.set(Field::WorkerSampleRate, {1000, Dim::SampleRate});  // the sample size changes no row
  const std::vector<Axis> axes = {parse_axis("workload.sample_size", "100KB,200KB"),
                                  parse_axis("pipeline.workers", "1..7:+1"),
                                  parse_axis("pipeline.batch_size", "1..300:+1")};
  const SweepLayout layout = sweep_layout(axes, first_point(s, axes), grid_columns(s, axes, 0), false);
  SweepGather gather(axes, true, true);
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  const auto renderer = sweep_renderer(Format::Csv);
  write_sweep(*renderer, file, s, axes, layout, SweepRun{3, false, nullptr}, nullptr, &gather);
  std::fclose(file);
  const std::vector<Curve> alone = test::sweep_curves(s, axes);
  const std::vector<Curve> gathered = gather.curves();
  REQUIRE(gathered.size() == alone.size());
  for (std::size_t c = 0; c < alone.size(); ++c) {
    CHECK(gathered[c].outer == alone[c].outer);
    REQUIRE(gathered[c].points.size() == alone[c].points.size());
    for (std::size_t i = 0; i < alone[c].points.size(); ++i) {
      const CurvePoint &a = gathered[c].points[i], &b = alone[c].points[i];
      CHECK(a.x == b.x);
      CHECK(a.utilization == b.utilization);
      CHECK(a.binding == b.binding);
      CHECK(a.crossed_from == b.crossed_from);
    }
  }
  const auto inert = gather.inert_axes(s);
  REQUIRE(inert.size() == 1);
  CHECK(inert[0].field == Field::SampleSize);
  CHECK(test::inert_axes(s, axes).size() == 1);
}
