// The mechanisms of docs/model.md, "What real loaders do" that real loaders have, each a closed form worked by
// hand in the comments. With every key at its default the reference table stays exact
// (model_test.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "../../../support/scenarios.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/stages/model.hpp"
#include "core/stages/training_process.hpp"

using namespace pipesim;
using test::loader;

TEST_CASE("Universal Scalability Law: W workers deliver W / (1 + sigma (W-1) + kappa W (W-1))") {
  TransformInputs in;
  CHECK(usl_workers(in, 8) == 8);  // defaults: linear
  in.sigma = 0.1;
  CHECK(usl_workers(in, 4) == doctest::Approx(4 / 1.3));  // 4 / (1 + 0.1 x 3) = 3.0769
  in.sigma = 0.05;
  in.kappa = 0.01;
  CHECK(usl_workers(in, 8) == doctest::Approx(8 / 1.91));  // 8 / (1 + 0.35 + 0.56) = 4.1885
  CHECK(usl_workers(in, 1) == 1);

  // In the model: 4 workers at 4 ms per sample, sigma 0.1: 3.0769 worker rates, so the
  // transform takes 10 x 4 ms / 3.0769 = 13 ms per batch.
  Scenario s = loader(4, 4);
  s.set(Field::ScalingContention, 0.1);
  const Result r = test::run(s);
  CHECK(r.effective_workers == doctest::Approx(4 / 1.3));
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.013));
  CHECK(r.utilization == doctest::Approx(10.0 / 13));
}

TEST_CASE("hardware threads: a core's second thread adds smt_yield of a worker") {
  TransformInputs in;
  CHECK(core_capacity(in, 6, 4) == 4);  // one thread per core: min(W, logical)
  in.threads_per_core = 2;
  in.smt_yield = 0.3;
  // 8 logical CPUs are 4 cores: 4 workers get a core each; 6 workers: 4 + 0.3 x 2 = 4.6; from
  // 8 workers on, 4 + 0.3 x 4 = 5.2.
  CHECK(core_capacity(in, 4, 8) == 4);
  CHECK(core_capacity(in, 6, 8) == doctest::Approx(4.6));
  CHECK(core_capacity(in, 10, 8) == doctest::Approx(5.2));

  // 6 workers, 9 logical CPUs with 1 reserved: 8 for workers, as above 4.6 worker rates.
  Scenario s = loader(6, 4);
  s.set(Field::Cores, 9);
  s.set(Field::ThreadsPerCore, 2);
  const Result r = test::run(s);
  CHECK(r.effective_workers == doctest::Approx(4.6));
  CHECK(r.stage(Stage::Transform).limit == Limit::Cores);
}

TEST_CASE("workers needed follow the scaling law, and say when none suffice") {
  // Need 5 worker rates with sigma 0.1: W >= 5 x 0.9 / (1 - 0.5) = 9, and 9 / 1.8 = 5 exactly.
  Scenario s = loader(2, 5);  // 10 x 5 ms = 50 ms of one worker per 10 ms step: 5 worker rates
  s.set(Field::ScalingContention, 0.1);
  Diagnosis d = diagnose(s);
  REQUIRE(d.cores);
  CHECK(d.cores->reachable);
  CHECK(*d.workers_needed == 9);
  // sigma 0.2: at most 1 / 0.2 = 5 worker rates, approached but never reached.
  s.set(Field::ScalingContention, 0.2);
  d = diagnose(s);
  CHECK_FALSE(d.cores->reachable);
  CHECK(d.cores->most_rates == doctest::Approx(5));
  // kappa 0.01, sigma 0: the peak is at sqrt(1 / 0.01) = 10 workers, 10 / 1.9 = 5.26 rates; 6 are
  // needed (10 x 6 ms per 10 ms step): no count reaches it, 10 is the best.
  s = loader(2, 6);
  s.set(Field::ScalingCoherency, 0.01);
  d = diagnose(s);
  CHECK_FALSE(d.cores->reachable);
  CHECK(d.cores->workers_full == 10);
  CHECK(d.cores->most_rates == doctest::Approx(10 / 1.9));
  for (const auto& f : d.fixes) CHECK(f.kind != FixKind::Workers);
}

TEST_CASE("the training loop's own time adds to compute, not overlapped") {
  // Reference case at batch 32: compute 5.856 ms, transform 8 ms. With 3 ms of loop time per step
  // the loop's chain is 8.856 ms and sets the step: utilization 5.856 / 8.856 = 0.6613.
  Scenario s = test::reference(32);
  s.set(Field::LoopOverhead, {3e-3, Dim::Duration});
  const Result r = test::run(s);
  const double compute = 5.015e-3 + 32 * 0.0262821e-3;
  CHECK(r.step_s == doctest::Approx(compute + 3e-3));
  CHECK(r.utilization == doctest::Approx(compute / (compute + 3e-3)));
  CHECK(r.binds(Stage::Compute));
  CHECK_FALSE(r.binds(Stage::Transform));
  CHECK(r.loop_overhead_s == 3e-3);
}

