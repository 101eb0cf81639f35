// Unit tests of the real-world mechanisms: clusters, reserved cores, storage scope and node
// caps, Little's law with streaming, page cache epochs, device bytes from shape and dtype,
// precision, accelerator memory, where the transform runs, and the capacity answers.
// Every expected number is worked by hand in the comment beside it.
#include <doctest/doctest.h>

#include <algorithm>

#include "../support/reference.hpp"
#include "config/loader.hpp"
#include "core/check.hpp"
#include "core/diagnosis.hpp"

using namespace pipesim;

namespace {

// The DESIGN.md reference case: compute 5.015 ms + B x 0.0262821 ms, transform B x 0.25 ms.
Scenario reference(double batch = 256) { return test::reference_case(batch); }

// A measured-compute scenario: 1 ms per sample, no overhead, no transform.
Scenario measured(double batch, double sample_bytes) {
  Scenario s;
  s.set(Field::BatchSize, batch);
  s.set(Field::Workers, 8);
  s.set(Field::SampleSize, {sample_bytes, Dim::Size});
  s.set(Field::MeasuredPerSample, {1e-3, Dim::Duration});
  return s;
}

void unset(Scenario& s, Field f) { s.unset(f); }

Result run(const Scenario& s) { return evaluate(resolve(s)); }

// The storage stage's time for a batch of B, as the model computes it.
double storage_at(const Inputs& in, double batch, Limit* limit = nullptr) {
  return storage_time(in.storage, storage_bytes_per_batch(in.storage, in, batch), limit);
}

std::string load_error(const std::string& text) {
  try {
    load_scenario_text(text, "s.toml", "");
  } catch (const Error& e) {
    return e.line();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("clusters: throughput per accelerator, node and cluster, and the price is per node") {
  Scenario s = reference();
  s.set(Field::AcceleratorCount, 4);
  s.set(Field::Nodes, 3);
  s.set(Field::DatasetSamples, 1.2e6);
  s.set(Field::PricePerHour, {10, Dim::MoneyRate});
  const Result r = run(s);
  // Transform binds at 64 ms: 256 / 0.064 = 4000 per accelerator, x4 = 16000 per node, x3 = 48000.
  CHECK(r.throughput_per_accelerator == doctest::Approx(4000).epsilon(1e-14));
  CHECK(r.throughput_per_node == doctest::Approx(16000).epsilon(1e-14));
  CHECK(r.throughput == doctest::Approx(48000).epsilon(1e-14));
  CHECK(*r.epoch_s == doctest::Approx(25).epsilon(1e-14));  // 1.2e6 / 48000
  CHECK(*r.price_per_hour == doctest::Approx(30).epsilon(1e-14));  // 3 nodes x $10/h
  CHECK(*r.cost_per_epoch == doctest::Approx(25.0 / 3600 * 30).epsilon(1e-12));  // $0.2083
  CHECK(*r.samples_per_usd == doctest::Approx(48000 * 3600 / 30.0).epsilon(1e-12));
}

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

TEST_CASE("cluster storage is shared by every node, and the node's network caps what one node reads") {
  Scenario s = reference();
  s.set(Field::AcceleratorCount, 8);
  s.set(Field::Nodes, 4);
  s.set(Field::ReadBandwidth, {20e9, Dim::Rate});
  // Node scope (the default): 20 GB/s per node / 8 = 2.5 GB/s each -> 256 x 500 KB / 2.5 GB/s = 51.2 ms.
  Inputs in = resolve(s);
  CHECK(in.storage.shared_by == 8);
  CHECK(storage_at(in, 256) == doctest::Approx(0.0512).epsilon(1e-14));
  // Cluster scope: 20 GB/s / 32 = 625 MB/s each -> 204.8 ms.
  s.set(Field::StorageScope, {static_cast<double>(StorageScope::Cluster), Dim::Choice});
  in = resolve(s);
  CHECK(in.storage.shared_by == 32);
  CHECK(storage_at(in, 256) == doctest::Approx(0.2048).epsilon(1e-14));
  CHECK(in.storage.bandwidth_limit == Limit::Bandwidth);
  // A 25 Gbps network: 3.125 GB/s per node / 8 = 390.625 MB/s each < 625 MB/s -> 327.68 ms.
  s.set(Field::NetworkBandwidth, {25e9 / 8, Dim::Rate});
  in = resolve(s);
  CHECK(in.storage.bandwidth_limit == Limit::Network);
  CHECK(storage_at(in, 256) == doctest::Approx(256 * 500e3 / 390.625e6).epsilon(1e-14));
  // The network does not limit node-local storage.
  unset(s, Field::StorageScope);
  CHECK(resolve(s).storage.bandwidth_limit == Limit::Bandwidth);
}

TEST_CASE("object storage: no aggregate limit, Little's law with latency and per-stream bandwidth") {
  Scenario s = measured(256, 114660);
  s.set(Field::StorageScope, {static_cast<double>(StorageScope::Cluster), Dim::Choice});
  s.set(Field::NodeStorageBandwidth, {8e9, Dim::Rate});
  s.set(Field::Latency, {0.1, Dim::Duration});
  s.set(Field::StreamBandwidth, {85e6, Dim::Rate});
  const Inputs in = resolve(s);
  CHECK_FALSE(in.storage.read_bandwidth);
  CHECK(in.storage.queue_depth == 8);  // one request in flight per worker
  // One request: 100 ms + 114660 B / 85 MB/s = 101.3489 ms; 8 in flight -> a batch of 256
  // takes 256 / 8 x 101.3489 ms = 3.2432 s.
  const double service = 0.1 + 114660 / 85e6;
  CHECK(request_service_time(in.storage) == doctest::Approx(service).epsilon(1e-14));
  Limit limit{};
  CHECK(storage_at(in, 256, &limit) == doctest::Approx(32 * service).epsilon(1e-12));
  CHECK(limit == Limit::Latency);
  // The fix: 256 x 101.3489 ms / 256 ms of compute = 101.35 -> 102 requests in flight.
  const Diagnosis d = diagnose(s);
  const auto qd = std::find_if(d.fixes.begin(), d.fixes.end(),
                               [](const Fix& f) { return f.kind == FixKind::StorageQueueDepth; });
  REQUIRE(qd != d.fixes.end());
  CHECK(qd->changes[0].value.value == 102);
}

TEST_CASE("FSx-style storage: read bandwidth = capacity x throughput per TiB") {
  Scenario s = measured(256, 500e3);
  s.set(Field::ThroughputPerTib, {1000e6, Dim::Rate});
  CHECK_THROWS_AS(resolve(s), FieldError);  // capacity missing
  s.set(Field::StorageCapacity, {12 * kTiB, Dim::Size});
  CHECK(*resolve(s).storage.read_bandwidth == doctest::Approx(12e9).epsilon(1e-14));  // 12 TiB x 1 GB/s
}

TEST_CASE("page cache: later epochs hit cache / dataset, the first epoch reads everything") {
  Scenario s = measured(256, 114660);  // compute 256 ms
  s.set(Field::ReadBandwidth, {50e6, Dim::Rate});
  s.set(Field::DatasetSamples, 1281167);  // 146,898,608,220 B
  s.set(Field::PageCache, {100e9, Dim::Size});
  const Result r = run(s);
  const double hit = 100e9 / (1281167 * 114660.0);  // 0.68074
  CHECK(r.cache_hit == doctest::Approx(hit).epsilon(1e-14));
  const double cold = 256 * 114660 / 50e6;  // 587.06 ms
  CHECK(r.stage(Stage::Storage).time_s == doctest::Approx(cold * (1 - hit)).epsilon(1e-12));  // 187.42 ms
  CHECK(r.binds(Stage::Compute));
  REQUIRE(r.cold);
  CHECK(r.cold->storage_s == doctest::Approx(cold).epsilon(1e-14));
  CHECK(r.cold->utilization == doctest::Approx(0.256 / cold).epsilon(1e-12));  // 43.6%
  // A dataset that fits: no storage time after the first epoch, and no infinite rate.
  s.set(Field::PageCache, {200e9, Dim::Size});
  const Result all = run(s);
  CHECK(all.cache_hit == 1);
  CHECK(all.stage(Stage::Storage).time_s == 0);
  // An explicit hit ratio holds for every epoch.
  s.set(Field::CacheHit, 0.5);
  CHECK_FALSE(run(s).cold);
}

TEST_CASE("device bytes from shape and dtype: uint8 vs fp32 is 4x") {
  Scenario s = reference();
  s.set(Field::LinkBandwidth, {25e9, Dim::Rate});
  s.set(Field::DeviceShape, 3 * 224 * 224);
  CHECK_THROWS_AS(resolve(s), FieldError);  // no dtype
  s.set(Field::DeviceDtype, {static_cast<double>(Dtype::Uint8), Dim::Choice});
  CHECK(resolve(s).transfer.device_bytes == 150528);
  s.set(Field::DeviceDtype, {static_cast<double>(Dtype::Fp32), Dim::Choice});
  CHECK(resolve(s).transfer.device_bytes == 602112);
  CHECK(parse_field_value(spec(Field::DeviceShape), "3x224x224").value == 150528);
  CHECK(load_error("[workload]\ndevice_shape = [3, 224, 0]\n").find("at least 1") != std::string::npos);
  CHECK(load_error("[workload]\ndevice_dtype = \"fp33\"\n") ==
        "s.toml:2:16: error: workload.device_dtype: expected one of uint8, int8, fp8, fp16, bf16, fp32, int32, "
        "int64, got \"fp33\"; did you mean 'fp32'?");
}

TEST_CASE("precision picks the peak and the bytes per weight, and training sets passes") {
  LoadedScenario a = load_scenario_text("use = [\"a100-80gb-sxm\", \"resnet50-reference\"]\n"
                                        "[pipeline]\nbatch_size = 256\nworkers = 8\n",
                                        "s.toml", "");
  // fp16 (the reference): 4.1 GFLOP / (312 TFLOPS x 0.5) per sample.
  CHECK(resolve(a.scenario).compute.per_sample == doctest::Approx(4.1e9 / 156e12).epsilon(1e-14));
  apply_assignment(a, "model.precision=tf32");  // 156 TFLOPS, 4-byte weights
  Inputs in = resolve(a.scenario);
  CHECK(in.compute.per_sample == doctest::Approx(4.1e9 / 78e12).epsilon(1e-14));
  CHECK(in.compute.weight_seconds == doctest::Approx(25.6e6 * 4 / 2039e9).epsilon(1e-14));
  apply_assignment(a, "model.precision=fp8");  // no FP8 on Ampere
  CHECK_THROWS_AS(resolve(a.scenario), FieldError);
  apply_assignment(a, "model.precision=bf16");
  unset(a.scenario, Field::Passes);
  apply_assignment(a, "model.training=true");  // 3 passes, 3x the layer overhead
  in = resolve(a.scenario);
  CHECK(in.compute.passes == 3);
  CHECK(in.compute.overhead == doctest::Approx(0.015e-3 + 3 * 50 * 0.1e-3).epsilon(1e-14));
}

TEST_CASE("accelerator memory: the training footprint, the largest batch, and check fails a batch that does not fit") {
  Scenario s = reference(256);
  s.set(Field::Training, {1, Dim::Bool});
  s.set(Field::AcceleratorMemory, {40e9, Dim::Size});
  s.set(Field::ActivationBytes, {100e6, Dim::Size});
  const Inputs in = resolve(s);
  CHECK(in.compute.memory_static == doctest::Approx(25.6e6 * 16).epsilon(1e-14));  // 409.6 MB
  // (40 GB - 409.6 MB) / 100 MB = 395.9 -> 395
  CHECK(*max_batch_that_fits(in.compute) == 395);
  CHECK(run(s).fits);
  CHECK(*run(s).memory_needed == doctest::Approx(409.6e6 + 256 * 100e6).epsilon(1e-14));
  s.set(Field::BatchSize, 396);
  CHECK_FALSE(run(s).fits);
  const Diagnosis d = diagnose(s);
  REQUIRE(d.fixes.size() == 1);
  CHECK(d.fixes[0].kind == FixKind::FitMemory);
  CHECK(d.fixes[0].changes[0].value.value == 395);
  CHECK(d.fixes[0].result.fits);
  Plan plan;
  const PlanOutcome o = check_plan(s, plan);
  REQUIRE(o.outcomes.size() == 1);
  CHECK(requirement_key(o.outcomes[0].requirement->metric) == "fits_in_memory");
  CHECK_FALSE(o.pass);
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

TEST_CASE("capacity: accelerators the storage feeds at the target, cores per accelerator") {
  // MLPerf Storage unet3d on H100 from one Gen4 NVMe: 7 x 146,600,628 B per 0.323 s step.
  Scenario s;
  s.set(Field::BatchSize, 7);
  s.set(Field::Workers, 4);
  s.set(Field::AcceleratorCount, 8);
  s.set(Field::SampleSize, {146600628, Dim::Size});
  s.set(Field::MeasuredOverhead, {0.323, Dim::Duration});
  s.set(Field::MeasuredPerSample, {0, Dim::Duration});
  s.set(Field::ReadBandwidth, {7.45e9, Dim::Rate});
  s.set(Field::Iops, 1400000);
  const Diagnosis d = diagnose(s);
  REQUIRE(d.storage_capacity);
  // At 90%: 0.9 x 7 x 146.6 MB / 0.323 s = 2.8595 GB/s per accelerator; 7.45 / 2.8595 = 2.6 -> 2.
  CHECK(d.storage_capacity->demand == doctest::Approx(0.9 * 7 * 146600628 / 0.323).epsilon(1e-14));
  CHECK(*d.storage_capacity->by_bandwidth == 2);
  CHECK(*d.storage_capacity->accelerators == 2);
  // The reference case: 256 x 2 ms of worker time per 11.743 ms step -> 43.6 -> 44 workers;
  // at 90%, 39.2 -> 40; plus one core per training process.
  const Diagnosis r = diagnose(reference());
  REQUIRE(r.cores);
  CHECK(r.cores->workers_full == 44);
  CHECK(r.cores->workers_target == 40);
  CHECK(r.cores->node_full == 45);
}

TEST_CASE("every fix, applied, gives the utilization it promised (decoder, pre-decoded, node network)") {
  LoadedScenario p = load_scenario("p4d-resnet50-nvme");
  apply_assignment(p, "storage.scope=cluster");
  apply_assignment(p, "node.network_bandwidth=1 Gbps");
  apply_assignment(p, "node.page_cache=10 GB");
  const Diagnosis d = diagnose(p.scenario);
  std::vector<FixKind> kinds;
  for (const auto& f : d.fixes) {
    kinds.push_back(f.kind);
    Scenario applied = p.scenario;
    for (const auto& c : f.changes) applied.set(c.field, c.value);
    const Result r = run(applied);
    CAPTURE(static_cast<int>(f.kind));
    CHECK(r.utilization == f.result.utilization);
    CHECK(r.throughput == f.result.throughput);
  }
  const auto has = [&](FixKind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
  CHECK(has(FixKind::StorageBandwidth));  // the node's 1 Gbps network binds
  CHECK(has(FixKind::AllTogether));
}
