// Every scenario field has a dotted key ("pipeline.batch_size"), a kind and a constraint.
// The registry drives TOML loading, --set, --vary, JSON "inputs" and the README reference.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/units.hpp"

namespace pipesim {

enum class Field : std::uint8_t {
  BatchSize,
  Workers,
  AcceleratorCount,
  PeakFlops,
  MemoryBandwidth,
  Efficiency,
  DispatchOverhead,
  LayerOverhead,
  FlopsPerSample,
  Parameters,
  BytesPerParameter,
  Layers,
  Passes,
  MeasuredOverhead,
  MeasuredPerSample,
  SampleSize,
  DeviceSampleSize,
  TransformCost,
  DatasetSamples,
  WorkerThroughput,
  WorkerSampleRate,
  Cores,
  ReadBandwidth,
  Iops,
  RequestSize,
  Latency,
  QueueDepth,
  CacheHit,
  StorageSharedBy,
  LinkBandwidth,
  LinkPinned,
  LinkSharedBy,
  PricePerHour,
  PurchasePrice,
  Amortization,
  kCount
};
constexpr std::size_t kFieldCount = static_cast<std::size_t>(Field::kCount);

enum class Constraint : std::uint8_t {
  Positive,      // > 0
  NonNegative,   // >= 0
  UnitInterval,  // 0 < x <= 1
  HitRatio,      // 0 <= x < 1
  None,          // booleans
};

struct FieldSpec {
  Field field;
  std::string_view key;  // dotted key
  DimSet accepts;
  Constraint constraint;
  bool integer;                   // must be a whole number
  std::string_view default_text;  // "" when the field has no default
  std::string_view help;
};

std::span<const FieldSpec> all_fields();
const FieldSpec& spec(Field f);
// nullptr when unknown.
const FieldSpec* find_field(std::string_view key);
// The closest known key, for "did you mean"; empty when nothing is close.
std::string suggest_field(std::string_view key);

// Checks a value against a field's kind and constraint; throws Error (no origin).
void check_value(const FieldSpec& s, const Quantity& q);
// Parses --set / --vary text for a field ("2 GB/s", "8", "true"); throws Error (no origin).
Quantity parse_field_value(const FieldSpec& s, std::string_view text);

// Fields that say the same thing in different ways (how fast a worker transforms):
// setting one replaces the others. Empty for most fields.
std::span<const Field> alternatives(Field f);

struct Value {
  double value = 0;
  Dim dim = Dim::Number;
  bool set = false;
};

// A scenario is a plain value: which fields are set, and to what (SI base units).
struct Scenario {
  std::array<Value, kFieldCount> values{};

  [[nodiscard]] bool has(Field f) const { return values[static_cast<std::size_t>(f)].set; }
  [[nodiscard]] double get(Field f) const { return values[static_cast<std::size_t>(f)].value; }
  [[nodiscard]] Dim dim(Field f) const { return values[static_cast<std::size_t>(f)].dim; }
  [[nodiscard]] std::optional<double> opt(Field f) const {
    return has(f) ? std::optional<double>(get(f)) : std::nullopt;
  }
  void set(Field f, Quantity q) { values[static_cast<std::size_t>(f)] = Value{q.value, q.dim, true}; }
  void set(Field f, double v) { set(f, Quantity{v, Dim::Number}); }
};

}  // namespace pipesim
