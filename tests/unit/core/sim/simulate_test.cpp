// The simulation (docs/manual/commands.md, "Simulation"): with no variance it reproduces the closed forms exactly,
// and its mechanisms (bursts of W, in-order stalls, prefetch, data-parallel steps) give the
// figures worked by hand in the comments.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../../../support/scenarios.hpp"
#include "core/base/statistics.hpp"
#include "core/sim/simulate.hpp"
#include "core/stages/variance.hpp"

using namespace pipesim;
using test::loader;

namespace {

Simulation sim(const Scenario& s, std::uint64_t seed = 1, std::size_t batches = 0) {
  SimOptions o;
  o.seed = seed;
  o.batches = batches;
  return simulate(resolve(s), o);
}

// The simulation equals the closed forms: utilization, throughput and the step.
void same_as_analytic(const Scenario& s) {
  const Simulation m = sim(s);
  CHECK(m.utilization == doctest::Approx(m.analytic.utilization).epsilon(1e-9));
  CHECK(m.throughput == doctest::Approx(m.analytic.throughput).epsilon(1e-9));
  CHECK(m.step_s == doctest::Approx(m.analytic.step_s).epsilon(1e-9));
}

}  // namespace

TEST_CASE("no variance, no loader costs: the reference table exactly") {
  for (double b : {32, 64, 128, 256, 512, 1024}) {
    CAPTURE(b);
    same_as_analytic(test::reference(b));
  }
  const Simulation m = sim(test::reference(256));
  CHECK(m.utilization == doctest::Approx(0.1835).epsilon(1e-3));
}

TEST_CASE("constant times: throughput = min(1 / loop time, W / worker batch time)") {
  // 3 workers, 40 ms per batch each: 75 batches/s; the loop needs 10 ms: 100/s. 75/s wins:
  // utilization 10 ms x 75 /s = 0.75.
  const Simulation slow = sim(loader(3, 4));
  CHECK(slow.throughput == doctest::Approx(750).epsilon(1e-9));
  CHECK(slow.utilization == doctest::Approx(0.75).epsilon(1e-9));
  // 5 workers: 125 batches/s, the loop's 100/s wins.
  const Simulation fast = sim(loader(5, 4));
  CHECK(fast.throughput == doctest::Approx(1000).epsilon(1e-9));
  CHECK(fast.utilization == doctest::Approx(1).epsilon(1e-9));
  CHECK(fast.wait.max == 0);
  CHECK(fast.cause_steps[static_cast<std::size_t>(Cause::None)] == doctest::Approx(1));
}

TEST_CASE("batches arrive in bursts of W: one long wait per round") {
  // 2 workers, 40 ms per batch: every 40 ms two batches arrive together; the loop computes
  // one in 10 ms and takes the next at once, then waits 40 - 2 x 10 = 20 ms.
  const Simulation m = sim(loader(2, 4));
  CHECK(m.utilization == doctest::Approx(0.5).epsilon(1e-9));
  CHECK(m.wait.max == doctest::Approx(0.020).epsilon(1e-9));
  CHECK(m.wait.p50 == 0);
  CHECK(m.wait.p95 == doctest::Approx(0.020).epsilon(1e-9));
  CHECK(m.wait.mean == doctest::Approx(0.010).epsilon(1e-9));
  CHECK(m.cause_steps[static_cast<std::size_t>(Cause::Workers)] == doctest::Approx(0.5));
  CHECK(m.cause_wait[static_cast<std::size_t>(Cause::Workers)] == doctest::Approx(1));
  CHECK(m.busy.workers == doctest::Approx(1).epsilon(1e-2));
  CHECK(m.busy.accelerator == doctest::Approx(0.5).epsilon(1e-2));
  // The histogram: half the steps did not wait, the other half waited 20 ms. 20 ms / 30 bins is
  // 0.67 ms, rounded up to 1 ms: 20 bins, the waits in the last, (19, 20] ms.
  const WaitHistogram& h = m.wait_histogram;
  CHECK(h.bin_s == doctest::Approx(0.001));
  REQUIRE(h.counts.size() == 20);
  CHECK(h.total == m.window_steps);
  CHECK(h.no_wait * 2 == h.total);
  CHECK(h.counts.back() * 2 == h.total);
}