TEST_CASE("epoch start: the first burst of W batches and worker start-up") {
  // Input-bound: 2 workers at 4 ms per sample build a batch of 10 in 40 ms each, a step every
  // 20 ms; compute 10 ms. 200 samples = 20 steps, steady 20 x 20 = 400 ms. Batches come in
  // bursts of 2 every 40 ms: 10 bursts, the last done 2 x 10 ms after it, 420 ms: +20 ms.
  Scenario s = loader(2, 4);
  s.set(Field::DatasetSamples, 200);
  Result r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.020));
  CHECK(*r.epoch_start_s == doctest::Approx(0.020));
  CHECK(*r.first_batch_s == doctest::Approx(0.050));  // 40 ms for the batch, 10 ms of compute
  CHECK(*r.epoch_utilization == doctest::Approx(20 * 0.010 / 0.420));
  // Two workers that take 0.5 s each to start, one after the other, add 1 s at every epoch,
  // and a fixed 0.1 s per epoch (the iterator, stopping the workers) another; persistent
  // workers add neither.
  s.set(Field::WorkerStartTime, {0.5, Dim::Duration});
  r = test::run(s);
  CHECK(*r.epoch_start_s == doctest::Approx(1.020));
  CHECK(*r.first_batch_s == doctest::Approx(1.050));
  s.set(Field::EpochOverhead, {0.1, Dim::Duration});
  r = test::run(s);
  CHECK(*r.epoch_start_s == doctest::Approx(1.120));
  // Each new worker's first batch takes 30 ms longer: both pay it at once, so the epoch and its
  // first step end 30 ms later: 1.120 + 0.030 = 1.150; the first step at 0.1 + 1 + 0.030 of
  // start, 40 ms for the batch, 10 ms of compute = 1.180.
  s.set(Field::WorkerWarmupTime, {0.030, Dim::Duration});
  r = test::run(s);
  CHECK(*r.epoch_start_s == doctest::Approx(1.150));
  CHECK(*r.first_batch_s == doctest::Approx(1.180));
  CHECK(*r.workers_start_s == doctest::Approx(1.130));  // 0.1 + 2 x 0.5 + 0.030
  s.set(Field::PersistentWorkers, {1, Dim::Bool});
  r = test::run(s);
  CHECK(*r.epoch_start_s == doctest::Approx(0.020));

  // Compute-bound: 1 ms per sample, 10 ms per worker batch, a step of 10 ms: the first batch
  // arrives after 10 ms and compute never waits again: 10 + 20 x 10 = 210 ms, +10 ms.
  s = loader(2, 1);
  s.set(Field::DatasetSamples, 200);
  r = test::run(s);
  CHECK(*r.epoch_start_s == doctest::Approx(0.010));
  CHECK(*r.epoch_utilization == doctest::Approx(0.200 / 0.210));
  CHECK(r.utilization == doctest::Approx(1));

  // The main process alone (W = 0) has no pipeline to fill.
  s = loader(0, 1);
  s.set(Field::DatasetSamples, 200);
  r = test::run(s);
  CHECK(*r.epoch_start_s == 0);
  CHECK(*r.epoch_utilization == doctest::Approx(r.utilization));
}

TEST_CASE("epoch start: a new worker's warm-up stretches as its batches do on shared cores") {
  // 4 workers at 4 ms per sample on 2 cores shared by time (a sleeping loop): 2 worker rates, so
  // a worker's batch takes 40 x 4 / 2 = 80 ms and its 30 ms warm-up 30 x 4 / 2 = 60 ms. A step
  // every 20 ms, 200 samples = 20 steps = 400 ms steady; bursts of 4 every 80 ms: 5 bursts, the
  // last done 4 x 10 ms after it, 440 ms (+40 ms), and the warm-up's 60 ms: +100 ms.
  Scenario s = loader(4, 4);
  s.set(Field::Cores, 2);
  s.set(Field::LoopCpuShare, 0);
  s.set(Field::DatasetSamples, 200);
  Result r = test::run(s);
  CHECK(r.effective_workers == doctest::Approx(2));
  CHECK(*r.epoch_start_s == doctest::Approx(0.040));
  s.set(Field::WorkerWarmupTime, {0.030, Dim::Duration});
  r = test::run(s);
  CHECK(*r.epoch_start_s == doctest::Approx(0.100));
  CHECK(*r.first_batch_s == doctest::Approx(0.060 + 0.080 + 0.010));
}

TEST_CASE("batch assembly: workers collate into new memory, the pin thread copies again") {
  // 2 workers at 4 ms per sample; collate copies 10 x 100 kB at 1 GB/s = 1 ms per batch, so a
  // worker's batch takes 41 ms and the step 41 / 2 = 20.5 ms: utilization 10 / 20.5.
  Scenario s = loader(2, 4);
  s.set(Field::MemcpyBandwidth, {1e9, Dim::Rate});
  Result r = test::run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.0205));
  CHECK(r.utilization == doctest::Approx(10 / 20.5));
  // The device sample sets what is collated when given: 3x224x224 uint8 = 150528 bytes, so
  // 1.50528 ms per batch: (40 + 1.50528) / 2 = 20.75264 ms.
  s.set(Field::DeviceShape, 150528);
  s.set(Field::DeviceDtype, {static_cast<double>(Dtype::Uint8), Dim::Choice});
  r = test::run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.02075264));
  // Pinned: the link carries 10 x 150528 bytes at 10 GB/s in 0.150528 ms, but the pin thread's
  // copy at 1 GB/s takes 1.50528 ms, and sets the transfer stage.
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  r = test::run(s);
  CHECK(r.stage(Stage::Transfer).time_s == doctest::Approx(1.50528e-3));
  CHECK(r.stage(Stage::Transfer).limit == Limit::PinThread);
  // The main process (no workers) collates into memory it reuses: nothing is added.
  s = loader(0, 4);
  s.set(Field::MemcpyBandwidth, {1e9, Dim::Rate});
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.050));
  // Unless the batch is above glibc's largest mmap threshold (32 MiB): 10 x 3.5 MB = 35 MB is
  // a new mapping each time, 35 ms at 1 GB/s: 10 + 40 + 35 = 85 ms.
  s.set(Field::SampleSize, {3.5e6, Dim::Size});
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.085));
  // 3.3 MB x 10 = 33 MB is still under 32 MiB = 33.554 MB: not counted.
  s.set(Field::SampleSize, {3.3e6, Dim::Size});
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.050));
}

TEST_CASE("collate and pin thread at their own rates, apart from one thread's copy rate") {
  // 2 workers at 4 ms per sample, batch 10 of 100 kB on the device. The collate into new shared
  // memory at 0.5 GB/s takes 1 MB / 0.5 GB/s = 2 ms: 42 ms a worker's batch, 21 ms a step.
  Scenario s = loader(2, 4);
  s.set(Field::DeviceSampleSize, {100e3, Dim::Size});
  s.set(Field::MemcpyBandwidth, {1e9, Dim::Rate});
  s.set(Field::CollateBandwidth, {0.5e9, Dim::Rate});
  Result r = test::run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.021));
  // Pinned over 10 GB/s (0.1 ms a batch): the pin thread at 2 GB/s takes 0.5 ms, not the copy
  // rate's 1 ms.
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::PinBandwidth, {2e9, Dim::Rate});
  r = test::run(s);
  CHECK(r.stage(Stage::Transfer).time_s == doctest::Approx(0.5e-3));
  CHECK(r.stage(Stage::Transfer).limit == Limit::PinThread);
  // Either rate alone: the other falls back to cpu.memcpy_bandwidth (collate 1 ms: 20.5 ms).
  s.unset(Field::CollateBandwidth);
  CHECK(test::run(s).stage(Stage::Transform).time_s == doctest::Approx(0.0205));
  // Without any copy rate but the collate's, the pin thread is not modelled: the link sets it.
  s.unset(Field::MemcpyBandwidth);
  s.unset(Field::PinBandwidth);
  s.set(Field::CollateBandwidth, {0.5e9, Dim::Rate});
  r = test::run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.021));
  CHECK(r.stage(Stage::Transfer).limit == Limit::Link);
  // The main process (no workers) copies a batch above 32 MiB into its own heap at the copy
  // rate, not the collate's: 10 x 3.5 MB at 1 GB/s = 35 ms.
  s = loader(0, 4);
  s.set(Field::SampleSize, {3.5e6, Dim::Size});
  s.set(Field::MemcpyBandwidth, {1e9, Dim::Rate});
  s.set(Field::CollateBandwidth, {0.5e9, Dim::Rate});
  CHECK(test::run(s).step_s == doctest::Approx(0.085));  // 10 + 40 + 35 ms
}

