// The four stages of docs/model.md, what bounds each, and one stage's result.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "core/base/fields.hpp"

namespace pipesim {

enum class Stage : std::uint8_t { Storage, Transform, Transfer, Compute };
inline constexpr std::array kStages = {Stage::Storage, Stage::Transform, Stage::Transfer, Stage::Compute};
std::string_view stage_key(Stage s);   // "storage", "transform", "transfer", "compute"
std::string_view stage_name(Stage s);  // "storage fetch", "CPU transform", ...
// As stage_name, but the transform is named for where it runs ("hardware decode").
std::string_view stage_name(Stage s, TransformAt at);
constexpr unsigned stage_bit(Stage s) { return 1u << static_cast<unsigned>(s); }

// What sets a stage's time per batch. Stable keys (limit_key) appear in JSON.
enum class Limit : std::uint8_t {
  Bandwidth,        // storage: its share of storage.read_bandwidth
  NodeBandwidth,    // storage: its share of storage.node_bandwidth (per-node client limit)
  Network,          // storage: its share of node.network_bandwidth
  Iops,             // storage: its share of storage.iops
  Latency,          // storage: requests in flight x latency (Little's law)
  Cache,            // storage: every read is a page-cache hit
  Workers,          // transform: the workers there are
  Cores,            // transform: the cores cap the workers
  SharedCores,      // transform: workers, training process and pin thread share the cores by time
  Variance,         // transform: batch-time variance under per-worker prefetch (and in-order) delivery
  MainProcess,      // transform: workers = 0, the training process transforms
  Decoder,          // transform: the accelerator's hardware decoder
  Link,             // transfer: pinned host-to-device bandwidth
  PageableLink,     // transfer: pageable copies
  PinThread,        // transfer: the one thread that copies each batch into pinned memory
  InterpreterLock,  // transfer: the loop's launch and the pin thread's locked work take turns on one lock
  Flops,            // compute: FLOP rate at the efficiency given
  MemoryBandwidth,  // compute: streaming the weights
  Measured,         // compute: a measured time per step
};
std::string_view limit_key(Limit l);  // "bandwidth", "iops", "workers", "cores", ...

// One stage at one operating point. Every figure a report shows is here: renderers only format.
struct StageResult {
  bool modelled = false;
  bool binding = false;
  Limit limit = Limit::Bandwidth;
  double time_s = 0;              // per batch
  double samples_per_s = 0;       // batch / time (0 when the stage takes no time)
  double share_of_step = 0;       // time / step
  double bytes_per_batch = 0;     // bytes the stage moves per batch (storage: read; transfer: copied)
  double bytes_per_s = 0;         // bytes per second it delivers (0 when it takes no time)
  double demand_bytes_per_s = 0;  // bytes per second compute would consume of it, never starved
};

}  // namespace pipesim