TEST_CASE("wait_histogram: round bin widths from 0, the steps that did not wait apart") {
  // Largest wait 50 ms over 10 bins: 5 ms wide. 3 ms in (0, 5], 10.1 ms in (10, 15], 50 ms in
  // (45, 50], and 10 ms exactly on an edge in (5, 10].
  const WaitHistogram h = wait_histogram(std::vector<double>{0, 0, 0.003, 0.0101, 0.05, 0.010}, 10);
  CHECK(h.bin_s == doctest::Approx(0.005));
  CHECK(h.total == 6);
  CHECK(h.no_wait == 2);
  CHECK(h.counts == std::vector<std::size_t>{1, 1, 1, 0, 0, 0, 0, 0, 0, 1});
  // Nothing waited: no bins.
  const WaitHistogram none = wait_histogram(std::vector<double>{0, 0}, 30);
  CHECK(none.bin_s == 0);
  CHECK(none.counts.empty());
  CHECK(none.no_wait == 2);
  // 7 ms over 30 bins: 0.23 ms, rounded up to 0.5 ms: 14 bins.
  CHECK(wait_histogram(std::vector<double>{0.007}, 30).counts.size() == 14);
}

TEST_CASE("spread_sorting sets the zeros first unsorted and gives what sorting them all gives, bit for bit") {
  // The mean is summed in sorted order (its rounding depends on the order): waits that are
  // mostly 0 with the rest over many magnitudes must give the mean and percentiles of a full
  // sort exactly, and so must values with negatives (which take the full sort).
  std::uint64_t x = 88172645463325252ULL;
  const auto next = [&] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return static_cast<double>(x >> 11) / 9007199254740992.0;
  };
  for (const double negative_share : {0.0, 0.1, -1.0}) {
    std::vector<double> v;
    for (int i = 0; i < 5000; ++i) {
      const double u = next();
      v.push_back(u < 0.8 ? 0.0 : std::pow(10.0, -9 + 12 * next()) * (next() < negative_share ? -1 : 1));
    }
    if (negative_share < 0) v[17] = -0.0;  // a -0 among the zeros: the full sort places it
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (double w : sorted) sum += w;
    const Spread s = spread_sorting(v);
    CAPTURE(negative_share);
    CHECK(s.mean == sum / static_cast<double>(sorted.size()));
    CHECK(std::memcmp(v.data(), sorted.data(), v.size() * sizeof(double)) == 0);  // sorted where they are, bit for bit
    CHECK(s.p50 == sorted[2499]);
    CHECK(s.p95 == sorted[4749]);
    CHECK(s.p99 == sorted[4949]);
    CHECK(s.max == sorted.back());
  }
}

TEST_CASE("no workers: the main process does every stage in turn") {
  // 1 ms per sample, batch 10: 10 ms transform + 10 ms compute; utilization 0.5.
  Scenario s = loader(0, 1);
  s.set(Field::ReadBandwidth, {1e9, Dim::Rate});  // 1 MB per batch: 1 ms
  same_as_analytic(s);
  const Simulation m = sim(s);
  CHECK(m.utilization == doctest::Approx(10.0 / 21).epsilon(1e-9));
  CHECK(m.cause_steps[static_cast<std::size_t>(Cause::Workers)] == doctest::Approx(1));
}

TEST_CASE("the loader's own costs, constant: the same as the closed forms") {
  // Loop overhead, receive time, a pageable copy the loop makes, collate, storage, cores.
  Scenario s = loader(4, 3);
  s.set(Field::LoopOverhead, {1e-3, Dim::Duration});
  s.set(Field::ReceiveTime, {0.5e-3, Dim::Duration});
  s.set(Field::MemcpyBandwidth, {1e9, Dim::Rate});
  s.set(Field::DeviceSampleSize, {100e3, Dim::Size});
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::LinkPinned, 0);
  s.set(Field::ReadBandwidth, {2e9, Dim::Rate});
  same_as_analytic(s);
  // Pinned: the pin thread copies each batch (1 ms at 1 GB/s), then the link (0.1 ms).
  s.set(Field::LinkPinned, 1);
  same_as_analytic(s);
  // More workers than cores: 4 workers on 2 cores run at 2 workers' rate.
  s.set(Field::Cores, 3);
  same_as_analytic(s);
  CHECK(sim(s).analytic.stage(Stage::Transform).limit == Limit::Cores);
  // The scaling law.
  s.unset(Field::Cores);
  s.set(Field::ScalingContention, 0.1);
  same_as_analytic(s);
}