TEST_CASE("a worker pays more per sample inside the loader than the sample timed alone") {
  // 2 workers at 4 ms per sample plus 1 ms inside the loader: 10 x 5 = 50 ms a batch, 25 ms a
  // step, utilization 10 / 25.
  Scenario s = loader(2, 4);
  s.set(Field::WorkerSampleOverhead, {1e-3, Dim::Duration});
  Result r = test::run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.025));
  CHECK(r.utilization == doctest::Approx(0.4));
  // The main process has no loader: 10 + 40 ms in turn, as without it.
  s.set(Field::Workers, 0);
  CHECK(test::run(s).step_s == doctest::Approx(0.050));
}

TEST_CASE("the interpreter lock: the loop's launch and the pin thread's locked work take turns") {
  // 4 workers at 2 ms per sample (20 ms a batch: 5 ms a step), compute 10 ms, 100 kB samples
  // pinned over 10 GB/s, the pin thread at 0.5 GB/s: 2 ms a batch. The loop launches for 6 ms
  // and the pin thread holds the lock for all of its 2 ms: 8 ms a step, under compute.
  Scenario s = loader(4, 2);
  s.set(Field::DeviceSampleSize, {100e3, Dim::Size});
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::PinBandwidth, {0.5e9, Dim::Rate});
  s.set(Field::LaunchTime, {6e-3, Dim::Duration});
  s.set(Field::PinLockShare, 1);
  Result r = test::run(s);
  CHECK(r.lock_s == doctest::Approx(8e-3));
  CHECK(r.stage(Stage::Transfer).time_s == doctest::Approx(8e-3));
  CHECK(r.binds(Stage::Compute));
  // A 9.5 ms launch with half of the pin thread's work locked: 9.5 + 1 = 10.5 ms a step, the
  // training process binds (transfer stage, limit interpreter_lock): utilization 10 / 10.5.
  s.set(Field::LaunchTime, {9.5e-3, Dim::Duration});
  s.set(Field::PinLockShare, 0.5);
  r = test::run(s);
  CHECK(r.stage(Stage::Transfer).time_s == doctest::Approx(10.5e-3));
  CHECK(r.stage(Stage::Transfer).limit == Limit::InterpreterLock);
  CHECK(r.binds(Stage::Transfer));
  CHECK(r.utilization == doctest::Approx(10 / 10.5));
  // No pin thread (pageable copies the loop makes itself): nothing takes turns with the launch,
  // which the measured step already holds.
  s.set(Field::LinkPinned, 0);
  r = test::run(s);
  CHECK(r.lock_s == 0);
  CHECK(r.stage(Stage::Transfer).limit == Limit::PageableLink);
  // No workers: the main process pins in turn with the rest; no lock to share.
  s.set(Field::LinkPinned, 1);
  s.set(Field::Workers, 0);
  CHECK(test::run(s).lock_s == 0);
}

TEST_CASE("the interpreter lock on cores shared by time: its holders run at a thread's share") {
  // 2 workers at 1 ms per sample (10 ms a batch), compute 10 ms with the loop busy half of it
  // (5 ms), 4 cores, sigma 0.1; the pin thread 1 ms a batch (100 kB x 10 at 1 GB/s), all of it
  // locked, and a launch of 11 ms: the lock's work is 12 ms a step. Its holder shares the cores
  // with n = (10 + 1 + 5) / P tasks on average (the workers, the pin thread and the loop, all
  // busy for their work over the step P), and under the scaling law one of n runs at
  // 1 / (1 + 0.1 (n - 1)) of a core (n under the 4 cores). So P = 12 (1 + 0.1 (16 / P - 1)) ms:
  // P^2 - 10.8 P - 19.2 = 0, P = (10.8 + sqrt(193.44)) / 2 = 12.35416 ms.
  Scenario s = loader(2, 1);
  s.set(Field::Cores, 4);
  s.set(Field::ScalingContention, 0.1);
  s.set(Field::LoopCpuShare, 0.5);
  s.set(Field::DeviceSampleSize, {100e3, Dim::Size});
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::PinBandwidth, {1e9, Dim::Rate});
  s.set(Field::LaunchTime, {11e-3, Dim::Duration});
  s.set(Field::PinLockShare, 1);
  const Result r = test::run(s);
  const double P = (10.8 + std::sqrt(193.44)) / 2 * 1e-3;
  CHECK(r.step_s == doctest::Approx(P).epsilon(1e-9));
  CHECK(r.stage(Stage::Transfer).limit == Limit::InterpreterLock);
  CHECK(r.thread_rate == doctest::Approx(12e-3 / P).epsilon(1e-9));
  CHECK(r.utilization == doctest::Approx(10e-3 / P).epsilon(1e-9));
}

TEST_CASE("a worker's own time per batch adds to every batch it builds, not the main process's") {
  // 2 workers at 4 ms per sample, batch 10: 40 ms; with 1 ms of the worker's own time per batch
  // (taking the indices, sending the batch) 41 ms, and the step 41 / 2 = 20.5 ms: with the
  // collate copy of 10 x 100 kB at 1 GB/s as well, 42 / 2 = 21 ms.
  Scenario s = loader(2, 4);
  s.set(Field::WorkerBatchOverhead, {1e-3, Dim::Duration});
  Result r = test::run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.0205));
  CHECK(r.utilization == doctest::Approx(10 / 20.5));
  s.set(Field::MemcpyBandwidth, {1e9, Dim::Rate});
  r = test::run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.021));
  // The main process (no workers) sends nothing to itself: 10 + 40 = 50 ms, as without it.
  s = loader(0, 4);
  s.set(Field::WorkerBatchOverhead, {1e-3, Dim::Duration});
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.050));
}

