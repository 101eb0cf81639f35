#include "core/stages/storage.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/base/error.hpp"
#include "core/stages/resolve_util.hpp"

namespace pipesim {

StorageInputs resolve_storage(const Scenario& s, const Workload& w) {
  StorageInputs in;
  if (s.has(Field::ThroughputPerTib) != s.has(Field::StorageCapacity))
    throw FieldError(s.has(Field::ThroughputPerTib) ? Field::ThroughputPerTib : Field::StorageCapacity,
                     "storage.throughput_per_tib and storage.capacity go together: the read bandwidth is "
                     "their product (e.g. 1000 MB/s per TiB x 12 TiB = 12.58 GB/s)");
  if (s.has(Field::ThroughputPerTib) && s.has(Field::ReadBandwidth))
    throw FieldError(Field::ThroughputPerTib,
                     "set storage.read_bandwidth or storage.throughput_per_tib with storage.capacity, not both");
  if (!s.has(Field::ReadBandwidth) && !s.has(Field::NodeStorageBandwidth) && !s.has(Field::ThroughputPerTib)) {
    forbid_without(s,
                   {Field::Iops, Field::RequestSize, Field::Latency, Field::QueueDepth, Field::CacheHit,
                    Field::StorageSharedBy, Field::StorageScope, Field::StreamBandwidth, Field::LocalCache},
                   "storage.read_bandwidth", "storage");
    return in;
  }
  in.modelled = true;
  in.scope = static_cast<StorageScope>(s.value(Field::StorageScope));
  const double sharing = in.scope == StorageScope::Cluster ? w.accelerators * w.nodes : w.accelerators;
  in.shared_by = s.opt(Field::StorageSharedBy).value_or(sharing);
  if (s.has(Field::ReadBandwidth)) in.read_bandwidth = s.get(Field::ReadBandwidth);
  if (s.has(Field::ThroughputPerTib))
    in.read_bandwidth = s.get(Field::ThroughputPerTib) * s.get(Field::StorageCapacity) / kTiB;
  in.bandwidth = in.read_bandwidth ? *in.read_bandwidth / in.shared_by : std::numeric_limits<double>::infinity();
  if (s.has(Field::NodeStorageBandwidth)) {
    in.node_cap = s.get(Field::NodeStorageBandwidth);
    in.node_cap_limit = Limit::NodeBandwidth;
  }
  // Cluster storage reaches a node over its network: the smaller of the two caps applies.
  if (in.scope == StorageScope::Cluster && s.has(Field::NetworkBandwidth) &&
      (!in.node_cap || s.get(Field::NetworkBandwidth) < *in.node_cap)) {
    in.node_cap = s.get(Field::NetworkBandwidth);
    in.node_cap_limit = Limit::Network;
  }
  if (in.node_cap && *in.node_cap / w.accelerators < in.bandwidth) {
    in.bandwidth = *in.node_cap / w.accelerators;
    in.bandwidth_limit = in.node_cap_limit;
  }
  if (s.has(Field::Iops)) {
    in.iops_total = s.get(Field::Iops);
    in.iops = *in.iops_total / in.shared_by;
  }
  // A file per sample is one request; a shard is read whole, or in storage.request_size pieces
  // (never more than the shard: a request does not span two files).
  if (s.has(Field::SamplesPerShard)) in.shard_bytes = s.get(Field::SamplesPerShard) * w.sample_bytes;
  in.request_bytes = s.opt(Field::RequestSize).value_or(in.shard_bytes.value_or(w.sample_bytes));
  if (in.shard_bytes) in.request_bytes = std::min(in.request_bytes, *in.shard_bytes);
  // Little's law: each accelerator keeps queue_depth requests in flight; one takes the latency
  // to its first byte, then streams at stream_bandwidth. A DataLoader worker reads one
  // sample at a time, so by default there are as many requests in flight as workers.
  if (s.has(Field::QueueDepth) && !s.has(Field::Latency) && !s.has(Field::StreamBandwidth))
    throw FieldError(Field::QueueDepth,
                     "storage.queue_depth is set but storage.latency is not: the outstanding requests limit "
                     "throughput only through the latency of each");
  if (s.has(Field::Latency) || s.has(Field::StreamBandwidth)) {
    in.latency = s.opt(Field::Latency).value_or(0);
    in.queue_depth = s.opt(Field::QueueDepth).value_or(std::max(1.0, w.workers));
    in.stream_bandwidth = s.opt(Field::StreamBandwidth);
  }
  // Page cache: a given hit ratio holds for every epoch; otherwise, with the RAM for caching
  // and the dataset's size, the first epoch reads everything (cold) and later epochs find
  // page_cache / dataset of it cached (random order, uniform access).
  // A node-local cache (storage.local_cache) holds what the node read as the page cache does,
  // on a drive: the two together hold the dataset.
  std::optional<double> cache = s.has(Field::PageCache) ? s.opt(Field::PageCache) : s.opt(Field::NodeMemory);
  if (s.has(Field::ShuffleBuffer)) {
    in.shuffle_buffer_bytes = s.get(Field::ShuffleBuffer) * w.sample_bytes;
    in.node_shuffle_buffer_bytes = w.accelerators * std::max(1.0, w.workers) * in.shuffle_buffer_bytes;
    if (cache && in.node_shuffle_buffer_bytes >= *cache)
      throw FieldError(
          Field::ShuffleBuffer,
          fmt::format("pipeline.shuffle_buffer holds {} per node ({} workers' buffers of {}), all of "
                      "the {} of {} for the dataset: lower it or add memory",
                      format_compact(in.node_shuffle_buffer_bytes, Dim::Size),
                      format_compact(w.accelerators * std::max(1.0, w.workers), Dim::Number),
                      format_compact(in.shuffle_buffer_bytes, Dim::Size), format_compact(*cache, Dim::Size),
                      s.has(Field::PageCache) ? "node.page_cache" : "node.memory"));
    if (cache) *cache -= in.node_shuffle_buffer_bytes;
  }
  if (s.has(Field::LocalCache)) {
    in.local_cache_bytes = s.get(Field::LocalCache);
    cache = cache.value_or(0) + in.local_cache_bytes;
  }
  if (s.has(Field::CacheHit)) {
    in.cache_hit = s.get(Field::CacheHit);
  } else if (cache && w.dataset_bytes > 0) {
    in.cache_from_page_cache = true;
    in.page_cache_bytes = *cache;
    // A node reads dataset / nodes per epoch: the same shard every epoch (its cache needs only
    // that), or a fresh random share (its cache fills over epochs towards the whole dataset).
    const bool reshuffle = s.value(Field::Reshuffle) != 0;
    in.shards = reshuffle ? w.nodes : 1;
    in.cached_share_bytes = reshuffle ? w.dataset_bytes : w.dataset_bytes / w.nodes;
    in.cache_hit = std::min(1.0, *cache / in.cached_share_bytes);
    if (in.cache_hit > 0) in.cold_cache_hit = 0;
  }
  return in;
}

double epoch_cache_hit(const StorageInputs& in, double epoch) {
  if (!in.cache_from_page_cache) return in.cache_hit;
  if (epoch <= 1) return in.cold_cache_hit.value_or(in.cache_hit);
  return std::min(in.cache_hit, 1 - std::pow(1 - 1 / in.shards, epoch - 1));
}

double storage_bytes_per_batch(const StorageInputs& in, const Workload& w, double batch) {
  return batch * w.sample_bytes * (1 - in.cache_hit);
}

double storage_time(const StorageInputs& in, double bytes, Limit* limit) {
  double t = bytes / in.bandwidth;
  Limit which = in.bandwidth_limit;
  if (in.iops) {
    const double t_iops = bytes / in.request_bytes / *in.iops;
    if (t_iops > t) {
      t = t_iops;
      which = Limit::Iops;
    }
  }
  if (in.latency) {
    const double t_lat = bytes * request_service_time(in) / (in.queue_depth * in.request_bytes);
    if (t_lat > t) {
      t = t_lat;
      which = Limit::Latency;
    }
  }
  if (bytes <= 0) which = Limit::Cache;
  if (limit) *limit = which;
  return t;
}

double request_service_time(const StorageInputs& in) {
  return in.latency.value_or(0) + (in.stream_bandwidth ? in.request_bytes / *in.stream_bandwidth : 0);
}

double first_read_time(const StorageInputs& in, double readers) {
  // Each worker first reads its whole first request (a shard, or a piece of one), and fills its
  // shuffle buffer, before its first sample.
  const double fill = std::max(in.shard_bytes ? in.request_bytes : 0.0, in.shuffle_buffer_bytes);
  if (!in.modelled || fill <= 0 || in.cache_hit >= 1) return 0;
  return std::max(storage_time(in, std::max(1.0, readers) * fill), request_service_time(in));
}

StorageCapacity storage_capacity(const StorageInputs& in, const Workload& w, double compute_s) {
  StorageCapacity c;
  c.target = w.target_utilization;
  c.have = in.scope == StorageScope::Cluster ? w.accelerators * w.nodes : w.accelerators;
  c.request_time = request_service_time(in);
  // At utilization U the step is compute / U: each accelerator reads its batch in that time.
  c.demand = c.target * storage_bytes_per_batch(in, w, w.batch) / compute_s;
  if (c.demand <= 0) return c;
  if (in.read_bandwidth) c.by_bandwidth = std::floor(*in.read_bandwidth / c.demand * (1 + 1e-12));
  if (in.iops_total) c.by_iops = std::floor(*in.iops_total / (c.demand / in.request_bytes) * (1 + 1e-12));
  if (in.node_cap) c.per_node = std::floor(*in.node_cap / c.demand * (1 + 1e-12));
  if (in.latency) c.latency_ok = in.queue_depth * in.request_bytes / c.request_time >= c.demand * (1 - 1e-12);
  if (c.by_bandwidth) c.accelerators = c.by_bandwidth;
  if (c.by_iops) c.accelerators = std::min(c.accelerators.value_or(*c.by_iops), *c.by_iops);
  if (!c.latency_ok) c.accelerators = 0;
  return c;
}

}  // namespace pipesim