TEST_CASE("the interpreter lock, constant: the same as the closed forms") {
  // fidelity_test's case: 4 workers (5 ms a step), compute 10 ms, the pin thread 2 ms a batch
  // of which half holds the lock, a 9.5 ms launch: the lock's 10.5 ms set the step. Then with
  // all of it locked (11.5 ms), with a collate rate of its own, and on shared cores.
  Scenario s = loader(4, 2);
  s.set(Field::DeviceSampleSize, {100e3, Dim::Size});
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::PinBandwidth, {0.5e9, Dim::Rate});
  s.set(Field::LaunchTime, {9.5e-3, Dim::Duration});
  s.set(Field::PinLockShare, 0.5);
  same_as_analytic(s);
  CHECK(sim(s).step_s == doctest::Approx(10.5e-3).epsilon(1e-9));
  // The lock is held all of every step once the pipeline is full: over 2,000 steps of 10.5 ms
  // (21 s), all but the 21 ms before the first batch's locked part (the workers' first builds,
  // 20 ms, and the pin thread's unlocked millisecond).
  CHECK(*sim(s).busy.interpreter_lock == doctest::Approx(1 - 21e-3 / 21).epsilon(1e-3));
  // A 1 ms launch: the lock holds 2 ms of each 10 ms step, and compute sets it.
  s.set(Field::LaunchTime, {1e-3, Dim::Duration});
  same_as_analytic(s);
  CHECK(*sim(s).busy.interpreter_lock == doctest::Approx(0.2).epsilon(1e-2));
  // Neither a launch nor a locked share: no lock to be held.
  s.set(Field::LaunchTime, {0, Dim::Duration});
  s.set(Field::PinLockShare, 0);
  CHECK_FALSE(sim(s).busy.interpreter_lock.has_value());
  s.set(Field::LaunchTime, {9.5e-3, Dim::Duration});
  s.set(Field::PinLockShare, 1);
  same_as_analytic(s);
  s.set(Field::CollateBandwidth, {1e9, Dim::Rate});
  s.set(Field::WorkerSampleOverhead, {0.5e-3, Dim::Duration});
  same_as_analytic(s);
  // The cores shared by time, with room: each thread runs at a whole core.
  s.set(Field::Cores, 8);
  s.set(Field::LoopCpuShare, 0.5);
  same_as_analytic(s);
}

TEST_CASE("storage is a server: busy for each batch's time, a batch there no sooner than its latency") {
  // 1 MB batches at 1 GB/s with 64 requests of 30 ms latency in flight: a few ms per batch,
  // well under the workers' 40 ms, so the steady state is the closed form's; the first batch
  // waits a whole latency (30 ms) before its worker starts.
  Scenario s = loader(4, 4);
  s.set(Field::ReadBandwidth, {1e9, Dim::Rate});
  s.set(Field::Latency, {0.03, Dim::Duration});
  s.set(Field::QueueDepth, 64);
  s.set(Field::DatasetSamples, 1200);
  const Simulation m = sim(s);
  CHECK(m.utilization == doctest::Approx(m.analytic.utilization).epsilon(1e-9));
  CHECK(m.first_batch_s[0] == doctest::Approx(0.03 + 0.04 + 0.01).epsilon(1e-9));
  REQUIRE(m.busy.storage);
  CHECK(*m.busy.storage > 0);
}

