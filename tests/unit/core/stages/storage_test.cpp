// The storage stage: bandwidth shares, node caps, IOPS, latency with streaming, per-TiB
// capacity and the page cache. Every expected number is worked by hand beside it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "../../../support/scenarios.hpp"
#include "config/loader.hpp"
#include "core/analyses/diagnosis.hpp"
#include "core/stages/model.hpp"

using namespace pipesim;
using namespace pipesim::test;

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
  const auto qd =
      std::find_if(d.fixes.begin(), d.fixes.end(), [](const Fix& f) { return f.kind == FixKind::StorageQueueDepth; });
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
  const double cold = 256 * 114660 / 50e6;                                                    // 587.06 ms
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

TEST_CASE("shards: a request reads a whole shard, or storage.request_size pieces of one") {
  Scenario s = measured(256, 1000);  // compute 256 ms; a batch is 256 kB
  s.set(Field::ReadBandwidth, {1e9, Dim::Rate});
  s.set(Field::Iops, 100);
  // A file per sample: 256 requests / 100 IOPS = 2.56 s.
  Limit limit{};
  CHECK(storage_at(resolve(s), 256, &limit) == doctest::Approx(2.56).epsilon(1e-14));
  CHECK(limit == Limit::Iops);
  // 1,000 samples to a shard, read whole: 1 MB requests, 256 kB / 1 MB = 0.256 requests / 100 IOPS
  // = 2.56 ms (the bandwidth's 256 kB / 1 GB/s = 0.256 ms is faster).
  s.set(Field::SamplesPerShard, 1000);
  Inputs in = resolve(s);
  CHECK(*in.storage.shard_bytes == 1e6);
  CHECK(in.storage.request_bytes == 1e6);
  CHECK(storage_at(in, 256) == doctest::Approx(2.56e-3).epsilon(1e-14));
  // Read in 64 kB pieces: 4 requests per batch / 100 IOPS = 40 ms.
  s.set(Field::RequestSize, {64e3, Dim::Size});
  CHECK(storage_at(resolve(s), 256) == doctest::Approx(0.04).epsilon(1e-14));
  // A request never spans two shards: 10 MB asked, 1 MB read.
  s.set(Field::RequestSize, {10e6, Dim::Size});
  CHECK(resolve(s).storage.request_bytes == 1e6);
}

TEST_CASE("shards: an epoch's first batches wait for each worker's first request whole") {
  Scenario s = measured(256, 4);  // 4-byte tokens, compute 256 ms
  s.set(Field::Workers, 1);
  s.set(Field::PersistentWorkers, {1, Dim::Bool});
  s.set(Field::DatasetSamples, 1e9);
  s.set(Field::StorageScope, {static_cast<double>(StorageScope::Cluster), Dim::Choice});
  s.set(Field::NodeStorageBandwidth, {8e9, Dim::Rate});
  s.set(Field::Latency, {0.1, Dim::Duration});
  s.set(Field::StreamBandwidth, {85e6, Dim::Rate});
  s.set(Field::SamplesPerShard, 16777216);  // 64 MiB shards
  const Inputs in = resolve(s);
  // One request: 100 ms to the first byte + 67,108,864 B / 85 MB/s = 889.516 ms.
  const double service = 0.1 + 67108864 / 85e6;
  CHECK(first_read_time(in.storage, 1) == doctest::Approx(service).epsilon(1e-14));
  // Eight workers read eight shards at once over eight connections: still one request's time (the
  // node's 8 GB/s takes 8 x 67.1 MB in 67.1 ms); over one connection, eight in turn.
  CHECK(first_read_time(in.storage, 8) == doctest::Approx(8 * service).epsilon(1e-14));
  Scenario eight = s;
  eight.set(Field::Workers, 8);
  CHECK(first_read_time(resolve(eight).storage, 8) == doctest::Approx(service).epsilon(1e-14));
  // The steady state reads 1,024 B a batch: 1,024 x 889.5 ms / 67.1 MB = 13.57 us, far under compute;
  // the first step ends one request and one compute after the epoch starts.
  const Result r = evaluate(in);
  CHECK(r.stage(Stage::Storage).time_s == doctest::Approx(1024 * service / 67108864).epsilon(1e-12));
  CHECK(*r.first_batch_s == doctest::Approx(service + 0.256).epsilon(1e-12));
  // Without a dataset size the epoch's length is unknown but its first step is the same.
  Scenario unsized = s;
  unsized.unset(Field::DatasetSamples);
  const Result u = evaluate(resolve(unsized));
  CHECK(*u.first_batch_s == doctest::Approx(service + 0.256).epsilon(1e-12));
  CHECK_FALSE(u.epoch_start_s);
  CHECK_FALSE(u.epoch_utilization);
  // A file per sample has no first request to wait for beyond its batch's own reads.
  CHECK(first_read_time(resolve(measured(256, 4)).storage, 1) == 0);
}

TEST_CASE("a shuffle buffer: filled before a worker's first batch, taken from the page cache") {
  Scenario s = measured(256, 100e3);  // 100 KB samples, compute 256 ms, 8 workers
  s.set(Field::ReadBandwidth, {1e9, Dim::Rate});
  s.set(Field::PersistentWorkers, {1, Dim::Bool});
  s.set(Field::DatasetSamples, 1e6);  // 100 GB
  s.set(Field::NodeMemory, {50e9, Dim::Size});
  s.set(Field::ShuffleBuffer, 10000);  // 1 GB a worker, 8 GB for the node's 8 workers
  const Inputs in = resolve(s);
  CHECK(in.storage.shuffle_buffer_bytes == 1e9);
  CHECK(in.storage.node_shuffle_buffer_bytes == 8e9);
  // The page cache is what memory the buffers leave: 42 GB of 100 GB.
  CHECK(in.storage.cache_hit == doctest::Approx(0.42).epsilon(1e-14));
  // Eight workers fill 8 GB at 1 GB/s before their first batches: 8 s; then a batch's 25.6 MB
  // read (25.6 ms) and transformed (none here) and one compute.
  CHECK(first_read_time(in.storage, 8) == doctest::Approx(8.0).epsilon(1e-14));
  const Result r = evaluate(in);
  CHECK(*r.first_batch_s == doctest::Approx(8.0 + 0.256).epsilon(1e-12));
  // Buffers that take all the memory are refused.
  s.set(Field::ShuffleBuffer, 100000);  // 80 GB of 50 GB
  CHECK_THROWS_AS(resolve(s), FieldError);
}

