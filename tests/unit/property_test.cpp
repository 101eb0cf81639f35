// Property tests over many seeded random scenarios: the model's invariants hold, more of
// any resource never lowers throughput, and JSON, CSV and the table agree on every number.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "../support/json_check.hpp"
#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep.hpp"
#include "report/diagnosis_words.hpp"
#include "report/json_writer.hpp"
#include "report/output.hpp"
#include "report/words.hpp"

using namespace pipesim;

namespace {

constexpr int kScenarios = 3000;

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t seed) : rng(seed) {}
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); }
  double log_uniform(double a, double b) { return std::exp(uniform(std::log(a), std::log(b))); }
  double whole(double a, double b) { return std::floor(uniform(a, b + 1)); }
  bool coin(double p = 0.5) { return uniform(0, 1) < p; }
};

// A random but complete scenario: every mechanism appears in some of them.
Scenario random_scenario(Gen& g) {
  Scenario s;
  s.set(Field::BatchSize, g.whole(1, 2048));
  s.set(Field::Workers, g.coin(0.1) ? 0 : g.whole(1, 64));
  s.set(Field::AcceleratorCount, g.whole(1, 16));
  if (g.coin(0.3)) s.set(Field::Nodes, g.whole(1, 64));
  s.set(Field::SampleSize, {g.log_uniform(100, 5e8), Dim::Size});
  if (g.coin(0.6)) s.set(Field::DatasetSamples, g.whole(1, 1e8));
  // compute
  if (g.coin()) {
    s.set(Field::MeasuredPerSample, {g.log_uniform(1e-7, 1), Dim::Duration});
    if (g.coin()) s.set(Field::MeasuredOverhead, {g.log_uniform(1e-6, 1), Dim::Duration});
  } else {
    s.set(Field::PeakFlops, {g.log_uniform(1e12, 5e15), Dim::FlopRate});
    s.set(Field::Efficiency, g.uniform(0.05, 1));
    s.set(Field::FlopsPerSample, {g.log_uniform(1e6, 1e13), Dim::Flop});
    if (g.coin()) {
      s.set(Field::MemoryBandwidth, {g.log_uniform(1e11, 1e13), Dim::Rate});
      s.set(Field::Parameters, g.log_uniform(1e5, 1e11));
    }
    if (g.coin()) s.set(Field::Layers, g.whole(1, 200));
    if (g.coin()) s.set(Field::LayerOverhead, {g.log_uniform(1e-7, 1e-3), Dim::Duration});
    if (g.coin()) s.set(Field::DispatchOverhead, {g.log_uniform(1e-7, 1e-2), Dim::Duration});
  }
  if (g.coin(0.3)) s.set(Field::Training, {1, Dim::Bool});
  if (g.coin(0.3)) {
    s.set(Field::AcceleratorMemory, {g.log_uniform(1e9, 3e11), Dim::Size});
    if (!s.has(Field::Parameters)) s.set(Field::Parameters, g.log_uniform(1e5, 1e10));
    if (g.coin()) s.set(Field::ActivationBytes, {g.log_uniform(1e3, 1e9), Dim::Size});
  }
  // transform
  const double where = g.uniform(0, 1);
  if (where < 0.6) {
    if (g.coin())
      s.set(Field::WorkerThroughput, {g.log_uniform(1e6, 1e10), Dim::Rate});
    else
      s.set(Field::WorkerSampleRate, {g.log_uniform(1, 1e5), Dim::SampleRate});
  } else if (where < 0.75) {
    s.set(Field::TransformDevice, {static_cast<double>(TransformAt::Gpu), Dim::Choice});
    s.set(Field::GpuTime, {g.log_uniform(1e-6, 1e-2), Dim::Duration});
  } else if (where < 0.9) {
    s.set(Field::TransformDevice, {static_cast<double>(TransformAt::Decoder), Dim::Choice});
    s.set(Field::DecoderRate, {g.log_uniform(100, 1e5), Dim::SampleRate});
  }
  if (where >= 0.6 && g.coin(0.3)) s.set(Field::HostCost, {g.log_uniform(1e-6, 1e-1), Dim::Duration});
  if (g.coin(0.5)) {
    const double count = s.get(Field::AcceleratorCount);
    s.set(Field::Cores, count + g.whole(1, 256));
    if (g.coin(0.3)) s.set(Field::ThreadsPerCore, g.whole(1, 4));
    if (g.coin(0.2)) s.set(Field::SmtYield, g.uniform(0.01, 1));
  }
  // fidelity (docs/model.md, "What real loaders do")
  if (g.coin(0.3)) s.set(Field::ScalingContention, g.uniform(0, 0.5));
  if (g.coin(0.2)) s.set(Field::ScalingCoherency, g.log_uniform(1e-5, 0.1));
  if (g.coin(0.3)) s.set(Field::LoopOverhead, {g.log_uniform(1e-6, 0.1), Dim::Duration});
  if (g.coin(0.3)) s.set(Field::WorkerStartTime, {g.log_uniform(1e-3, 30), Dim::Duration});
  if (g.coin(0.2)) s.set(Field::WorkerWarmupTime, {g.log_uniform(1e-3, 10), Dim::Duration});
  if (g.coin(0.2)) s.set(Field::PersistentWorkers, {1, Dim::Bool});
  if (g.coin(0.3)) s.set(Field::ReceiveTime, {g.log_uniform(1e-6, 0.05), Dim::Duration});
  if (g.coin(0.3)) s.set(Field::ReceiveTimePerSample, {g.log_uniform(1e-8, 1e-3), Dim::Duration});
  if (g.coin(0.3)) s.set(Field::EpochOverhead, {g.log_uniform(1e-3, 10), Dim::Duration});
  if (g.coin(0.3)) s.set(Field::WorkerBatchOverhead, {g.log_uniform(1e-6, 0.01), Dim::Duration});
  if (g.coin(0.3)) s.set(Field::MemcpyBandwidth, {g.log_uniform(1e8, 1e11), Dim::Rate});
  if (g.coin(0.3)) s.set(Field::LoopCpuShare, g.uniform(0, 1));
  if (g.coin(0.3)) s.set(Field::OversubscriptionCost, g.uniform(0, 0.3));
  // storage
  if (g.coin(0.7)) {
    if (g.coin(0.85))
      s.set(Field::ReadBandwidth, {g.log_uniform(1e6, 1e12), Dim::Rate});
    else
      s.set(Field::NodeStorageBandwidth, {g.log_uniform(1e6, 1e11), Dim::Rate});
    if (g.coin(0.3)) s.set(Field::StorageScope, {static_cast<double>(StorageScope::Cluster), Dim::Choice});
    if (g.coin(0.3)) s.set(Field::NetworkBandwidth, {g.log_uniform(1e8, 1e12), Dim::Rate});
    if (g.coin(0.4)) s.set(Field::Iops, g.log_uniform(10, 1e7));
    if (g.coin(0.3)) s.set(Field::RequestSize, {g.log_uniform(512, 1e8), Dim::Size});
    if (g.coin(0.3)) s.set(Field::Latency, {g.log_uniform(1e-5, 0.5), Dim::Duration});
    if (g.coin(0.2)) s.set(Field::StreamBandwidth, {g.log_uniform(1e6, 1e10), Dim::Rate});
    if (g.coin(0.2) && s.has(Field::Latency)) s.set(Field::QueueDepth, g.whole(1, 256));
    if (g.coin(0.3))
      s.set(Field::PageCache, {g.log_uniform(1e9, 1e13), Dim::Size});
    else if (g.coin(0.2))
      s.set(Field::CacheHit, g.uniform(0, 0.99));
  }
  // transfer
  if (g.coin(0.6)) {
    s.set(Field::LinkBandwidth, {g.log_uniform(1e9, 1e11), Dim::Rate});
    s.set(Field::DeviceSampleSize, {g.log_uniform(100, 5e8), Dim::Size});
    if (g.coin(0.3)) s.set(Field::LinkPinned, {0, Dim::Bool});
    if (g.coin(0.3)) s.set(Field::LinkSharedBy, g.whole(1, 4));
  }
  if (g.coin(0.3)) s.set(Field::PricePerHour, {g.log_uniform(0.1, 500), Dim::MoneyRate});
  return s;
}

