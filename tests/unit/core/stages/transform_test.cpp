// The transform stage: workers capped by cores, the main process, rates in bytes/s,
// samples/s or time per sample, and where the transform runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "../../../support/scenarios.hpp"
#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/stages/model.hpp"
#include "core/stages/variance.hpp"

using namespace pipesim;
using namespace pipesim::test;

TEST_CASE("reserved cores: one per training process by default, and too few cores is an error") {
  Scenario s = reference();
  s.set(Field::AcceleratorCount, 8);
  s.set(Field::Cores, 96);  // (96 - 8) / 8 = 11 cores per accelerator for workers
  s.set(Field::Workers, 16);
  CHECK(run(s).effective_workers == 11);
  s.set(Field::ReservedCores, 16);  // (96 - 16) / 8 = 10
  CHECK(run(s).effective_workers == 10);
  s.set(Field::ReservedCores, 96);
  CHECK_THROWS_AS(resolve(s), FieldError);
  s.set(Field::Workers, 0);  // the main process transforms on its own core: no error
  CHECK(run(s).effective_workers == 1);
}

TEST_CASE("where the transform runs: hardware decoder, GPU decode, host work") {
  Scenario s = reference(256);
  s.set(Field::DecoderRate, {5000, Dim::SampleRate});
  s.set(Field::TransformDevice, {static_cast<double>(TransformAt::Decoder), Dim::Choice});
  Result r = run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(256 / 5000.0).epsilon(1e-14));  // 51.2 ms
  CHECK(r.stage(Stage::Transform).limit == Limit::Decoder);
  s.set(Field::HostCost, {20e-3, Dim::Duration});  // 256 x 20 ms / 8 workers = 640 ms > 51.2 ms
  r = run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(0.64).epsilon(1e-14));
  CHECK(r.stage(Stage::Transform).limit == Limit::Workers);

  Scenario g = reference(256);
  g.set(Field::GpuTime, {0.1e-3, Dim::Duration});
  g.set(Field::TransformDevice, {static_cast<double>(TransformAt::Gpu), Dim::Choice});
  g.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  r = run(g);
  const double model = 0.015e-3 + 50 * 0.1e-3 + 256 * 4.1e9 / 156e12;  // 11.743 ms
  CHECK(r.stage(Stage::Compute).time_s == doctest::Approx(model + 256 * 0.1e-3).epsilon(1e-14));
  CHECK_FALSE(r.stage(Stage::Transform).modelled);
  CHECK(r.compute_bound());
  CHECK(r.utilization == doctest::Approx(model / (model + 0.0256)).epsilon(1e-12));  // decoding is not training
  CHECK(resolve(g).transfer.device_bytes == 500e3);  // the encoded sample crosses the link
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
  CHECK(evaluate(resolve(c)).stage(Stage::Transform).time_s ==
        doctest::Approx(256 * 500e3 / (8 * 250e6)).epsilon(1e-14));
}

TEST_CASE("a rate per step that reaches the model unconverted is refused, not read as samples/s") {
  Scenario s = test::reference_case(256);
  s.set(Field::WorkerSampleRate, {0.75, Dim::StepRate});
  CHECK_THROWS_AS(resolve(s), FieldError);
}