TEST_CASE("receiving a batch from the workers is the training loop's own time") {
  // Compute-bound: 2 workers at 1 ms per sample deliver a batch every 5 ms; compute 10 ms.
  // Receiving takes 2 ms + 10 x 0.1 ms = 3 ms per step: the step is 13 ms.
  Scenario s = loader(2, 1);
  s.set(Field::ReceiveTime, {2e-3, Dim::Duration});
  s.set(Field::ReceiveTimePerSample, {1e-4, Dim::Duration});
  Result r = test::run(s);
  CHECK(r.loop_overhead_s == doctest::Approx(0.003));
  CHECK(r.step_s == doctest::Approx(0.013));
  CHECK(r.binds(Stage::Compute));
  // With no workers there is nothing to receive: 10 ms of transform, 10 ms of compute.
  s.set(Field::Workers, 0);
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.020));
}

TEST_CASE("cores shared by time: workers, the training process and its CPU share") {
  // 4 workers at 4 ms per sample on 2 cores: 40 ms of worker CPU per batch. By default one core
  // is reserved for the training process: one worker's rate, a 40 ms step.
  Scenario s = loader(4, 4);
  s.set(Field::Cores, 2);
  Result r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.040));
  CHECK(r.stage(Stage::Transform).limit == Limit::Cores);
  // Shared by time with a training process that sleeps while the accelerator computes: both
  // cores run workers, 40 / 2 = 20 ms.
  s.set(Field::LoopCpuShare, 0);
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.020));
  // A training process that holds a core all step adds its 10 ms of compute to the CPU work:
  // (40 + 10) / 2 = 25 ms, limited by the shared cores: utilization 0.4.
  s.set(Field::LoopCpuShare, 1);
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.025));
  CHECK(r.stage(Stage::Transform).limit == Limit::SharedCores);
  CHECK(r.utilization == doctest::Approx(0.4));
  // How the loop waits says the same: one that spins holds a core for the compute (a share of 1),
  // one that sleeps or polls none (0); a share given outright stands.
  s.unset(Field::LoopCpuShare);
  s.set(Field::LoopWait, static_cast<double>(LoopWait::Spin));
  CHECK(test::run(s).step_s == doctest::Approx(0.025));
  for (LoopWait wait : {LoopWait::Sleep, LoopWait::Poll}) {
    s.set(Field::LoopWait, static_cast<double>(wait));
    CHECK(test::run(s).step_s == doctest::Approx(0.020));
  }
  s.set(Field::LoopCpuShare, 1);
  CHECK(test::run(s).step_s == doctest::Approx(0.025));
  s.unset(Field::LoopWait);
  // Its own loop time counts too: 2 ms more of CPU, (40 + 10 + 2) / 2 = 26 ms.
  s.set(Field::LoopOverhead, {2e-3, Dim::Duration});
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.026));
  // CPUs needed, by the model: the CPU work of a step is the workers' 40 ms and the training
  // process's 12 ms, so 52 ms / 10 ms of compute = 5.2 CPUs keep up: 6 whole CPUs, with 5
  // workers (4 workers on 6 CPUs: 4 worker rates, 40 ms, as slow as compute but no faster once
  // the shared cores are counted: the model decides).
  const Diagnosis d = diagnose(s);
  REQUIRE(d.cores);
  CHECK_FALSE(d.cores->full_within_node);  // 2 CPUs: no count keeps up
  CHECK(d.cores->node_full == 6);
  const auto keeps_up = [&](double workers, double cpus) {
    Scenario t = s;
    t.set(Field::Workers, workers);
    t.set(Field::Cores, cpus);
    const Result at = test::run(t);
    return at.stage(Stage::Transform).time_s <= at.stage(Stage::Compute).time_s * (1 + 1e-9);
  };
  CHECK(keeps_up(d.cores->workers_at_node_full, 6));
  for (double w = 1; w <= 8; ++w) CHECK_FALSE(keeps_up(w, 5));
  // A pin thread, a thread of the training process beside its loop, pins 1 MB a batch: its
  // work is CPU work of the step too, so more CPUs keep up.
  s.set(Field::DeviceSampleSize, {100e3, Dim::Size});
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  s.set(Field::PinBandwidth, {0.25e9, Dim::Rate});
  const Diagnosis pinned = diagnose(s);
  REQUIRE(pinned.cores);
  CHECK(pinned.cores->node_full >= 6);
  CHECK(keeps_up(pinned.cores->workers_at_node_full, pinned.cores->node_full));
  for (double w = 1; w <= 12; ++w) CHECK_FALSE(keeps_up(w, pinned.cores->node_full - 1));
}

TEST_CASE("cores shared by time: the training process's own time runs beside the busy workers") {
  // 2 workers at 2 ms per sample, batch 10: 20 ms of worker CPU per batch; 10 ms of compute that
  // leaves the CPU alone (loop_cpu_share 0) and 2 ms of the loop's own time per step, on 2 cores.
  // The workers alone need 20 / 2 = 10 ms a batch, the cores (20 + 2) / 2 = 11 ms, the loop
  // 10 + 2 = 12 ms. But the loop's 2 ms run beside the workers busy while it receives: the
  // sender starts its next batch as the take frees its window, and the other worker got its
  // batch one step P ago and builds it for 20 - P ms more, longer than the 2 ms receive while
  // P < 18 ms. So 3 tasks share 2 cores and the 2 ms take 3 ms: P = 12 + 1 = 13 ms, utilization
  // 10 / 13 = 0.7692, as simulate runs it. On average 20 / 13 = 1.538 workers are busy (taking
  // those instead, as pipesim did before 2026-11-25, gave P = 11 + 20 / P, 12.59 ms, 0.794).
  Scenario s = loader(2, 2);
  s.set(Field::Cores, 2);
  s.set(Field::LoopCpuShare, 0);
  s.set(Field::LoopOverhead, {2e-3, Dim::Duration});
  Result r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.013).epsilon(1e-9));
  CHECK(r.shared_wait_s == doctest::Approx(1e-3).epsilon(1e-6));
  CHECK(r.receive_busy_workers == doctest::Approx(2));
  CHECK(r.busy_workers == doctest::Approx(20.0 / 13).epsilon(1e-9));
  CHECK(r.utilization == doctest::Approx(10.0 / 13).epsilon(1e-9));
  CHECK(r.binds(Stage::Compute));
  // Workers at 1 ms per sample build a batch in 10 ms: at a 12 ms step 10 / 12 < 1 of them is
  // busy, so the loop and the busy worker have a core each and nothing waits.
  s.set(Field::TransformCost, {1e-3, Dim::Duration});
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.012));
  CHECK(r.shared_wait_s == 0);
  // Without loop_cpu_share a core is kept for the training process: nothing is shared.
  s.unset(Field::LoopCpuShare);
  s.set(Field::Cores, 3);
  s.set(Field::TransformCost, {2e-3, Dim::Duration});
  r = test::run(s);
  CHECK(r.shared_wait_s == 0);
  CHECK(r.step_s == doctest::Approx(0.012));
}