// The number after the first `"key": ` in JSON text.
double json_after(const std::string& text, const std::string& key) {
  const auto at = text.find("\"" + key + "\": ");
  REQUIRE(at != std::string::npos);
  return std::stod(text.substr(at + key.size() + 4));
}

}  // namespace

TEST_CASE("properties: utilization above 0 and at most 1, the step covers every overlapped stage, all finite") {
  Gen g(20261122);
  int evaluated = 0;
  for (int i = 0; i < kScenarios; ++i) {
    const Scenario s = random_scenario(g);
    Result r;
    try {
      r = evaluate(resolve(s));
    } catch (const FieldError&) {
      continue;  // an inconsistent draw (e.g. no cores left for workers): refused, fine
    }
    ++evaluated;
    CAPTURE(i);
    CHECK(r.utilization > 0);
    CHECK(r.utilization <= 1);
    CHECK(std::isfinite(r.step_s));
    CHECK(std::isfinite(r.throughput));
    CHECK(r.throughput > 0);
    for (Stage st : kStages) {
      const auto& sr = r.stage(st);
      if (!sr.modelled) continue;
      CHECK(std::isfinite(sr.time_s));
      CHECK(sr.time_s >= 0);
      if (!r.serial) CHECK(r.step_s >= sr.time_s * (1 - 1e-12));
    }
    if (r.cold) CHECK(r.cold->step_s >= r.step_s * (1 - 1e-12));  // a cold cache is never faster
  }
  CHECK(evaluated > kScenarios * 9 / 10);
}

