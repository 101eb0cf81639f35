// The stage model of DESIGN.md section 1: pure functions over plain values.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "core/fields.hpp"

namespace pipesim {

// An input error attributable to one field (so callers can say where it was set).
class FieldError : public Error {
 public:
  FieldError(Field f, const std::string& message) : Error(message), field_(f) {}
  [[nodiscard]] Field field() const { return field_; }

 private:
  Field field_;
};

// Which limit sets the bandwidth one accelerator gets from storage.
enum class BandwidthCap : std::uint8_t {
  Storage,      // its share of storage.read_bandwidth
  NodeClient,   // its share of storage.node_bandwidth (client limit per node)
  NodeNetwork,  // its share of node.network_bandwidth (cluster storage over the network)
};

// Everything the model needs, per accelerator, in SI base units.
struct Inputs {
  double batch = 1;         // B
  double workers = 0;       // W
  double accelerators = 1;  // per node
  double nodes = 1;         // in the cluster
  double sample_bytes = 0;  // read from storage (and transformed) per sample
  std::optional<double> dataset_samples;
  double target_utilization = 0.9;

  // transform: CPU workers, and (transform_at == Decoder) a hardware decoder
  TransformAt transform_at = TransformAt::Cpu;
  bool transform = false;                 // the transform stage is modelled
  bool cpu_work = false;                  // workers do per-sample CPU work
  double worker_seconds_per_sample = 0;   // one worker, one sample
  double decoder_seconds_per_sample = 0;  // the hardware decoder, one sample (0: not used)
  std::optional<double> node_cores;       // cpu.cores
  double reserved_cores = 0;              // of the node, for the training processes
  std::optional<double> cores_per_accelerator;  // for workers: (cores - reserved) / accelerators

  // storage fetch
  bool storage = false;
  StorageScope scope = StorageScope::Node;
  std::optional<double> read_bandwidth;    // aggregate (none: no aggregate limit, e.g. S3)
  std::optional<double> node_cap;          // bytes/s one node may read from this storage
  BandwidthCap node_cap_kind = BandwidthCap::NodeClient;
  double storage_bandwidth = 0;            // bytes/s available to this accelerator
  BandwidthCap bandwidth_cap = BandwidthCap::Storage;
  std::optional<double> iops_total;        // storage.iops, aggregate
  std::optional<double> storage_iops;      // requests/s available to this accelerator
  double request_bytes = 0;
  std::optional<double> storage_latency;   // time to first byte, with queue_depth
  double queue_depth = 0;
  std::optional<double> stream_bandwidth;  // most one request streams
  double cache_hit = 0;                    // every epoch after the first (steady state)
  std::optional<double> cold_cache_hit;    // the first epoch, when it differs (page cache)
  bool cache_from_page_cache = false;      // cache_hit follows from node.page_cache
  double page_cache_bytes = 0;
  double dataset_bytes = 0;
  double storage_shared_by = 1;

  // host -> device transfer
  bool transfer = false;
  double device_bytes = 0;
  double link_bandwidth = 0;         // bytes/s available to this accelerator, as copied
  double pinned_link_bandwidth = 0;  // link.bandwidth (whole link)
  bool pinned = true;
  double link_shared_by = 1;

  // accelerator compute: overhead + max(B * per_sample, weight * (1 + 0.1 B)) + B * gpu_decode
  bool measured = false;
  double compute_overhead = 0;    // seconds per step
  double compute_per_sample = 0;  // seconds per sample
  double weight_seconds = 0;      // weight bytes / memory bandwidth (0: not modelled)
  double gpu_decode_per_sample = 0;  // accelerator seconds per sample decoding (transform.device = gpu)
  double passes = 1;
  bool training = false;  // model.training, or more than one pass

  // accelerator memory (modelled when capacity and parameters are known)
  std::optional<double> memory_capacity;
  double memory_static = 0;               // weights (+ gradients + optimizer state when training)
  std::optional<double> activation_bytes;  // per sample

