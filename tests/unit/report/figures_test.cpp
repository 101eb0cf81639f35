// The figure registry against every renderer's real output: each figure a point has is in the
// JSON (in its group, with its value), in a CSV sweep's column when the layout has the column,
// and in the table's diagnosis where the registry says the table shows it; a figure the point
// lacks is in none of them, and neither format writes a figure the registry does not hold.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>

#include "../../support/csv_check.hpp"
#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "report/figures.hpp"
#include "report/json_writer.hpp"
#include "report/output.hpp"
#include "report/words.hpp"

using namespace pipesim;
using nlohmann::json;

namespace {

// Plans that between them give every figure of the registry a value: storage, page cache and a
// first epoch, memory, cost, several nodes; cores shared by time; no workers; a pageable copy;
// workers time-sliced and the loop's launch under the interpreter lock.
std::vector<LoadedScenario> plans() {
  std::vector<LoadedScenario> out;
  LoadedScenario rich = load_scenario("p4d-resnet50-nfs");
  apply_assignment(rich, "node.page_cache=100 GB");
  apply_assignment(rich, "cluster.nodes=2");
  apply_assignment(rich, "workload.epochs=90");
  out.push_back(rich);
  LoadedScenario shared = load_scenario("pytorch-dataloader");
  for (const char* a :
       {"model.measured_overhead=8.4 ms", "model.measured_per_sample=0 s", "workload.sample_size=110 KB",
        "workload.device_shape=3x224x224", "workload.device_dtype=fp32", "workload.transform_cost=2.1 ms",
        "workload.dataset_samples=1600", "pipeline.batch_size=8", "pipeline.workers=2", "pipeline.loop_cpu_share=0",
        "cpu.cores=2", "cpu.memcpy_bandwidth=2 GB/s"})
    apply_assignment(shared, a);
  out.push_back(shared);
  LoadedScenario serial = load_scenario("reference");
  apply_assignment(serial, "pipeline.workers=0");
  out.push_back(serial);
  LoadedScenario pageable = load_scenario("p4d-resnet50-nvme");
  apply_assignment(pageable, "link.pinned=false");
  apply_assignment(pageable, "workload.sample_size_cv=0.3");  // and padded to the batch's longest
  apply_assignment(pageable, "workload.padding=longest");
  out.push_back(pageable);
  // More workers than the node's cores, time slicing dear; the loop's launch under the lock.
  LoadedScenario sliced = load_scenario("p4d-resnet50-nvme");
  for (const char* a : {"pipeline.workers=24", "cpu.oversubscription_cost=0.5", "pipeline.launch_time=2 ms"})
    apply_assignment(sliced, a);
  out.push_back(sliced);
  // Eight accelerators whose steps vary wait for the slowest.
  LoadedScenario spread = load_scenario("p4d-resnet50-nvme");
  apply_assignment(spread, "model.step_cv=0.3");
  out.push_back(spread);
  return out;
}

json walls_json(unsigned bits) {
  json a = json::array();
  for (Stage st : kStages)
    if (bits & stage_bit(st)) a.push_back(std::string(stage_key(st)));
  return a;
}

// What JSON holds for a figure's value.
json json_value(FigureUnit unit, double v) {
  if (unit == FigureUnit::Flag) return v != 0;
  if (unit == FigureUnit::Walls) return walls_json(static_cast<unsigned>(v));
  if (unit == FigureUnit::Limit) return std::string(limit_key(static_cast<Limit>(v)));
  return v;
}

// What a CSV cell holds for a figure's value.
std::string csv_value(FigureUnit unit, std::optional<double> v) {
  if (!v) return "";
  if (unit == FigureUnit::Flag) return *v != 0 ? "true" : "false";
  if (unit == FigureUnit::Walls) return walls_text(static_cast<unsigned>(*v));
  return json_number(*v);
}

}  // namespace