TEST_CASE("properties: more workers, cores, bandwidth or efficiency, or smaller samples, never lower throughput") {
  Gen g(777);
  int compared = 0;
  for (int i = 0; i < kScenarios; ++i) {
    const Scenario s = random_scenario(g);
    double before = 0;
    try {
      before = evaluate(resolve(s)).throughput;
    } catch (const FieldError&) {
      continue;
    }
    const auto scaled = [&](Field f, double factor) {
      Scenario t = s;
      if (!t.has(f)) return t;
      Quantity q{t.get(f) * factor, t.dim(f)};
      if (f == Field::Workers) q.value = t.get(f) + 1 + std::floor(t.get(f) * (factor - 1));
      if (f == Field::Efficiency) q.value = std::min(1.0, t.get(f) * factor);
      t.set(f, q);
      return t;
    };
    for (Field f : {Field::Workers, Field::Cores, Field::ReadBandwidth, Field::NodeStorageBandwidth,
                    Field::NetworkBandwidth, Field::Iops, Field::LinkBandwidth, Field::StreamBandwidth,
                    Field::Efficiency, Field::WorkerThroughput, Field::WorkerSampleRate, Field::DecoderRate,
                    Field::PageCache, Field::PeakFlops, Field::MemoryBandwidth, Field::MemcpyBandwidth}) {
      if (!s.has(f) || (f == Field::Workers && s.get(f) == 0)) continue;
      // Past the scaling law's peak more workers (or the cores to run them) deliver less: that is
      // what coherency models; past the cores, more workers cost time slicing.
      if ((f == Field::Workers || f == Field::Cores) && s.has(Field::ScalingCoherency)) continue;
      if (f == Field::Workers && s.opt(Field::OversubscriptionCost).value_or(0) > 0) continue;
      CAPTURE(i);
      CAPTURE(spec(f).key);
      const double after = evaluate(resolve(scaled(f, 2))).throughput;
      CHECK(after >= before * (1 - 1e-12));
      ++compared;
    }
    CAPTURE(i);
    const double smaller = evaluate(resolve(scaled(Field::SampleSize, 0.5))).throughput;
    CHECK(smaller >= before * (1 - 1e-12));
  }
  CHECK(compared > kScenarios);
}

TEST_CASE(
    "properties: more contention, coherency, time slicing, loop, receive or start-up time, or CPU share never raise "
    "throughput") {
  Gen g(9191);
  int compared = 0;
  for (int i = 0; i < kScenarios; ++i) {
    const Scenario s = random_scenario(g);
    Result before;
    try {
      before = evaluate(resolve(s));
    } catch (const FieldError&) {
      continue;
    }
    CAPTURE(i);
    CHECK(before.utilization > 0);
    CHECK(before.utilization <= 1);
    if (before.epoch_utilization) {
      CHECK(*before.epoch_utilization > 0);
      CHECK(*before.epoch_utilization <= before.utilization * (1 + 1e-12));
    }
    for (const auto& [f, v] : {std::pair{Field::ScalingContention, 0.2}, std::pair{Field::ScalingCoherency, 0.01},
                               std::pair{Field::OversubscriptionCost, 0.1}, std::pair{Field::LoopOverhead, 0.005},
                               std::pair{Field::WorkerStartTime, 2.0}, std::pair{Field::ReceiveTime, 0.003},
                               std::pair{Field::ReceiveTimePerSample, 1e-5}, std::pair{Field::EpochOverhead, 0.5},
                               std::pair{Field::LoopCpuShare, 0.3}, std::pair{Field::WorkerBatchOverhead, 0.002},
                               std::pair{Field::WorkerWarmupTime, 0.05}}) {
      Scenario t = s;
      // Setting the CPU share at all trades the reserved core for sharing by time: only a share
      // already set is raised.
      if (f == Field::LoopCpuShare && !t.has(f)) continue;
      const double raised = t.opt(f).value_or(0) + v;
      t.set(f, {f == Field::LoopCpuShare ? std::min(1.0, raised) : raised,
                has(spec(f).accepts, Dim::Duration) ? Dim::Duration : Dim::Number});
      CAPTURE(spec(f).key);
      const Result after = evaluate(resolve(t));
      CHECK(after.throughput <= before.throughput * (1 + 1e-12));
      if (before.epoch_utilization) CHECK(*after.epoch_utilization <= *before.epoch_utilization * (1 + 1e-12));
      ++compared;
    }
  }
  CHECK(compared > kScenarios);
}

