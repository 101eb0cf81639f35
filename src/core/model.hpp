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

// Everything the model needs, per accelerator, in SI base units.
struct Inputs {
  double batch = 1;         // B
  double workers = 0;       // W
  double accelerators = 1;  // on the node
  double sample_bytes = 0;  // read and transformed per sample
  std::optional<double> dataset_samples;

  // CPU transform (modelled when transform == true)
  bool transform = false;
  double worker_seconds_per_sample = 0;  // one worker, one sample
  std::optional<double> cores_per_accelerator;

  // storage fetch
  bool storage = false;
  double storage_bandwidth = 0;  // bytes/s available to this accelerator
  std::optional<double> storage_iops;  // requests/s available to this accelerator
  double request_bytes = 0;
  std::optional<double> storage_latency;  // with queue_depth
  double queue_depth = 0;
  double cache_hit = 0;
  double storage_shared_by = 1;

  // host -> device transfer
  bool transfer = false;
  double device_bytes = 0;
  double link_bandwidth = 0;  // bytes/s available to this accelerator
  bool pinned = true;
  double link_shared_by = 1;

  // accelerator compute: overhead + max(B * per_sample, weight * (1 + 0.1 B))
  bool measured = false;
  double compute_overhead = 0;    // seconds per step
  double compute_per_sample = 0;  // seconds per sample
  double weight_seconds = 0;      // weight bytes / memory bandwidth (0: not modelled)

  // cost of the node, USD per second (from a price per hour or an amortised purchase)
  std::optional<double> price_per_second;
};

// Turns a scenario into model inputs. Throws FieldError for missing, conflicting or
// inconsistent fields.
Inputs resolve(const Scenario& s);

enum class Stage : std::uint8_t { Storage, Transform, Transfer, Compute };
inline constexpr std::array kStages = {Stage::Storage, Stage::Transform, Stage::Transfer, Stage::Compute};
std::string_view stage_key(Stage s);   // "storage", "transform", "transfer", "compute"
std::string_view stage_name(Stage s);  // "storage fetch", "CPU transform", ...

enum class StorageLimit : std::uint8_t { Bandwidth, Iops, Latency };

struct StageResult {
  bool modelled = false;
  double time_s = 0;  // per batch
};

struct Result {
  std::array<StageResult, 4> stages{};
  double step_s = 0;
  double utilization = 0;    // compute / step
  double slowdown = 0;       // step / compute
  double throughput = 0;     // samples/s for the node: accelerators * B / step
  double data_demand = 0;    // bytes/s one accelerator would consume if never starved
  unsigned binding = 0;      // bit per Stage
  bool serial = false;       // workers == 0: stages run in turn
  bool transfer_serialised = false;  // not pinned: transfer adds to compute
  bool memory_bound = false;         // roofline weight-streaming term dominates
  StorageLimit storage_limit = StorageLimit::Bandwidth;
  double effective_workers = 0;
  std::optional<double> epoch_s;
  // Cost, when the node has a price: USD per epoch (needs the dataset size), the part of
  // it paid for idle accelerator time, and samples per USD.
  std::optional<double> price_per_hour;  // USD, for the node
  std::optional<double> cost_per_epoch;
  std::optional<double> idle_cost_per_epoch;
  std::optional<double> samples_per_usd;

  [[nodiscard]] const StageResult& stage(Stage s) const {
    return stages[static_cast<std::size_t>(s)];
  }
  [[nodiscard]] bool binds(Stage s) const { return (binding >> static_cast<unsigned>(s)) & 1u; }
};

// Stage times for one batch.
double compute_time(const Inputs& in, double batch);
double transform_time(const Inputs& in, double batch);
double storage_time(const Inputs& in, double batch, StorageLimit* limit = nullptr);
double transfer_time(const Inputs& in, double batch);

Result evaluate(const Inputs& in);

// Co-binding tolerance: stages within 1% of the largest bind together.
constexpr double kCoBinding = 0.01;

}  // namespace pipesim