TEST_CASE("cores shared by time: the loop waits for a CPU when most are busy as it takes a batch") {
  // 4 workers at 3 ms per sample, batch 10: 30 ms a batch each; 10 ms of compute that leaves the
  // CPU alone; 4 CPUs; 4 ms lost per step with every CPU busy. At a 12 ms step the take finds the
  // sender starting its next batch and the workers sent one 12 and 24 ms ago still building
  // (the one sent 36 ms ago is done): 3 of 4 CPUs busy, 2 x 3 / 4 - 1 = half the loss, 2 ms, and
  // the step is 10 + 2 = 12 ms (utilization 10 / 12). The workers alone need 30 / 4 = 7.5 ms.
  Scenario s = loader(4, 3);
  s.set(Field::Cores, 4);
  s.set(Field::LoopCpuShare, 0);
  s.set(Field::CrowdedLoopTime, {4e-3, Dim::Duration});
  Result r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.012).epsilon(1e-9));
  CHECK(r.crowded_s == doctest::Approx(2e-3).epsilon(1e-9));
  CHECK(r.shared_wait_s == doctest::Approx(2e-3).epsilon(1e-9));
  CHECK(r.receive_busy_workers == doctest::Approx(3));
  CHECK(r.utilization == doctest::Approx(10.0 / 12).epsilon(1e-9));
  // 2 workers: 2 of 4 CPUs busy at the take, nothing lost; the workers bind at 30 / 2 = 15 ms.
  s.set(Field::Workers, 2);
  r = test::run(s);
  CHECK(r.crowded_s == 0);
  CHECK(r.step_s == doctest::Approx(0.015).epsilon(1e-9));
  // The share of the loss: none up to half the CPUs busy, in proportion up to all, all past them.
  Inputs in = resolve(s);
  CHECK(crowded_loss(in, 2, 4) == 0);
  CHECK(crowded_loss(in, 3, 4) == doctest::Approx(2e-3).epsilon(1e-12));
  CHECK(crowded_loss(in, 4, 4) == doctest::Approx(4e-3).epsilon(1e-12));
  CHECK(crowded_loss(in, 9, 4) == doctest::Approx(4e-3).epsilon(1e-12));
  // Cores not shared by time (no loop_cpu_share): a core is the training process's own.
  s.set(Field::Workers, 4);
  s.unset(Field::LoopCpuShare);
  s.set(Field::Cores, 5);
  r = test::run(s);
  CHECK(r.crowded_s == 0);
  CHECK(r.step_s == doctest::Approx(0.010).epsilon(1e-9));
}

TEST_CASE("the workers busy while the training loop receives a batch") {
  // 3 workers with 20 ms batches, a take every 8 ms and a 2 ms receive: the sender starts its
  // next batch (1); the worker sent one 8 ms ago builds for 12 ms more (1); the one sent 16 ms
  // ago for 4 ms more (1): 3. At a 9 ms step the last has 2 ms left: still 3; at 10 ms, none
  // left: 2; at 9.5 ms, 1 ms of the 2: 2.5.
  CHECK(receive_busy(3, 0.020, 0.008, 0.002) == doctest::Approx(3));
  CHECK(receive_busy(3, 0.020, 0.009, 0.002) == doctest::Approx(3));
  CHECK(receive_busy(3, 0.020, 0.010, 0.002) == doctest::Approx(2));
  CHECK(receive_busy(3, 0.020, 0.0095, 0.002) == doctest::Approx(2.5));
  // A loop much slower than the workers finds only the sender busy; none without workers.
  CHECK(receive_busy(4, 0.020, 0.050, 0.002) == doctest::Approx(1));
  CHECK(receive_busy(0, 0.020, 0.010, 0.002) == 0);
  // An instant receive counts the workers still building at the take.
  CHECK(receive_busy(3, 0.020, 0.008, 0) == doctest::Approx(3));
  CHECK(receive_busy(3, 0.020, 0.012, 0) == doctest::Approx(2));
}

TEST_CASE("the workers busy at a receive come in closed form, equal to the sum term by term") {
  // The sum over workers, one term at a time, as the definition reads.
  const auto by_terms = [](double workers, double build, double step, double receive) {
    double n = 0;
    for (double j = 0; j < std::ceil(workers); ++j)
      n += receive > 0 ? std::clamp((build - j * step) / receive, 0.0, 1.0) : (build > j * step ? 1.0 : 0.0);
    return std::min(workers, n);
  };
  for (double workers : {1.0, 2.5, 7.0, 64.0, 3000.0})
    for (double build : {0.001, 0.020, 0.35, 12.0})
      for (double step : {0.0005, 0.004, 0.01, 0.1})
        for (double receive : {0.0, 0.0001, 0.002, 0.05, 3.0}) {
          CAPTURE(workers);
          CAPTURE(build);
          CAPTURE(step);
          CAPTURE(receive);
          CHECK(receive_busy(workers, build, step, receive) ==
                doctest::Approx(by_terms(workers, build, step, receive)).epsilon(1e-12));
        }
  // 10^9 workers: no loop per worker. Batches of 1 s taken every 10 ms with a 1 ms receive:
  // the 100 workers sent one in the last 0.99 s are busy through the receive, the one sent
  // 1 s ago is done: 100 (by hand).
  CHECK(receive_busy(1e9, 1.0, 0.01, 0.001) == doctest::Approx(100));
  // A receive of 5 s with 1 s batches every 10 ms: worker j adds (1 - 0.01 j) / 5 for j < 100,
  // (100 - 0.01 x 4950) / 5 = 10.1.
  CHECK(receive_busy(1e9, 1.0, 0.01, 5.0) == doctest::Approx(10.1));
}

