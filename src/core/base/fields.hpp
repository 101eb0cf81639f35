// Every scenario field has a dotted key ("pipeline.batch_size"), a kind and a constraint.
// The registry drives TOML loading, --set, --vary, JSON "inputs" and the key table in docs/manual/scenarios.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/units.hpp"

namespace pipesim {

enum class Field : std::uint8_t {
  BatchSize,
  Workers,
  LoopOverhead,
  ReceiveTime,
  ReceiveTimePerSample,
  WorkerBatchOverhead,
  WorkerSampleOverhead,
  LoopCpuShare,
  LoopWait,
  LaunchTime,
  PinLockShare,
  CrowdedLoopTime,
  PersistentWorkers,
  WorkerStartTime,
  WorkerWarmupTime,
  EpochOverhead,
  PrefetchFactor,
  ShuffleBuffer,
  InOrder,
  TargetUtilization,
  Nodes,
  Reshuffle,
  AcceleratorCount,
  AcceleratorType,
  PeakFlops,
  PeakFlopsFp32,
  PeakFlopsTf32,
  PeakFlopsBf16,
  PeakFlopsFp16,
  PeakFlopsFp8,
  MemoryBandwidth,
  AcceleratorMemory,
  Efficiency,
  DispatchOverhead,
  LayerOverhead,
  DecoderRate,
  DecoderEngines,
  DecoderFrameRate,
  FlopsPerSample,
  Parameters,
  Precision,
  BytesPerParameter,
  Training,
  StateBytesPerParameter,
  ActivationBytes,
  HiddenSize,
  AttentionHeads,
  SequenceLength,
  ActivationCheckpointing,
  Layers,
  Passes,
  MeasuredOverhead,
  MeasuredPerSample,
  MeasuredOn,
  StepCv,
  SampleSize,
  DeviceSampleSize,
  DeviceShape,
  DeviceDtype,
  TransformCost,
  FrameCost,
  DatasetSamples,
  Epochs,
  DatasetSize,
  SampleSizeCv,
  SamplesPerShard,
  FramesPerSample,
  Padding,
  LengthBuckets,
  TransformDevice,
  GpuTime,
  HostCost,
  TransformCv,
  PredecodedSampleSize,
  PredecodedSampleRate,
  WorkerThroughput,
  WorkerSampleRate,
  Cores,
  ReservedCores,
  ThreadsPerCore,
  SmtYield,
  ScalingContention,
  ScalingCoherency,
  OversubscriptionCost,
  MemcpyBandwidth,
  CollateBandwidth,
  PinBandwidth,
  NodeMemory,
  PageCache,
  NetworkBandwidth,
  ReadBandwidth,
  StorageScope,
  NodeStorageBandwidth,
  Iops,
  RequestSize,
  Latency,
  QueueDepth,
  StreamBandwidth,
  StorageCapacity,
  ThroughputPerTib,
  CacheHit,
  LocalCache,
  StorageSharedBy,
  LinkBandwidth,
  PageableBandwidth,
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
  Share,         // 0 <= x <= 1
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
  // For a field without a default: a typical value, as TOML, that `init` offers ("256",
  // "\"7 GB/s\"", "\"h100-sxm\""); it must load as it is.
  std::string_view example = "";
  std::span<const std::string_view> choices = {};  // for Dim::Choice fields: the names
  bool shape = false;  // a plain number also written as a shape: "3x224x224" or [3, 224, 224]
};

std::span<const FieldSpec> all_fields();
const FieldSpec& spec(Field f);
// The first kind of value (in Dim order) a field accepts: the one its bare value is written in.
Dim first_dim(const FieldSpec& f);
// nullptr when unknown.
const FieldSpec* find_field(std::string_view key);
// The closest known key, for "did you mean"; empty when nothing is close.
std::string suggest_field(std::string_view key);
// "unknown key 'x'; did you mean 'y'?" (or a pointer to `pipesim presets --keys`).
std::string unknown_key_message(std::string_view key);

// The names of choice fields, in index order (the value stored is the index).
enum class Precision : std::uint8_t { Fp32, Tf32, Bf16, Fp16, Fp8 };
enum class Dtype : std::uint8_t { Uint8, Int8, Fp8, Fp16, Bf16, Fp32, Int32, Int64 };
enum class TransformAt : std::uint8_t { Cpu, Gpu, Decoder, None };
enum class StorageScope : std::uint8_t { Node, Cluster };
// How a batch of samples of different lengths reaches the device (workload.padding): as stored
// (fixed lengths, or packed), or each padded to the batch's longest.
enum class Padding : std::uint8_t { None, Longest };
// How the training loop waits for the accelerator's step (pipeline.loop_wait): a busy wait, a
// blocking one, or checks with sleeps between.
enum class LoopWait : std::uint8_t { Spin, Sleep, Poll };
// What a transformer keeps for its backward pass (model.activation_checkpointing): every
// activation, the attention scores among them; all but the attention, recomputed (as FlashAttention
// does); or each layer's input alone, the layer recomputed.
enum class Checkpointing : std::uint8_t { None, Selective, Full };
// accelerator.type and model.measured_on name one of these (the accelerator presets), or
// "other": the index of "other".
inline constexpr double kOtherAccelerator = 14;
// The accelerator names, in index order ("a100-40gb-pcie" ... "other").
std::span<const std::string_view> accelerator_names();
// Bytes of one element of a dtype.
double dtype_bytes(Dtype d);
// Bytes per parameter of weights held at a precision (fp32 and tf32: 4, bf16 and fp16: 2, fp8: 1).
double precision_bytes(Precision p);
// The per-precision peak field for a precision (accelerator.peak_flops_bf16 ...).
Field peak_field(Precision p);

// A field's value for people and for JSON text: choice names, true/false, or a number with
// its unit (format_compact).
std::string format_value(const FieldSpec& s, double value, Dim dim);
// A choice field's names joined by `separator`: "fp32, tf32, bf16, fp16, fp8".
std::string choice_names(const FieldSpec& s, std::string_view separator = ", ");
// The name of a choice field's value ("bf16").
std::string_view choice_name(const FieldSpec& s, double value);

// Checks a value against a field's kind and constraint; throws Error (no origin).
void check_value(const FieldSpec& s, const Quantity& q);
// Parses a shape ("3x224x224") to its element count; throws Error (no origin).
double parse_shape(const FieldSpec& s, std::string_view text);
// Parses --set / --vary text for a field ("2 GB/s", "8", "true"); throws Error (no origin).
Quantity parse_field_value(const FieldSpec& s, std::string_view text);

// A field's default when it is a fixed value (its default_text is "0 s", "2", "90%", "true",
// "cpu" ...): that text parsed as the field's value, once, so the documented default and the
// value the model uses are one thing. nullopt when the field has no default or one that follows
// from other fields ("0.4 x link.bandwidth", "accelerator.count").
std::optional<double> fixed_default(Field f);
// The same for every field, indexed by Field, NaN where there is none: the build-time snapshot
// of parse_default_values(), or that parse, once, on first use, where there is no snapshot.
const double* fixed_default_values();
// Every fixed default parsed from its text, indexed by Field, NaN where there is none.
std::array<double, kFieldCount> parse_default_values();
// parse_default_values() as tools/snapshot_presets took it at build time (exact doubles), so
// that start-up parses no default text; empty where the snapshot is not linked (that tool, a
// layer linked alone).
std::span<const double> default_values_snapshot();
// Throws the internal Error of Scenario::value for a field without a fixed default.
[[noreturn]] void no_fixed_default(Field f);
// The fields every scenario must set, in the order an error lists them: the batch size, the
// workers and the sample size.
std::span<const Field> required_fields();
bool required(Field f);

// Fields that say the same thing in different ways (how fast a worker transforms):
// setting one replaces the others. Empty for most fields.
std::span<const Field> alternatives(Field f);

// A training step measured at several batch sizes (model.measured_steps): each batch size with the
// step's time there, in increasing batch size, the times never falling. Between two points the step
// follows the straight line between them; outside them, the line through the nearest two (below
// the first never under the first point's time per sample times the batch), and with one point
// the step is that time per sample times the batch.
struct StepPoint {
  double batch = 0;
  double seconds = 0;
};
inline constexpr std::size_t kMaxStepPoints = 8;
struct StepPoints {
  std::array<StepPoint, kMaxStepPoints> at{};
  std::size_t count = 0;
  [[nodiscard]] std::span<const StepPoint> points() const { return {at.data(), count}; }
  [[nodiscard]] bool empty() const { return count == 0; }
  [[nodiscard]] double first_batch() const { return at[0].batch; }
  [[nodiscard]] double last_batch() const { return at[count - 1].batch; }
};
// The step at a batch size as a line, overhead + batch x per_sample, from the points around it.
struct StepLine {
  double overhead = 0;
  double per_sample = 0;
};
StepLine step_line(const StepPoints& p, double batch);

struct Value {
  double value = 0;
  Dim dim = Dim::Number;
  bool set = false;
};

// A scenario is a plain value: which fields are set, and to what (SI base units). It changes
// only through set() and unset(), and set() keeps the rule that alternatives exclude each
// other: setting one field of a group (alternatives()) unsets the others.
class Scenario {
 public:
  [[nodiscard]] bool has(Field f) const { return values_[static_cast<std::size_t>(f)].set; }
  [[nodiscard]] double get(Field f) const { return values_[static_cast<std::size_t>(f)].value; }
  [[nodiscard]] Dim dim(Field f) const { return values_[static_cast<std::size_t>(f)].dim; }
  [[nodiscard]] std::optional<double> opt(Field f) const {
    return has(f) ? std::optional<double>(get(f)) : std::nullopt;
  }
  // The value set, else the field's fixed default (fixed_default); a field without one is an
  // internal error (its default follows from other fields: the model computes it). Inline and
  // without a lookup (the core reads dozens of fields per sweep point).
  [[nodiscard]] double value(Field f) const {
    const auto i = static_cast<std::size_t>(f);
    if (values_[i].set) return values_[i].value;
    const double d = defaults_[i];
    if (d != d) no_fixed_default(f);  // NaN: none
    return d;
  }
  // The alternative of f that is set now (and that set(f, ...) would replace), if any.
  [[nodiscard]] std::optional<Field> set_alternative(Field f) const;
  void set(Field f, Quantity q);
  void set(Field f, double v) { set(f, Quantity{v, Dim::Number}); }
  void unset(Field f) {
    values_[static_cast<std::size_t>(f)] = {};
    if (f == Field::MeasuredPerSample || f == Field::MeasuredOverhead) steps_.count = 0;
  }
  // The step measured at several batch sizes, where it was given so (model.measured_steps): it
  // and model.measured_per_sample with model.measured_overhead exclude each other, as
  // alternatives do.
  [[nodiscard]] const StepPoints& step_points() const { return steps_; }
  void set_step_points(const StepPoints& p);
  // The compute step is measured: by points or by model.measured_per_sample.
  [[nodiscard]] bool step_measured() const { return !steps_.empty() || has(Field::MeasuredPerSample); }

 private:
  std::array<Value, kFieldCount> values_{};
  StepPoints steps_{};
  const double* defaults_ = fixed_default_values();  // the shared table (copies share it)
};

}  // namespace pipesim