TEST_CASE("a node-local cache holds what the page cache does not: later epochs find both") {
  Scenario s = measured(256, 114660);
  s.set(Field::ReadBandwidth, {50e6, Dim::Rate});
  s.set(Field::DatasetSamples, 1281167);  // 146,898,608,220 B
  s.set(Field::PageCache, {20e9, Dim::Size});
  s.set(Field::LocalCache, {100e9, Dim::Size});
  const Result r = run(s);
  // (20 + 100) GB / 146.899 GB = 0.816890; the first epoch finds nothing cached.
  CHECK(r.cache_hit == doctest::Approx(120e9 / 146898608220.0).epsilon(1e-14));
  REQUIRE(r.cold);
  CHECK(r.cold->cache_hit == 0);
  // Storage not modelled: a local cache in front of nothing is refused.
  Scenario bare = measured(256, 114660);
  bare.set(Field::LocalCache, {100e9, Dim::Size});
  CHECK_THROWS_AS(resolve(bare), FieldError);
}

TEST_CASE("where requests bind, diagnose offers larger ones, the fewest the model confirms") {
  Scenario s = measured(256, 1000);  // compute 256 ms
  s.set(Field::ReadBandwidth, {1e9, Dim::Rate});
  s.set(Field::Iops, 100);
  const auto request_fix = [](const Diagnosis& d) {
    const auto f = std::find_if(d.fixes.begin(), d.fixes.end(),
                                [](const Fix& x) { return x.kind == FixKind::StorageRequestSize; });
    REQUIRE(f != d.fixes.end());
    return *f;
  };
  // A file per sample: N samples to a shard take 2.56 s / N <= 256 ms from N = 10.
  Fix f = request_fix(diagnose(s));
  REQUIRE(f.changes.size() == 1);
  CHECK(f.changes[0].field == Field::SamplesPerShard);
  CHECK(f.changes[0].value.value == 10);
  CHECK(f.result.utilization == doctest::Approx(1).epsilon(1e-12));
  // And the default is named: each sample a request of its own.
  const auto a = assumptions(s, resolve(s));
  CHECK(std::any_of(a.begin(), a.end(), [](const Assumption& x) { return x.field == Field::SamplesPerShard; }));
  // Shards of 5 samples read whole (5 kB requests, 512 ms): shards of 10.
  s.set(Field::SamplesPerShard, 5);
  f = request_fix(diagnose(s));
  REQUIRE(f.changes.size() == 1);
  CHECK(f.changes[0].field == Field::SamplesPerShard);
  CHECK(f.changes[0].value.value == 10);
  // Read in 2 kB pieces (1.28 s): 10 kB requests, more than a shard holds, so shards of 10 too.
  s.set(Field::RequestSize, {2e3, Dim::Size});
  f = request_fix(diagnose(s));
  REQUIRE(f.changes.size() == 2);
  CHECK(f.changes[0].field == Field::RequestSize);
  CHECK(f.changes[0].value.value == 10e3);
  CHECK(f.changes[1].value.value == 10);
  // Latency: 8 requests in flight, 10 ms each: 256 kB x 10 ms / (8 R) <= 256 ms from R = 1,250 B:
  // two samples to a shard.
  unset(s, Field::SamplesPerShard);
  unset(s, Field::RequestSize);
  unset(s, Field::Iops);
  s.set(Field::Latency, {0.01, Dim::Duration});
  f = request_fix(diagnose(s));
  CHECK(f.changes[0].value.value == 2);
}

TEST_CASE("diagnose names the smallest local cache that keeps later epochs up") {
  Scenario s = measured(256, 114660);  // compute 256 ms
  s.set(Field::ReadBandwidth, {50e6, Dim::Rate});
  s.set(Field::StorageScope, {static_cast<double>(StorageScope::Cluster), Dim::Choice});
  s.set(Field::DatasetSamples, 1281167);  // 146,898,608,220 B
  s.set(Field::PageCache, {20e9, Dim::Size});
  // A batch from storage alone: 29.35 MB / 50 MB/s = 587.06 ms; within 256 ms at a hit ratio of
  // 1 - 0.256 / 0.58706 = 0.563928, 82.840 GB of the dataset: 62.84 GB beside the page cache -> 63 GB.
  const Diagnosis d = diagnose(s);
  const auto f =
      std::find_if(d.fixes.begin(), d.fixes.end(), [](const Fix& x) { return x.kind == FixKind::LocalCache; });
  REQUIRE(f != d.fixes.end());
  CHECK(f->changes[0].value.value == 63e9);
  CHECK(f->result.utilization == doctest::Approx(1).epsilon(1e-12));
  // The node's own drives (storage.scope = "node") need no cache in front of them.
  unset(s, Field::StorageScope);
  const Diagnosis local = diagnose(s);
  CHECK(
      std::none_of(local.fixes.begin(), local.fixes.end(), [](const Fix& x) { return x.kind == FixKind::LocalCache; }));
}