TEST_CASE("cores shared by time under the scaling law: the work contends, the loop's hold does not") {
  // 2 workers at 2 ms per sample, batch 10: 20 ms of worker CPU per batch; 10 ms of compute
  // through which the training process holds a core (loop_cpu_share 1), 2 cores, sigma 0.5.
  // Alone the workers deliver 2 / (1 + 0.5) = 1.3333 rates: 15 ms a batch. Shared: at a step P
  // the hold takes 10 / P of the 2 cores, the work runs at p = 2 - 10 / P and costs
  // p / usl(p) = 1 + 0.5 (p - 1) = 1.5 - 5 / P times its 20 ms: P = (20 (1.5 - 5 / P) + 10) / 2
  // = 20 - 50 / P, P^2 - 20 P + 50 = 0, P = 10 + 5 sqrt(2) = 17.071 ms (limit shared_cores).
  // A worker is busy for as long as its batch takes: x workers busy and the hold (10 / P of the
  // step) are x + 10 / P tasks; while they fit the 2 cores the work runs at usl(x) / x =
  // 1 / (1 + 0.5 (x - 1)) of a core, so x = 20 (1 + 0.5 (x - 1)) / P, x = 10 / (P - 10) =
  // sqrt(2) = 1.4142 (and x + 10 / P = 2: they just fit). While the loop holds, 1 + x tasks
  // share the 2 cores and the hold runs at 2 / (1 + sqrt(2)) of a core: its 10 ms take
  // 5 (1 + sqrt(2)) = 12.071 ms, within the step. Were the hold slowed by the law too it would
  // take longer still.
  Scenario s = loader(2, 2);
  s.set(Field::Cores, 2);
  s.set(Field::LoopCpuShare, 1);
  s.set(Field::ScalingContention, 0.5);
  Result r = test::run(s);
  const double P = (10 + 5 * std::sqrt(2.0)) * 1e-3;
  CHECK(r.step_s == doctest::Approx(P).epsilon(1e-9));
  CHECK(r.stage(Stage::Transform).limit == Limit::SharedCores);
  CHECK(r.utilization == doctest::Approx(10e-3 / P).epsilon(1e-9));
  CHECK(r.busy_workers == doctest::Approx(std::sqrt(2.0)).epsilon(1e-9));
  CHECK(r.shared_wait_s == doctest::Approx(5e-3 * (1 + std::sqrt(2.0)) - 10e-3).epsilon(1e-6));
  CHECK_FALSE(r.binds(Stage::Compute));
  // The loop's own time is work: it contends like a worker. 1 ms of it, nothing held
  // (loop_cpu_share 0): the work (20 + 1 ms) runs at p = 2 and costs 1.5 times as much,
  // 21 x 1.5 / 2 = 15.75 ms a step. Both workers build while it receives (the other's batch,
  // sent 15.75 ms ago, has 4.25 ms left), so 3 tasks share the 2 cores under the law, each at
  // 1.3333 / 3 of a core: the 1 ms takes 2.25 ms, a wait of 1.25 ms (the chain, 12.25 ms, stays
  // within the step).
  s.set(Field::LoopCpuShare, 0);
  s.set(Field::LoopOverhead, {1e-3, Dim::Duration});
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.01575));
  CHECK(r.shared_wait_s == doctest::Approx(1.25e-3));
}

TEST_CASE("oversubscription: workers past the cores take turns, and time slicing costs their work more") {
  TransformInputs in;
  CHECK(oversubscription(in, 4, 2) == 1);  // default: free
  in.oversubscription = 0.1;
  CHECK(oversubscription(in, 2, 2) == 1);  // up to the cores: nothing
  CHECK(oversubscription(in, 1.5, 2) == 1);
  CHECK(oversubscription(in, 3, 2) == doctest::Approx(1.05));  // 1 + 0.1 x (3 - 2) / 2
  CHECK(oversubscription(in, 4, 2) == doctest::Approx(1.1));   // 1 + 0.1 x (4 - 2) / 2
  CHECK(oversubscription(in, 12, 8) == doctest::Approx(1.05));

  // 4 workers at 4 ms per sample (40 ms a batch) on 3 cores, one reserved: 2 for the workers.
  // Free time slicing: 2 worker rates, 20 ms a batch. At 0.1 the 4 workers' work costs 1.1 times
  // as much: 2 / 1.1 = 1.8182 rates, 22 ms a batch, utilization 10 / 22.
  Scenario s = loader(4, 4);
  s.set(Field::Cores, 3);
  CHECK(test::run(s).step_s == doctest::Approx(0.020));
  s.set(Field::OversubscriptionCost, 0.1);
  Result r = test::run(s);
  CHECK(r.worker_slicing == doctest::Approx(1.1));
  CHECK(r.effective_workers == doctest::Approx(2 / 1.1));
  CHECK(r.step_s == doctest::Approx(0.022));
  CHECK(r.stage(Stage::Transform).limit == Limit::Cores);
  CHECK(r.utilization == doctest::Approx(10.0 / 22));
  // 3 workers: 1.05, 21 ms; 2 workers: no turns to take, 20 ms.
  s.set(Field::Workers, 3);
  CHECK(test::run(s).step_s == doctest::Approx(0.021));
  s.set(Field::Workers, 2);
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.020));
  CHECK(r.worker_slicing == 1);
  // diagnose offers the count of highest throughput below 4: 2 workers, utilization 0.5.
  s.set(Field::Workers, 4);
  const Diagnosis d = diagnose(s);
  const auto fewer =
      std::find_if(d.fixes.begin(), d.fixes.end(), [](const Fix& f) { return f.kind == FixKind::FewerWorkers; });
  REQUIRE(fewer != d.fixes.end());
  CHECK(fewer->changes.at(0).value.value == 2);
  CHECK(fewer->result.utilization == doctest::Approx(0.5));
  // Free time slicing: no count does better, nothing offered.
  s.unset(Field::OversubscriptionCost);
  for (const auto& f : diagnose(s).fixes) CHECK(f.kind != FixKind::FewerWorkers);
}