TEST_CASE("properties: JSON parses with finite numbers, and table, CSV and JSON agree") {
  Gen g(4242);
  int rendered = 0;
  for (int i = 0; i < kScenarios / 3; ++i) {
    LoadedScenario loaded;
    loaded.name = "random";
    loaded.scenario = random_scenario(g);
    Diagnosis d;
    try {
      d = diagnose(loaded.scenario);
    } catch (const FieldError&) {
      continue;
    }
    ++rendered;
    CAPTURE(i);
    const std::string json = render(Format::Json, DiagnosisReport{loaded, d});
    const std::string csv = render(Format::Csv, DiagnosisReport{loaded, d});
    const std::string table = render(Format::Table, DiagnosisReport{loaded, d});
    test::JsonCheck check;
    REQUIRE_MESSAGE(check.parse(json), check.error);
    for (double v : check.numbers) CHECK(std::isfinite(v));
    CHECK_FALSE(test::has_non_finite_word(table));
    CHECK_FALSE(test::has_non_finite_word(csv));
    // The same utilization and step everywhere: JSON exactly, the table to its printed digits.
    CHECK(json_after(json, "utilization") == d.result.utilization);
    CHECK(json_after(json, "step_time_s") == d.result.step_s);
    CHECK(table.find("utilization    " + percent(d.result.utilization)) != std::string::npos);
    // Every modelled stage: the CSV row carries the JSON time, the table its rounding.
    for (Stage st : kStages) {
      const auto& sr = d.result.stage(st);
      if (!sr.modelled) continue;
      const std::string row =
          std::string(stage_key(st)) + ",true," + std::string(limit_key(sr.limit)) + "," + json_number(sr.time_s) + ",";
      CHECK(csv.find(row) != std::string::npos);
      CHECK(table.find(sr.time_s > 0 ? format_human(sr.time_s, Dim::Duration)
                                     : std::string(st == Stage::Storage ? "cached" : "none")) != std::string::npos);
      CHECK(json.find("\"name\": \"" + std::string(stage_key(st)) +
                      "\", \"modelled\": true, \"time_s\": " + json_number(sr.time_s)) != std::string::npos);
    }
  }
  CHECK(rendered > kScenarios / 4);
}

TEST_CASE("properties: sweep columns (grid_columns) equal the union over every point of the grid") {
  // Random scenarios swept over numeric axes (batch, workers, accelerators, page cache, dataset)
  // and the name axis transform.device: the stages modelled at any valid point and whether any
  // point has a distinct first epoch are what grid_columns says; invalid points are rows.
  Gen g(4242);
  int grids = 0;
  for (int i = 0; i < 400; ++i) {
    Scenario s = random_scenario(g);
    if (!s.has(Field::GpuTime)) s.set(Field::GpuTime, {g.log_uniform(1e-6, 1e-2), Dim::Duration});
    if (!s.has(Field::DecoderRate)) s.set(Field::DecoderRate, {g.log_uniform(100, 1e5), Dim::SampleRate});
    std::vector<Axis> axes;
    if (g.coin()) axes.push_back(parse_axis("transform.device", g.coin() ? "gpu,cpu,decoder" : "decoder,cpu"));
    axes.push_back(parse_axis("pipeline.workers", g.coin() ? "0,4" : "8,2"));
    if (g.coin()) axes.push_back(parse_axis("accelerator.count", "1,8,64"));
    if (g.coin() && s.has(Field::PageCache)) axes.push_back(parse_axis("node.page_cache", "1GB,100TB"));
    axes.push_back(parse_axis("pipeline.batch_size", "1,256"));
    std::size_t valid = 0;
    try {
      valid = first_valid_point(s, axes);
    } catch (const Error&) {
      continue;
    }
    GridColumns all;
    std::size_t index = 0;
    std::optional<std::size_t> first_ok;
    sweep(s, axes, false, [&](const SweepPoint& p) {
      if (p.invalid.empty()) {
        if (!first_ok) first_ok = index;
        for (Stage st : kStages)
          if (p.result.stage(st).modelled) all.stages |= stage_bit(st);
        all.first_epoch |= p.result.cold.has_value();
      }
      ++index;
    });
    CAPTURE(i);
    REQUIRE(first_ok.has_value());
    CHECK(*first_ok == valid);
    const GridColumns c = grid_columns(s, axes, valid);
    CHECK(c.stages == all.stages);
    CHECK(c.first_epoch == all.first_epoch);
    ++grids;
  }
  CHECK(grids > 200);
}