  // cost of one node, USD per second (from a price per hour or an amortised purchase)
  std::optional<double> price_per_second;
};

// Turns a scenario into model inputs. Throws FieldError for missing, conflicting or
// inconsistent fields.
Inputs resolve(const Scenario& s);

enum class Stage : std::uint8_t { Storage, Transform, Transfer, Compute };
inline constexpr std::array kStages = {Stage::Storage, Stage::Transform, Stage::Transfer, Stage::Compute};
std::string_view stage_key(Stage s);   // "storage", "transform", "transfer", "compute"
std::string_view stage_name(Stage s);  // "storage fetch", "CPU transform", ...
// As stage_name, but the transform is named for where it runs ("hardware decode").
std::string_view stage_name(Stage s, TransformAt at);
inline std::string_view stage_name(Stage s, const Inputs& in) { return stage_name(s, in.transform_at); }

enum class StorageLimit : std::uint8_t { Bandwidth, Iops, Latency };
enum class TransformLimit : std::uint8_t { Workers, Decoder };

struct StageResult {
  bool modelled = false;
  double time_s = 0;  // per batch
};

// The first epoch, when its page cache is cold and so differs from later epochs.
struct ColdEpoch {
  double cache_hit = 0;
  double storage_s = 0;
  double step_s = 0;
  double utilization = 0;
  double throughput = 0;
  unsigned binding = 0;
  std::optional<double> epoch_s;
};

struct Result {
  std::array<StageResult, 4> stages{};
  double step_s = 0;
  double model_compute_s = 0;  // the compute stage less any GPU decoding: the useful work
  double utilization = 0;      // model compute / step
  double slowdown = 0;         // step / model compute
  double throughput = 0;       // samples/s for the cluster: nodes * accelerators * B / step
  double throughput_per_node = 0;
  double throughput_per_accelerator = 0;
  double data_demand = 0;      // bytes/s one accelerator would read if never starved
  unsigned binding = 0;        // bit per Stage
  bool serial = false;         // workers == 0: stages run in turn
  bool transfer_serialised = false;  // not pinned: transfer adds to compute
  bool memory_bound = false;         // roofline weight-streaming term dominates
  StorageLimit storage_limit = StorageLimit::Bandwidth;
  TransformLimit transform_limit = TransformLimit::Workers;
  TransformAt transform_at = TransformAt::Cpu;  // where the transform stage ran
  double effective_workers = 0;
  double cache_hit = 0;              // storage reads served from page cache (steady state)
  std::optional<ColdEpoch> cold;     // the first epoch, when the page cache makes it differ
  // Accelerator memory, when modelled: bytes needed at this batch, and whether they fit.
  std::optional<double> memory_needed;
  bool fits = true;
  std::optional<double> epoch_s;
  // Cost, when the node has a price: USD per hour for the cluster, USD per epoch (needs the
  // dataset size), the part of it paid for idle accelerator time, and samples per USD.
  std::optional<double> price_per_hour;
  std::optional<double> cost_per_epoch;
  std::optional<double> idle_cost_per_epoch;
  std::optional<double> samples_per_usd;

  [[nodiscard]] const StageResult& stage(Stage s) const {
    return stages[static_cast<std::size_t>(s)];
  }
  [[nodiscard]] bool binds(Stage s) const { return (binding >> static_cast<unsigned>(s)) & 1u; }
  // The accelerator sets the step (within the co-binding tolerance).
  [[nodiscard]] bool compute_bound() const;
};

// Stage times for one batch.
double model_compute_time(const Inputs& in, double batch);  // without GPU decoding
double compute_time(const Inputs& in, double batch);        // the whole compute stage
double transform_time(const Inputs& in, double batch, TransformLimit* limit = nullptr);
double storage_time(const Inputs& in, double batch, StorageLimit* limit = nullptr);
double transfer_time(const Inputs& in, double batch);
// Seconds one storage request takes: latency to its first byte plus streaming at
// storage.stream_bandwidth (Little's law: queue_depth of these in flight per accelerator).
double request_service_time(const Inputs& in);
// Accelerator memory needed at a batch size (when in.memory_capacity is set).
double memory_needed(const Inputs& in, double batch);
// Largest batch that fits in accelerator memory; nullopt when any batch fits (activations
// not given and the static part fits), 0 when none does.
std::optional<double> max_batch_that_fits(const Inputs& in);

Result evaluate(const Inputs& in);

// Co-binding tolerance: stages within 1% of the largest bind together.
constexpr double kCoBinding = 0.01;

}  // namespace pipesim