TEST_CASE("every figure of the registry is where the registry says, in JSON, CSV and the table") {
  std::set<std::string> given;  // figures some plan gave a value
  for (const LoadedScenario& s : plans()) {
    CAPTURE(s.name);
    const Diagnosis d = diagnose(s.scenario);
    const Result& r = d.result;
    const FigureSource source{r, std::nullopt};

    // JSON: each figure the point has, with its value; none it lacks; no other figure.
    const json j = json::parse(render(Format::Json, DiagnosisReport{s, d}));
    const std::set<std::string> not_figures{
        "pipesim_version", "schema_version",  "scenario",        "inputs",     "stages",
        "first_epoch",     "assumptions",     "needs",           "page_cache", "storage_capacity",
        "crossovers",      "recommendations", "fidelity_losses", "unused",     "spread_ceiling_utilization"};
    std::set<std::string> point_keys, first_epoch_keys;
    for (const PointFigure& f : point_figures()) {
      CAPTURE(f.key);
      const bool cold = f.group == FigureGroup::FirstEpoch;
      (cold ? first_epoch_keys : point_keys).insert(std::string(f.key));
      const json& obj = cold ? (j.contains("first_epoch") ? j["first_epoch"] : json::object()) : j;
      const auto v = f.value(source);
      if (!v) {
        CHECK_FALSE(obj.contains(f.key));
        continue;
      }
      given.insert(std::string(cold ? "first_epoch." : "") + std::string(f.key));
      REQUIRE(obj.contains(f.key));
      CHECK(obj[std::string(f.key)] == json_value(f.unit, *v));
    }
    for (const auto& [key, value] : j.items()) {
      CAPTURE(key);
      CHECK((point_keys.contains(key) || not_figures.contains(key)));
    }
    if (j.contains("first_epoch"))
      for (const auto& [key, value] : j["first_epoch"].items()) CHECK(first_epoch_keys.contains(key));
    for (std::size_t i = 0; i < kStages.size(); ++i) {
      const json& js = j["stages"][i];
      for (const StageFigure& f : stage_figures()) {
        CAPTURE(f.key);
        const auto v = f.value(r.stage(kStages[i]));
        CHECK(js.contains(f.key) == v.has_value());
        if (v) CHECK(js[std::string(f.key)] == json_value(f.unit, *v));
      }
      CHECK(js.size() == 2 + static_cast<std::size_t>(std::count_if(
                                 stage_figures().begin(), stage_figures().end(),
                                 [&](const StageFigure& f) { return f.value(r.stage(kStages[i])).has_value(); })));
    }

    // CSV: a sweep of this one point, every part of the layout on: each column its figure's.
    SweepLayout layout;
    layout.inputs = {Field::BatchSize};
    layout.cost = r.price_per_hour.has_value();
    layout.first_epoch = layout.effective_workers = layout.worst_epoch = layout.run = true;
    layout.first_point = s.scenario;
    const SweepPoint p{s.scenario, r, nullptr, std::nullopt, {}, nullptr};
    std::string csv;
    {
      Out o(csv);
      auto renderer = sweep_renderer(Format::Csv);
      renderer->begin(layout);
      renderer->row(o, layout, p, true);
      SweepSummary summary;
      summary.points = 1;
      renderer->end(o, layout, summary);
    }
    test::CsvCheck c;
    REQUIRE_MESSAGE(c.parse(csv), c.error);
    REQUIRE(c.rows.size() == 2);
    std::map<std::string, std::string> cells;
    for (std::size_t i = 0; i < c.rows[0].size(); ++i) cells[c.rows[0][i]] = c.rows[1][i];
    std::size_t columns = 0;
    for (const PointFigure& f : point_figures()) {
      if (f.csv_part == CsvPart::None || (f.csv_part == CsvPart::Cost && !layout.cost)) continue;
      CAPTURE(f.csv);
      ++columns;
      REQUIRE(cells.contains(std::string(f.csv)));
      CHECK(cells[std::string(f.csv)] == csv_value(f.unit, f.value({r, false})));
    }
    for (Stage st : kStages)
      for (const StageFigure& f : stage_figures())
        if (f.csv) {
          ++columns;
          const std::string column = fmt::format("{}_{}", stage_key(st), f.key);
          CAPTURE(column);
          CHECK(cells[column] == csv_value(f.unit, f.value(r.stage(st))));
        }
    CHECK(c.rows[0].size() == columns + required_fields().size() + 1);  // the inputs and `invalid`
    CHECK(cells["invalid"].empty());

    // The table: the figures it shows, as people read them.
    const std::string table = render(Format::Table, DiagnosisReport{s, d});
    for (const PointFigure& f : point_figures()) {
      const auto v = f.value(source);
      if (!f.table || !v) continue;
      CAPTURE(f.key);
      CHECK(table.find(figure_text(f.unit, *v)) != std::string::npos);
    }
    for (Stage st : kStages)
      for (const StageFigure& f : stage_figures()) {
        const auto v = f.value(r.stage(st));
        if (!f.table || !v || *v == 0) continue;
        CAPTURE(f.key);
        // A flag by its label ("binding"); a rate without its unit, which the column's title says.
        const std::string text = figure_text(f.unit, *v);
        CHECK(table.find(f.unit == FigureUnit::Flag         ? std::string(f.label)
                         : f.unit == FigureUnit::SampleRate ? text.substr(0, text.find(' '))
                                                            : text) != std::string::npos);
      }
  }
  // Between them the plans gave every figure but the sweep's crossover a value.
  for (const PointFigure& f : point_figures()) {
    if (f.key == "crossover") continue;
    CAPTURE(f.key);
    CHECK(given.contains(std::string(f.group == FigureGroup::FirstEpoch ? "first_epoch." : "") + std::string(f.key)));
  }
}

TEST_CASE("a sweep's crossover is a figure of its rows alone") {
  const Result r = evaluate(resolve(load_scenario("reference").scenario));
  const auto crossover = std::find_if(point_figures().begin(), point_figures().end(),
                                      [](const PointFigure& f) { return f.key == "crossover"; });
  REQUIRE(crossover != point_figures().end());
  CHECK_FALSE(crossover->value({r, std::nullopt}).has_value());
  CHECK(crossover->value({r, true}) == 1.0);
  CHECK(crossover->value({r, false}) == 0.0);
}

TEST_CASE("figure keys are unique within their group, and CSV columns unique") {
  std::set<std::pair<FigureGroup, std::string_view>> keys;
  std::set<std::string_view> columns;
  for (const PointFigure& f : point_figures()) {
    CAPTURE(f.key);
    CHECK(keys.insert({f.group, f.key}).second);
    CHECK(!f.label.empty());
    if (f.csv_part != CsvPart::None)
      CHECK(columns.insert(f.csv).second);
    else
      CHECK(f.csv.empty());
  }
}
