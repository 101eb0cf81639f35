#include "core/analyses/attribute.hpp"

#include <doctest/doctest.h>

#include "core/base/error.hpp"
#include "core/stages/model.hpp"

using namespace pipesim;

namespace {

// The published case: a 4-vCPU A10G instance, 4 workers, batch 256.
CachingExperiments published(double raw, double full) {
  CachingExperiments e;
  e.batch = 256;
  e.workers = 4;
  e.steps_per_s = {3.45, 3.33, 3.23, raw, full};
  return e;
}

const LevelCost& row(const Attribution& a, CacheLevel l) {
  for (const LevelCost& r : a.levels)
    if (r.level == l) return r;
  FAIL("level not measured");
  return a.levels.front();
}

double model_rate(const Attribution& a, CacheLevel upto, double sample_bytes = 110e3) {
  Scenario s = attributed_scenario(a, upto);
  s.set(Field::SampleSize, Quantity{sample_bytes, Dim::Size});
  return 1 / evaluate(resolve(s)).step_s;
}

}  // namespace

TEST_CASE("attribute: the published case, the transform binds the workers") {
  const Attribution a = attribute(published(1.72, 0.89));
  CHECK(a.compute_s == doctest::Approx(1 / 3.45));
  CHECK(a.copy_s == doctest::Approx(1 / 3.33 - 1 / 3.45));
  CHECK(a.receive_s == doctest::Approx(1 / 3.23 - 1 / 3.33));
  CHECK(a.loop_step_s == doctest::Approx(1 / 3.23));
  // The workers set the step from raw_cached up: one worker's batch takes W steps.
  const LevelCost& raw = row(a, CacheLevel::Raw);
  CHECK(raw.workers_bind);
  CHECK(raw.added.exact());
  CHECK(raw.added.low == doctest::Approx(4 / 1.72));  // 2.326 s of transform per batch
  const LevelCost& full = row(a, CacheLevel::Full);
  CHECK(full.workers_bind);
  CHECK(full.added.low == doctest::Approx(4 / 0.89 - 4 / 1.72));  // 2.169 s of loading per batch
  CHECK(a.workers_bind);
  CHECK(a.worker_batch.exact());
  CHECK(a.worker_batch.low == doctest::Approx(4 / 0.89));
  // Not the plain difference of step times (0.27 s), nor W times it (1.09 s): the loop's own step
  // overlaps the workers, so a worker's whole batch is W steps.
  CHECK(raw.added.low > 4 * (1 / 1.72 - 1 / 3.23) + 1);
  // Every measured rate is reproduced by pipesim's model of the attributed scenario.
  for (const LevelCost& r : a.levels) CHECK(r.model_steps_per_s == doctest::Approx(r.measured_steps_per_s));
  CHECK(model_rate(a, CacheLevel::Full) == doctest::Approx(0.89));
  CHECK(a.notes.empty());
  CHECK(a.utilization == doctest::Approx(0.89 / 3.45));
  CHECK(a.worker_budget_s == doctest::Approx(4 / 3.23));
  CHECK(a.workers_needed == 15);  // 4.494 s / 309.6 ms = 14.5
}

TEST_CASE("attribute: each cost per sample is its cost per batch over the batch size") {
  for (const Attribution& a : {attribute(published(1.72, 0.89)), attribute(published(3.23, 1.28))}) {
    const double B = a.in.batch;
    for (const LevelCost& r : a.levels) {
      CHECK(r.added_per_sample.low == r.added.low / B);
      CHECK(r.added_per_sample.high == r.added.high / B);
    }
    CHECK(a.worker_per_sample.low == a.worker_batch.low / B);
    CHECK(a.worker_per_sample.high == a.worker_batch.high / B);
  }
}

TEST_CASE("attribute: a full pipeline measured faster than compute alone computes 100% of the time, not more") {
  CachingExperiments e;
  e.batch = 64;
  e.workers = 8;
  e.steps_per_s = {3.0, std::nullopt, std::nullopt, std::nullopt, 3.45};
  const Attribution a = attribute(e);
  CHECK(a.utilization == 1);
  CHECK_FALSE(a.notes.empty());  // and a note says to measure both again
}