TEST_CASE("shards: each worker's first batch of an epoch waits for its first request whole") {
  // 4 workers, 10 samples of 100 kB a batch (1 MB), 40 ms a batch each; shards of 100 samples
  // (10 MB) read whole at 1 GB/s with 30 ms to the first byte: the four first requests take 40 MB /
  // 1 GB/s = 40 ms together. Each worker's first batch is there at 40 ms, transformed by 80 ms,
  // computed by 90 ms; the closed form says the same.
  Scenario s = loader(4, 4);
  s.set(Field::ReadBandwidth, {1e9, Dim::Rate});
  s.set(Field::Latency, {0.03, Dim::Duration});
  s.set(Field::QueueDepth, 64);
  s.set(Field::SamplesPerShard, 100);
  s.set(Field::DatasetSamples, 1200);
  const Simulation m = sim(s);
  CHECK(m.first_batch_s[0] == doctest::Approx(0.04 + 0.04 + 0.01).epsilon(1e-9));
  CHECK(*m.analytic.first_batch_s == doctest::Approx(0.04 + 0.04 + 0.01).epsilon(1e-9));
  // The batches after them come from the requests already read: the steady state is the closed form's.
  CHECK(m.utilization == doctest::Approx(m.analytic.utilization).epsilon(1e-9));
}

TEST_CASE("a shuffle buffer: each worker's first batch of an epoch waits for its buffer filled") {
  // The same 4 workers at 40 ms a batch, samples read one at a time at 1 GB/s; each fills a buffer
  // of 200 samples (20 MB) first: 80 MB together, 80 ms. The first batch is there at 80 ms,
  // transformed by 120 ms, computed by 130 ms; the closed form says the same.
  Scenario s = loader(4, 4);
  s.set(Field::ReadBandwidth, {1e9, Dim::Rate});
  s.set(Field::ShuffleBuffer, 200);
  s.set(Field::DatasetSamples, 1200);
  const Simulation m = sim(s);
  CHECK(m.first_batch_s[0] == doctest::Approx(0.08 + 0.04 + 0.01).epsilon(1e-9));
  CHECK(*m.analytic.first_batch_s == doctest::Approx(0.08 + 0.04 + 0.01).epsilon(1e-9));
  CHECK(m.utilization == doctest::Approx(m.analytic.utilization).epsilon(1e-9));
}

TEST_CASE("an epoch: start-up, the first burst, the last burst, as the closed form") {
  // 2 workers at 40 ms per batch, 100 ms to start each, 120 steps an epoch (a whole number of
  // rounds of W, as the closed form assumes).
  Scenario s = loader(2, 4);
  s.set(Field::WorkerStartTime, {0.1, Dim::Duration});
  s.set(Field::DatasetSamples, 1200);
  const Simulation m = sim(s);
  REQUIRE(m.epoch_utilization);
  CHECK(m.epochs == 2);
  CHECK(m.steps_per_epoch == 120);
  CHECK(*m.epoch_utilization == doctest::Approx(*m.analytic.epoch_utilization).epsilon(1e-9));
  // Each epoch: 0.2 s start, 60 rounds of 40 ms, then the last burst's second step.
  CHECK(m.epoch_s[1] == doctest::Approx(0.2 + 60 * 0.04 + 0.01 + 0.01).epsilon(1e-9));
  CHECK(m.first_batch_s[0] == doctest::Approx(0.2 + 0.04 + 0.01).epsilon(1e-9));
  CHECK(*m.first_batch_s.data() == doctest::Approx(*m.analytic.first_batch_s).epsilon(1e-9));
  // Each new worker's first batch takes 30 ms longer, both at once: every epoch 30 ms later.
  s.set(Field::WorkerWarmupTime, {0.03, Dim::Duration});
  const Simulation w = sim(s);
  CHECK(w.epoch_s[1] == doctest::Approx(0.2 + 0.03 + 60 * 0.04 + 0.01 + 0.01).epsilon(1e-9));
  CHECK(w.first_batch_s[0] == doctest::Approx(0.2 + 0.03 + 0.04 + 0.01).epsilon(1e-9));
  CHECK(*w.epoch_utilization == doctest::Approx(*w.analytic.epoch_utilization).epsilon(1e-9));
  // Persistent workers start once: the second epoch starts at once, and warm.
  s.set(Field::PersistentWorkers, 1);
  const Simulation p = sim(s);
  CHECK(p.first_batch_s[1] == doctest::Approx(0.05).epsilon(1e-9));
  CHECK(*p.epoch_utilization == doctest::Approx(*p.analytic.epoch_utilization).epsilon(1e-9));
}

