// The storage fetch stage: bandwidth shares, per-node caps, IOPS, latency with requests in
// flight (Little's law), the page cache, and how many accelerators the storage feeds.
#pragma once

#include <optional>

#include "core/stages/stage.hpp"
#include "core/stages/workload.hpp"

namespace pipesim {

struct StorageInputs {
  bool modelled = false;
  StorageScope scope = StorageScope::Node;
  double shared_by = 1;                         // accelerators sharing read_bandwidth and iops
  std::optional<double> read_bandwidth;         // aggregate (none: no aggregate limit, e.g. S3)
  std::optional<double> node_cap;               // bytes/s one node may read from this storage
  Limit node_cap_limit = Limit::NodeBandwidth;  // NodeBandwidth or Network
  double bandwidth = 0;                         // bytes/s available to one accelerator
  Limit bandwidth_limit = Limit::Bandwidth;     // which of the above sets it
  std::optional<double> iops_total;             // storage.iops, aggregate
  std::optional<double> iops;                   // requests/s available to one accelerator
  double request_bytes = 0;                     // storage.request_size, else a sample or a whole shard
  std::optional<double> shard_bytes;            // workload.samples_per_shard x the sample size
  std::optional<double> latency;                // time to first byte, with queue_depth in flight
  double queue_depth = 0;
  std::optional<double> stream_bandwidth;  // most one request streams
  double cache_hit = 0;                    // every epoch after the first (steady state)
  std::optional<double> cold_cache_hit;    // the first epoch, when it differs (page cache)
  bool cache_from_page_cache = false;      // cache_hit follows from node.page_cache
  double page_cache_bytes = 0;             // what caches the dataset on a node: page cache and local cache
  double local_cache_bytes = 0;            // of it, storage.local_cache (a local drive, filled on first read)
  double cached_share_bytes = 0;           // what they must hold for every read to hit: the node's share
  // Each worker's shuffle buffer (pipeline.shuffle_buffer x the sample size): filled before its
  // first batch of an epoch; the node's buffers (all its accelerators' workers) come out of the
  // page cache.
  double shuffle_buffer_bytes = 0;
  double node_shuffle_buffer_bytes = 0;
  // Several nodes reading a different random share each epoch (cluster.reshuffle): a node's
  // cache holds what it has read, so the hit ratio climbs to cache_hit over epochs.
  double shards = 1;  // cluster.nodes when reshuffled, else 1
};

// The page-cache hit ratio of epoch `epoch` (1 = the first) when it follows from the page
// cache: none in the first; after it, what the node has read so far, 1 - (1 - 1/shards)^(epoch-1)
// of the dataset when every epoch's share is a fresh random one, up to what its cache holds
// (cache_hit). The given storage.cache_hit holds for every epoch.
double epoch_cache_hit(const StorageInputs& in, double epoch);

StorageInputs resolve_storage(const Scenario& s, const Workload& w);

// Bytes one accelerator reads from storage per batch (what the page cache does not serve).
double storage_bytes_per_batch(const StorageInputs& in, const Workload& w, double batch);
// Time to read `bytes`, and which limit sets it.
double storage_time(const StorageInputs& in, double bytes, Limit* limit = nullptr);
// Seconds one request takes: latency to its first byte plus streaming at stream_bandwidth.
double request_service_time(const StorageInputs& in);
// An epoch's first batches wait for the first requests: with shards, each of the `readers`
// (the workers, at least one) reads a whole request before its first sample, and with a shuffle
// buffer fills it first, all at once (0 with neither: a request per sample is part of the
// batch's own read).
double first_read_time(const StorageInputs& in, double readers);

// "How many accelerators does this storage feed at the target utilization?" (MLPerf
// Storage's question), from the storage stage alone.
struct StorageCapacity {
  double target = 0.9;                 // utilization aimed for
  double demand = 0;                   // bytes/s one accelerator reads at the target (0: all from page cache)
  double have = 0;                     // accelerators sharing it now (of the node or of the cluster, by scope)
  double request_time = 0;             // seconds one request takes (latency + streaming)
  std::optional<double> by_bandwidth;  // accelerators storage.read_bandwidth feeds
  std::optional<double> by_iops;       // accelerators storage.iops feeds
  std::optional<double> per_node;      // accelerators one node's cap (client or network) feeds
  bool latency_ok = true;              // latency x queue depth keeps up, for any count
  std::optional<double> accelerators;  // the answer: the least of the above (none: unlimited)
};
StorageCapacity storage_capacity(const StorageInputs& in, const Workload& w, double compute_s);

}  // namespace pipesim