TEST_CASE("attribute: after the transform was optimised, its cost is only bounded") {
  const Attribution a = attribute(published(3.23, 1.28));
  const LevelCost& raw = row(a, CacheLevel::Raw);
  CHECK_FALSE(raw.workers_bind);
  CHECK(raw.added.low == 0);
  CHECK(raw.added.high == doctest::Approx(4 / 3.23));  // the workers kept up: at most W loop steps
  const LevelCost& full = row(a, CacheLevel::Full);
  CHECK(full.workers_bind);
  CHECK(full.worker_batch.low == doctest::Approx(4 / 1.28));
  CHECK(full.added.low == doctest::Approx(4 / 1.28 - 4 / 3.23));
  CHECK(full.added.high == doctest::Approx(4 / 1.28));
  // The first run's loading cost (2.169 s) lies within this run's bounds.
  CHECK(full.added.low < 4 / 0.89 - 4 / 1.72);
  CHECK(full.added.high > 4 / 0.89 - 4 / 1.72);
  for (const LevelCost& r : a.levels) CHECK(r.model_steps_per_s == doctest::Approx(r.measured_steps_per_s));
  // Raw's level leaves the transform out (only bounded); the full pipeline sets the workers' time.
  CHECK_FALSE(attributed_scenario(a, CacheLevel::Raw).has(Field::TransformCost));
  CHECK(attributed_scenario(a, CacheLevel::Full).get(Field::TransformCost) == doctest::Approx(4 / 1.28 / 256));
}

TEST_CASE("attribute: with 16x smaller images the workers keep up and the loop binds") {
  const Attribution a = attribute(published(3.23, 3.23));
  CHECK_FALSE(a.workers_bind);
  CHECK(a.worker_batch.low == 0);
  CHECK(a.worker_batch.high == doctest::Approx(4 / 3.23));
  CHECK_FALSE(attributed_scenario(a, CacheLevel::Full).has(Field::TransformCost));
  CHECK(model_rate(a, CacheLevel::Full) == doctest::Approx(3.23));
}

TEST_CASE("attribute: the copy becomes a serial link when the device sample size is known") {
  CachingExperiments e = published(1.72, 0.89);
  e.device_sample_bytes = 3 * 224 * 224 * 4;
  const Attribution a = attribute(e);
  const Scenario s = attributed_scenario(a, CacheLevel::Full);
  CHECK(s.get(Field::LinkPinned) == 0);
  CHECK(s.get(Field::PageableBandwidth) == doctest::Approx(256 * 3 * 224 * 224 * 4 / (1 / 3.33 - 1 / 3.45)));
  CHECK_FALSE(s.has(Field::LoopOverhead));
  for (const LevelCost& r : a.levels) CHECK(r.model_steps_per_s == doctest::Approx(r.measured_steps_per_s));
  // Without it, the copy is loop time.
  const Scenario t = attributed_scenario(attribute(published(1.72, 0.89)), CacheLevel::Full);
  CHECK_FALSE(t.has(Field::LinkBandwidth));
  CHECK(t.get(Field::LoopOverhead) == doctest::Approx(1 / 3.33 - 1 / 3.45));
  CHECK(t.get(Field::ReceiveTime) == doctest::Approx(1 / 3.23 - 1 / 3.33));
}

TEST_CASE("attribute: without workers every stage adds its time to the step") {
  CachingExperiments e;
  e.batch = 32;
  e.workers = 0;
  e.steps_per_s = {20.0, 16.0, 10.0, 4.0, 2.0};
  const Attribution a = attribute(e);
  CHECK_FALSE(a.workers_bind);
  CHECK(row(a, CacheLevel::Raw).added.low == doctest::Approx(1 / 4.0 - 1 / 10.0));
  CHECK(row(a, CacheLevel::Full).added.low == doctest::Approx(1 / 2.0 - 1 / 4.0));
  CHECK(a.worker_batch.low == doctest::Approx(1 / 2.0 - 1 / 10.0));
  const Scenario s = attributed_scenario(a, CacheLevel::Full);
  CHECK(s.get(Field::LoopOverhead) == doctest::Approx(1 / 10.0 - 1 / 20.0));
  CHECK_FALSE(s.has(Field::ReceiveTime));
  for (const LevelCost& r : a.levels) CHECK(r.model_steps_per_s == doctest::Approx(r.measured_steps_per_s));
}