TEST_CASE("variance at the balance point: in order stalls, out of order and prefetch recover some") {
  // 4 workers at 40 ms per batch feed the 10 ms loop exactly; per-sample cv 1.
  Scenario s = loader(4, 4);
  s.set(Field::TransformCv, 1.0);
  const Simulation in_order = sim(s, 7, 20000);
  CHECK(in_order.utilization < 0.95);
  CHECK(in_order.utilization > 0.6);
  s.set(Field::InOrder, 0);
  const Simulation any = sim(s, 7, 20000);
  CHECK(any.utilization > in_order.utilization);
  s.set(Field::InOrder, 1);
  s.set(Field::PrefetchFactor, 8);
  const Simulation deep = sim(s, 7, 20000);
  CHECK(deep.utilization > in_order.utilization);
  // The same seed gives the same run; another seed another (close) one.
  CHECK(sim(s, 7, 20000).utilization == deep.utilization);
  CHECK(sim(s, 8, 20000).utilization != deep.utilization);
}

TEST_CASE("data-parallel accelerators step together: the slowest sets the step") {
  // Compute-bound, step cv 0.5: one accelerator loses nothing; two wait for each other, so
  // each computes E[X] per E[max(X1, X2)] of the time: below 1.
  Scenario s = loader(8, 1);
  s.set(Field::StepCv, 0.5);
  const Simulation one = sim(s, 3, 20000);
  CHECK(one.utilization == doctest::Approx(1).epsilon(1e-9));
  s.set(Field::AcceleratorCount, 2);
  const Simulation two = sim(s, 3, 20000);
  CHECK(two.utilization < 0.85);
  CHECK(two.utilization > 0.7);
  // The closed forms carry it: E[X] / E[max(X1, X2)], within the run's sampling error.
  CHECK(two.analytic.utilization == doctest::Approx(1 / slowest_of(2, 0.5).mean).epsilon(1e-12));
  CHECK(std::abs(two.utilization - two.analytic.utilization) < 0.01);
  // Over two nodes the other node's two accelerators are waited for too.
  s.set(Field::Nodes, 2);
  const Simulation four = sim(s, 3, 20000);
  CHECK(four.analytic.utilization == doctest::Approx(1 / slowest_of(4, 0.5).mean).epsilon(1e-12));
  CHECK(std::abs(four.utilization - four.analytic.utilization) < 0.01);
}

TEST_CASE("too few batches for a steady state is an error; the trace keeps the first steps") {
  CHECK_THROWS_WITH(sim(loader(4, 4), 1, 10),
                    doctest::Contains("--batches 10 is too few: with 4 workers and prefetch factor 2"));
  SimOptions o;
  o.trace_steps = 3;
  const Simulation m = simulate(resolve(loader(2, 4)), o);
  std::size_t builds = 0, computes = 0;
  for (const Span& sp : m.spans) {
    builds += sp.phase == Phase::Build;
    computes += sp.phase == Phase::Compute;
    CHECK(sp.end_s > sp.start_s);
  }
  CHECK(builds == 3);
  CHECK(computes == 3);
}

TEST_CASE("cores shared by time under the scaling law: the loop's hold neither suffers nor adds contention") {
  // fidelity_test's case: 2 workers with 20 ms batches, a training process that holds a core
  // through its 10 ms of compute, 2 cores, sigma 0.5. Each worker builds one batch every two
  // steps, so both work all the time. While the loop holds, 3 tasks share the cores: 2 / 3 of
  // a core each; the hold's 10 ms take 15 ms, and the workers, running 2 x 2 / 3 = 1.3333 cores'
  // worth at once, do 2/3 x usl(1.3333) / 1.3333 = 2/3 x 0.8571 = 0.5714 of a core's work each.
  // Then the workers alone, 2 / 1.5 / 2 = 0.6667 each. Half a batch (10 ms) a step per worker:
  // 15 x 0.5714 + (P - 15) x 0.6667 = 10, P = 15 + 15/7 = 120/7 = 17.143 ms. The closed form's
  // fluid bound (10 + 5 sqrt 2 = 17.071 ms) is 0.4% below it.
  Scenario s = loader(2, 2);
  s.set(Field::Cores, 2);
  s.set(Field::LoopCpuShare, 1);
  s.set(Field::ScalingContention, 0.5);
  const Simulation m = sim(s);
  CHECK(m.step_s == doctest::Approx(120.0 / 7 * 1e-3).epsilon(1e-9));
  CHECK(m.analytic.step_s == doctest::Approx((10 + 5 * std::sqrt(2.0)) * 1e-3).epsilon(1e-9));
  // With sigma 0 both are the cores' (20 + 10) / 2 = 15 ms.
  s.unset(Field::ScalingContention);
  same_as_analytic(s);
  CHECK(sim(s).step_s == doctest::Approx(0.015));
}