TEST_CASE("oversubscription on cores shared by time: the training process's hold is one more task") {
  // 2 workers with 20 ms batches (10 samples at 2 ms), a training process that holds a core
  // through its 10 ms of compute (loop_cpu_share 1), 2 cores, oversubscription_cost 0.2.
  // Free time slicing: (20 + 10) / 2 = 15 ms. With it the workers' work costs
  // 1 + 0.2 x (n - 2) / 2 = 1 + 0.1 m times as much, m the share of the step the training
  // process wants a core: its a = 10 / P of the step, stretched by the time slicing of
  // n = 2 + m tasks on 2 cores, m = a (2 + m) / 2, so m = 2a / (2 - a) = 20 / (2P - 10) (P in ms).
  // P = (20 (1 + 0.1 m) + 10) / 2 = 15 + m: (P - 15)(2P - 10) = 20, P^2 - 20 P + 65 = 0,
  // P = 10 + sqrt(35) = 15.916 ms (limit shared_cores); simulate gives 15.909 (simulate_test).
  Scenario s = loader(2, 2);
  s.set(Field::Cores, 2);
  s.set(Field::LoopCpuShare, 1);
  CHECK(test::run(s).step_s == doctest::Approx(0.015));
  s.set(Field::OversubscriptionCost, 0.2);
  const Result r = test::run(s);
  CHECK(r.step_s == doctest::Approx((10 + std::sqrt(35.0)) * 1e-3).epsilon(1e-9));
  CHECK(r.stage(Stage::Transform).limit == Limit::SharedCores);
  CHECK(r.worker_slicing == 1);  // the 2 workers alone fit the 2 cores
}

TEST_CASE("oversubscription on cores shared by time: a loop that never waits leaves room for fewer tasks") {
  // 4 workers with 9.5 ms batches (10 samples at 0.95 ms), a training process that holds a core
  // through its 10 ms of compute (loop_cpu_share 1), 2 cores, oversubscription_cost 0.2. Were
  // all 4 workers busy beside the loop, 5 tasks would cost the work 1 + 0.2 x 3 / 2 = 1.3 times
  // as much: (9.5 x 1.3 + 10) / 2 = 11.175 ms. But a loop that never waits for a batch is
  // runnable all step, and with n tasks on 2 cores it gets 2 / n of one: its 10 ms fit a step P
  // only while n <= 2 P / 10. At P = 10 ms that is 2: one worker builds while the loop holds,
  // nothing is sliced, (9.5 + 10) / 2 = 9.75 ms, and compute binds (simulate: 100% too).
  Scenario s = loader(4, 0.95);
  s.set(Field::Cores, 2);
  s.set(Field::LoopCpuShare, 1);
  s.set(Field::OversubscriptionCost, 0.2);
  Result r = test::run(s);
  CHECK(r.step_s == doctest::Approx(0.010).epsilon(1e-9));
  CHECK(r.utilization == doctest::Approx(1).epsilon(1e-9));
  CHECK(r.busy_workers == doctest::Approx(0.95).epsilon(1e-9));
  // 15 ms batches: the tasks are at most P / 5, the work costs 1 + 0.1 (P / 5 - 2) times as much,
  // P = (15 (0.8 + 0.02 P) + 10) / 2 = 11 + 0.15 P, P = 11 / 0.85 = 12.941 ms (limit shared_cores;
  // utilization 77.3%, simulate 76.6%; all 4 workers counted: 14.75 ms, 67.8%).
  s.set(Field::TransformCost, {1.5e-3, Dim::Duration});
  r = test::run(s);
  CHECK(r.step_s == doctest::Approx(11e-3 / 0.85).epsilon(1e-9));
  CHECK(r.stage(Stage::Transform).limit == Limit::SharedCores);
}

TEST_CASE("the pin thread counts among the tasks on the cores, for the assumption and for fewer workers") {
  // 2 workers at 4 ms per sample on 3 logical CPUs, shared by time with the training process
  // (loop_cpu_share 1), pinned with a 1 GB/s copy: the pin thread copies 10 samples of
  // 3x224x224 uint8 (150528 bytes) in 1.50528 ms a batch. Tasks: 2 workers + the training
  // process + the pin thread = 4, one past the 3 CPUs; without the pin thread 3 would fit them.
  Scenario s = loader(2, 4);
  s.set(Field::Cores, 3);
  s.set(Field::LoopCpuShare, 1);
  s.set(Field::MemcpyBandwidth, {1e9, Dim::Rate});
  s.set(Field::DeviceShape, 150528);
  s.set(Field::DeviceDtype, {static_cast<double>(Dtype::Uint8), Dim::Choice});
  s.set(Field::LinkBandwidth, {10e9, Dim::Rate});
  REQUIRE(pin_time(resolve(s), 10) == doctest::Approx(1.50528e-3));
  CHECK(cpu_tasks(resolve(s)) == 4);
  const auto slicing_assumed = [](const Scenario& sc) {
    for (const Assumption& a : diagnose_with_assumptions(sc).assumptions)
      if (a.field == Field::OversubscriptionCost) return a.text;
    return std::string();
  };
  CHECK(slicing_assumed(s) ==
        "time slicing is free: 4 tasks (workers, training process, pin thread) taking turns on 3 CPUs spend no "
        "more CPU per sample than 3 would (cpu.oversubscription_cost)");
  // Unpinned, 3 tasks fit the 3 CPUs: nothing to assume, nothing to search.
  Scenario unpinned = s;
  unpinned.unset(Field::LinkBandwidth);
  CHECK(cpu_tasks(resolve(unpinned)) == 3);
  CHECK(slicing_assumed(unpinned).empty());
  // diagnose searches fewer workers too (the counts below the CPUs less the training process and
  // the pin thread: 1 here), but even a costly time slicing (6) does not make 1 worker better:
  // the training process and pin thread want a core only for their share of the step, and the
  // step the slicing lengthens shrinks those shares, so the 4 tasks stay close to 3 CPUs. Nothing
  // is offered.
  s.set(Field::OversubscriptionCost, 6);
  CHECK(test::run(s).binds(Stage::Transform));
  Scenario one = s;
  one.set(Field::Workers, 1);
  CHECK(test::run(one).throughput < test::run(s).throughput);
  for (const auto& f : diagnose(s).fixes) CHECK(f.kind != FixKind::FewerWorkers);
}