TEST_CASE("attribute: levels left out are covered by the next measured one") {
  CachingExperiments e = published(1.72, 0.89);
  e.steps_per_s[static_cast<std::size_t>(CacheLevel::Host)].reset();
  e.steps_per_s[static_cast<std::size_t>(CacheLevel::Raw)].reset();
  const Attribution a = attribute(e);
  REQUIRE(a.levels.size() == 3);
  CHECK(row(a, CacheLevel::Sample).first == CacheLevel::Host);
  CHECK(row(a, CacheLevel::Full).first == CacheLevel::Raw);
  CHECK(a.copy_s == 0);
  CHECK(a.receive_s == doctest::Approx(1 / 3.23 - 1 / 3.45));
  CHECK(a.worker_batch.low == doctest::Approx(4 / 0.89));
  CHECK(a.notes.size() == 2);
  for (const LevelCost& r : a.levels) CHECK(r.model_steps_per_s == doctest::Approx(r.measured_steps_per_s));
}

TEST_CASE("attribute: a rate that rises up the pipeline adds nothing and is noted") {
  CachingExperiments e = published(1.72, 0.89);
  e.steps_per_s[static_cast<std::size_t>(CacheLevel::Host)] = 3.60;
  const Attribution a = attribute(e);
  CHECK(a.copy_s == 0);
  REQUIRE(a.notes.size() == 1);
  CHECK(a.notes[0].find("host_cached (3.6 steps/s) is faster than device_cached") == 0);
  CHECK(a.receive_s == doctest::Approx(1 / 3.23 - 1 / 3.45));
  // Within the noise of a rate, a rise is not worth a note.
  e.steps_per_s[static_cast<std::size_t>(CacheLevel::Host)] = 3.46;
  CHECK(attribute(e).notes.empty());
}

TEST_CASE("attribute: refuses experiments it cannot read") {
  CachingExperiments e = published(1.72, 0.89);
  e.steps_per_s[static_cast<std::size_t>(CacheLevel::Full)].reset();
  CHECK_THROWS_AS(attribute(e), Error);
  e = published(1.72, 0.0);
  CHECK_THROWS_AS(attribute(e), Error);
  e = published(1.72, 0.89);
  e.workers = 1.5;
  CHECK_THROWS_AS(attribute(e), Error);
  e = published(1.72, 0.89);
  e.batch = 0;
  CHECK_THROWS_AS(attribute(e), Error);
}

TEST_CASE("attribute: the full pipeline at another worker count is the evidence on the workers") {
  // The loop binds at 4 workers (the full pipeline runs as fast as the sample-cached loop, 3.23
  // steps/s). Nothing else measured: no evidence either way.
  CachingExperiments e = published(3.22, 3.22);
  CHECK(attribute(e).evidence == WorkerEvidence::None);
  // 8 workers just as fast (within 2%): their count is not what sets the rate.
  e.other_workers = 8;
  e.other_full = 3.20;
  Attribution a = attribute(e);
  CHECK(a.evidence == WorkerEvidence::Slack);
  CHECK(a.proportional_steps_per_s == doctest::Approx(6.44));  // 3.22 x 8 / 4
  // 8 workers faster: the workers bound at 4, whatever the caching levels said.
  e.other_full = 3.4;
  CHECK(attribute(e).evidence == WorkerEvidence::Moves);
  // Faster than the compute alone (device-cached, 3.45): no count of workers gets there.
  e.other_full = 3.6;
  CHECK_THROWS_AS(attribute(e), Error);
  // 2 workers at 1.7: from 1.7 the rate at 4 would be 3.4 in proportion; 3.22 is more than half
  // of the way (2.55), so the workers bind at 4 too.
  e.other_workers = 2;
  e.other_full = 1.7;
  CHECK(attribute(e).evidence == WorkerEvidence::Moves);
  // 2 workers at 2.9: 3.22 is less than half of the way to 5.8 (4.35): near the balance.
  e.other_full = 2.9;
  CHECK(attribute(e).evidence == WorkerEvidence::Partial);
  // More workers running slower (2.5 against 3.22, beyond 2%): past some count the node loses.
  e.other_workers = 8;
  e.other_full = 2.5;
  a = attribute(e);
  CHECK(a.evidence == WorkerEvidence::Falls);
  CHECK(evidence_key(a.evidence) == "falls");
  // Fewer running faster says the same: 2 workers at 3.4 against 3.22 at 4.
  e.other_workers = 2;
  e.other_full = 3.4;
  CHECK(attribute(e).evidence == WorkerEvidence::Falls);
  // Fewer within 2% (3.25): as fast, slack.
  e.other_full = 3.25;
  CHECK(attribute(e).evidence == WorkerEvidence::Slack);
  // The other count must differ from --workers, with a rate.
  e.other_workers = 4;
  CHECK_THROWS_AS(attribute(e), Error);
  e.other_workers = 8;
  e.other_full.reset();
  CHECK_THROWS_AS(attribute(e), Error);
}