TEST_CASE("cores shared by time: the loop's wait for a CPU at each take, as the closed form") {
  // fidelity_test's case: 4 workers with 30 ms batches, 10 ms of compute, 4 CPUs, 4 ms lost per
  // step with every CPU busy: 3 tasks busy at each take, 2 ms lost, a 12 ms step. (Within 0.1%:
  // the run counts whole tasks at each take, and settles.)
  Scenario s = loader(4, 3);
  s.set(Field::Cores, 4);
  s.set(Field::LoopCpuShare, 0);
  s.set(Field::CrowdedLoopTime, {4e-3, Dim::Duration});
  const Simulation m = sim(s);
  CHECK(m.analytic.step_s == doctest::Approx(0.012).epsilon(1e-9));
  CHECK(m.step_s == doctest::Approx(0.012).epsilon(1e-3));
  CHECK(m.utilization == doctest::Approx(m.analytic.utilization).epsilon(1e-3));
  // 2 workers: nothing lost, exactly the closed form.
  s.set(Field::Workers, 2);
  same_as_analytic(s);
}

TEST_CASE("oversubscription: workers past the cores, as the closed forms") {
  // fidelity_test's cases. 4 workers with 40 ms batches on 2 cores for workers (3, one
  // reserved), oversubscription_cost 0.1: all 4 always build, each at 1/2 of a core whose work
  // costs 1.1 times as much: 22 ms a batch, as the closed form.
  Scenario s = loader(4, 4);
  s.set(Field::Cores, 3);
  s.set(Field::OversubscriptionCost, 0.1);
  same_as_analytic(s);
  CHECK(sim(s).step_s == doctest::Approx(0.022));
  // 2 workers with 20 ms batches, a training process that holds a core through its 10 ms of
  // compute, 2 cores, cost 0.2. While it holds, 3 tasks share the 2 cores, 2/3 of a core each,
  // and the workers' work costs 1 + 0.2 x 1 / 2 = 1.1 times as much: the hold's 10 ms take
  // 15 ms, in which each worker does 15 x 2/3 / 1.1 = 9.0909 ms of the 10 ms it must do per step
  // (one batch every two steps); the rest at a whole core: P = 15.909 ms (175 / 11). The closed
  // form's fluid bound, 10 + sqrt(35) = 15.916 ms, is 0.04% above it.
  s = loader(2, 2);
  s.set(Field::Cores, 2);
  s.set(Field::LoopCpuShare, 1);
  s.set(Field::OversubscriptionCost, 0.2);
  const Simulation m = sim(s);
  CHECK(m.step_s == doctest::Approx(175.0 / 11 * 1e-3).epsilon(1e-6));
  CHECK(m.analytic.step_s == doctest::Approx((10 + std::sqrt(35.0)) * 1e-3).epsilon(1e-9));
}

TEST_CASE("cores shared by time: the loop receives beside the workers busy at the take, as the closed form") {
  // fidelity_test's case: 2 workers with 20 ms batches, a training process that sleeps through
  // its 10 ms of compute and spends 2 ms of its own per step, 2 cores. At each take the sender
  // starts its next batch and the other worker is 13 ms into its 20 ms one: the 2 ms receive
  // shares the cores with both, at 2 / 3 of a core, and takes 3 ms: a 13 ms step.
  Scenario s = loader(2, 2);
  s.set(Field::Cores, 2);
  s.set(Field::LoopCpuShare, 0);
  s.set(Field::LoopOverhead, {2e-3, Dim::Duration});
  // (Within 0.01%: the run's steady window keeps a trace of how it settled.)
  const Simulation m = sim(s);
  CHECK(m.analytic.step_s == doctest::Approx(0.013).epsilon(1e-9));
  CHECK(m.step_s == doctest::Approx(0.013).epsilon(1e-4));
  CHECK(m.utilization == doctest::Approx(m.analytic.utilization).epsilon(1e-4));
}