TEST_CASE("video: frames per sample on the hardware decoder's engines or on a worker, GPU work after") {
  Scenario s = reference(256);
  s.set(Field::FramesPerSample, 16);
  s.set(Field::DecoderEngines, 7);
  s.set(Field::DecoderFrameRate, {1000, Dim::FrameRate});
  s.set(Field::TransformDevice, {static_cast<double>(TransformAt::Decoder), Dim::Choice});
  // 7 engines x 1,000 frames/s over 16 frames a clip: 437.5 clips/s, 585.1 ms for 256.
  Result r = run(s);
  CHECK(r.stage(Stage::Transform).time_s == doctest::Approx(256 * 16 / 7000.0).epsilon(1e-14));
  CHECK(r.stage(Stage::Transform).limit == Limit::Decoder);
  // The decoder's frame rate replaces its rate in samples.
  s.set(Field::DecoderRate, {5000, Dim::SampleRate});
  CHECK(run(s).stage(Stage::Transform).time_s == doctest::Approx(256 * 16 / 7000.0).epsilon(1e-14));
  // Resizing and augmenting the decoded frames on the GPU adds to the compute: 256 x 0.2 ms.
  const double compute = r.stage(Stage::Compute).time_s;
  s.set(Field::GpuTime, {0.2e-3, Dim::Duration});
  CHECK(run(s).stage(Stage::Compute).time_s == doctest::Approx(compute + 256 * 0.2e-3).epsilon(1e-14));
  // On CPU workers: 16 frames x 2 ms = 32 ms a clip; 256 clips over 8 workers, 1.024 s.
  Scenario c = reference(256);
  c.set(Field::FramesPerSample, 16);
  c.set(Field::FrameCost, {2e-3, Dim::Duration});
  CHECK_FALSE(c.has(Field::WorkerThroughput));  // one way to say a worker's rate
  CHECK(run(c).stage(Stage::Transform).time_s == doctest::Approx(256 * 32e-3 / 8).epsilon(1e-14));
  // Without a rate the decoder is refused, naming both ways to give one.
  Scenario none = reference(256);
  none.set(Field::TransformDevice, {static_cast<double>(TransformAt::Decoder), Dim::Choice});
  CHECK_THROWS_WITH_AS(resolve(none), doctest::Contains("accelerator.decoder_fps"), FieldError);
}

TEST_CASE("padding to the batch's longest lengthens the device bytes, the compute and the activations") {
  Scenario s = measured(32, 320e3);  // 1 ms a sample
  s.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  s.set(Field::DeviceSampleSize, {640e3, Dim::Size});
  s.set(Field::SampleSizeCv, 0.5);
  const Result flat = run(s);
  s.set(Field::Padding, {static_cast<double>(Padding::Longest), Dim::Choice});
  const Inputs in = resolve(s);
  const double p = padded_length(32, 0.5);
  CHECK(in.padding == p);
  CHECK(p > 1.5);
  const Result padded = evaluate(in);
  CHECK(padded.stage(Stage::Transfer).time_s == doctest::Approx(flat.stage(Stage::Transfer).time_s * p).epsilon(1e-12));
  CHECK(padded.stage(Stage::Compute).time_s == doctest::Approx(32e-3 * p).epsilon(1e-12));
  CHECK(padded.padding == p);  // the result carries it (JSON "padding")
  CHECK(flat.padding == 1);
  // Buckets by length pad less.
  s.set(Field::LengthBuckets, 8);
  CHECK(resolve(s).padding == padded_length(32, 0.5, 8));
  CHECK(resolve(s).padding < p);
  s.set(Field::LengthBuckets, 1000);
  CHECK_THROWS_AS(resolve(s), FieldError);
}

TEST_CASE("no transform: the samples reach the device as stored, and nothing is left unmodelled") {
  Scenario s = measured(256, 4);  // 4-byte token ids, compute 256 ms
  s.set(Field::TransformDevice, {static_cast<double>(TransformAt::None), Dim::Choice});
  s.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  Inputs in = resolve(s);
  const Result r = evaluate(in);
  CHECK(r.stage(Stage::Transform).modelled);
  CHECK(r.stage(Stage::Transform).time_s == 0);
  CHECK((r.unmodelled & stage_bit(Stage::Transform)) == 0);
  // 256 x 4 B over 25 GB/s: the stored bytes cross the link.
  CHECK(in.transfer.device_bytes == 4);
  // Widened on the way (int32 to int64): the device's shape and type say so.
  s.set(Field::DeviceShape, 1);
  s.set(Field::DeviceDtype, {static_cast<double>(Dtype::Int64), Dim::Choice});
  CHECK(resolve(s).transfer.device_bytes == 8);
  // Host work per sample (reading, unpacking) is still the workers'.
  s.set(Field::HostCost, {1e-6, Dim::Duration});
  CHECK(evaluate(resolve(s)).stage(Stage::Transform).time_s == doctest::Approx(256e-6 / 8).epsilon(1e-12));
}