TEST_CASE("loader losses: each mechanism taken away alone, the largest first") {
  // oversubscription's case: 4 workers, 40 ms batches, 2 cores for them, cost 0.1: 22 ms a
  // batch, and 2 ms of the loop's own time (10 + 2 = 12 ms, within the step): utilization
  // 10 / 22 = 0.4545. Without the time slicing 20 ms, 0.5: a loss of 0.0455. Without the loop's
  // time the step stays 22 ms: no loss, not listed. An epoch of 10 steps (100 samples) starts
  // with the first burst: T_w = 4 x 22 = 88 ms, and the workers pace it: 10 / 4 x 88 + 4 x 12 =
  // 268 ms against 10 x 22 = 220, so 48 ms more; 0.1 s of compute over 0.268 s is 0.3731, a
  // loss of 0.0814 against the steady 0.4545: listed first.
  Scenario s = loader(4, 4);
  s.set(Field::Cores, 3);
  s.set(Field::OversubscriptionCost, 0.1);
  s.set(Field::LoopOverhead, {2e-3, Dim::Duration});
  s.set(Field::DatasetSamples, 100);
  const Result r = test::run(s);
  REQUIRE(r.epoch_utilization);
  CHECK(*r.epoch_utilization == doctest::Approx(0.1 / 0.268));
  const auto losses = fidelity_losses(s, r);
  REQUIRE(losses.size() == 2);
  CHECK(losses[0].kind == LossKind::EpochStart);
  CHECK(losses[0].without == doctest::Approx(10.0 / 22));
  CHECK(losses[0].loss == doctest::Approx(10.0 / 22 - 0.1 / 0.268));
  CHECK(losses[1].kind == LossKind::TimeSlicing);
  CHECK(losses[1].without == doctest::Approx(0.5));
  CHECK(losses[1].loss == doctest::Approx(0.5 - 10.0 / 22));
  CHECK(diagnose(s).losses.size() == 2);
  // The ideal loader loses nothing.
  CHECK(fidelity_losses(loader(4, 4), test::run(loader(4, 4))).empty());
}

TEST_CASE("the knee: the fewest workers for 95% of what workers can deliver, and the peak") {
  // Linear workers: 10 x 5 ms per 10 ms step = 5 worker rates needed; 95% of 5 = 4.75: 5 workers.
  Scenario s = loader(2, 5);
  Diagnosis d = diagnose(s);
  REQUIRE(d.cores);
  CHECK(d.cores->knee_workers == 5);
  CHECK(d.cores->peak_workers == 0);
  // sigma 0.2: at most 1 / 0.2 = 5 rates, never reached; 95% of 5 = 4.75 needs
  // W >= 4.75 x 0.8 / (1 - 0.95) = 76 workers (76 / 16 = 4.75 exactly).
  s.set(Field::ScalingContention, 0.2);
  d = diagnose(s);
  CHECK(d.cores->knee_workers == 76);
  // kappa 0.01, sigma 0: the law peaks at sqrt(1 / 0.01) = 10 workers, 10 / 1.9 = 5.263 rates,
  // more than the 5 needed; 95% of 5 = 4.75: W / (1 + 0.01 W (W - 1)) >= 4.75 first at W = 7
  // (7 / 1.42 = 4.93; 6 / 1.3 = 4.62).
  s.unset(Field::ScalingContention);
  s.set(Field::ScalingCoherency, 0.01);
  d = diagnose(s);
  CHECK(d.cores->knee_workers == 7);
  CHECK(d.cores->peak_workers == 10);
  // 4 logical CPUs, one reserved for the training process: 3 for workers, too few for 7. On
  // them the knee is 95% of the most they deliver: 3 workers give 3 / 1.06 = 2.83 rates, 2 give
  // 2 / 1.02 = 1.96, under 95% of it: 3.
  s.set(Field::Cores, 4);
  d = diagnose(s);
  CHECK(d.cores->knee_workers == 3);
  CHECK(d.cores->knee_fits_cores);
}

TEST_CASE("the workers that keep a CPU each beside the training process") {
  // loader(6, 5): a 10 ms step. The training process shares the CPUs (loop_cpu_share 0.5, no
  // loop time, no pin thread): 0.5 busy CPUs. 8 CPUs, none reserved: floor(8 - 0.5) = 7 workers.
  Scenario s = loader(6, 5);
  Diagnosis d = diagnose(s);
  REQUIRE(d.cores);
  CHECK_FALSE(d.cores->workers_beside_training);  // the training process's CPU share not given
  s.set(Field::LoopCpuShare, 0.5);
  d = diagnose(s);
  CHECK_FALSE(d.cores->workers_beside_training);  // the node's CPUs not given
  s.set(Field::Cores, 8);
  d = diagnose(s);
  CHECK(d.cores->training_cpus == doctest::Approx(0.5));
  REQUIRE(d.cores->workers_beside_training);
  CHECK(*d.cores->workers_beside_training == 7);
  // 6 workers leave 8 - 6 - 0.5 = 1.5 CPUs free; floor(8 - 1 - 0.5) = 6 leave one free.
  CHECK(d.cores->spare_cpus == doctest::Approx(1.5));
  CHECK(d.cores->workers_with_spare == 6);
  s.set(Field::Workers, 9);
  CHECK(diagnose(s).cores->spare_cpus == doctest::Approx(-1.5));  // outnumbered
  s.set(Field::Workers, 6);
  // Its loop's own 4 ms a step add 0.4 of a CPU: floor(8 - 0.9) = 7; 6 ms cap it at one: 7 again.
  s.set(Field::LoopOverhead, {4e-3, Dim::Duration});
  CHECK(*diagnose(s).cores->workers_beside_training == 7);
  CHECK(diagnose(s).cores->training_cpus == doctest::Approx(0.9));
  s.set(Field::LoopOverhead, {6e-3, Dim::Duration});
  CHECK(diagnose(s).cores->training_cpus == doctest::Approx(1));
  CHECK(*diagnose(s).cores->workers_beside_training == 7);
  // Two hardware threads a core: a worker a core, floor((8 - 1) / 2) = 3; floor((8 - 1 - 1) / 2) = 3
  // leave a CPU free; 6 workers take 12 CPUs, 8 - 12 - 1 = -5.
  s.set(Field::ThreadsPerCore, 2);
  CHECK(*diagnose(s).cores->workers_beside_training == 3);
  CHECK(diagnose(s).cores->workers_with_spare == 3);
  CHECK(diagnose(s).cores->spare_cpus == doctest::Approx(-5));
}
