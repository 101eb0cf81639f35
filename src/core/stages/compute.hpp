// The accelerator compute stage: a roofline of FLOPs and weight streaming plus per-step and
// per-layer overheads, or a measured time per step; and accelerator memory.
#pragma once

#include <optional>

#include "core/stages/stage.hpp"
#include "core/stages/workload.hpp"

namespace pipesim {

// A measured step's accelerator (model.measured_on) where it is not the scenario's
// (accelerator.type): both named (indices of accelerator_names(), neither "other") and different.
struct StepElsewhere {
  double measured_on = 0;
  double accelerator = 0;
};

// The batch sizes a step measured at several (model.measured_steps) spans, and the batch it was
// asked at: outside them the step is extrapolated (StepPoints).
struct StepRange {
  double first = 0;
  double last = 0;
  double batch = 0;
  [[nodiscard]] bool outside() const { return batch < first || batch > last; }
};

struct ComputeInputs {
  bool measured = false;
  // The step was measured at several batch sizes (model.measured_steps): where.
  std::optional<StepRange> measured_range;
  // The measured step was taken on another accelerator: used as measured, not scaled, so every
  // figure that rests on it is that accelerator's.
  std::optional<StepElsewhere> elsewhere;
  double overhead = 0;        // seconds per step
  double per_sample = 0;      // seconds per sample
  double weight_seconds = 0;  // weight bytes / memory bandwidth (0: not modelled)
  double passes = 1;
  bool training = false;  // model.training, or more than one pass
  // accelerator memory (modelled when its capacity and the parameters or the activations are known)
  std::optional<double> memory_capacity;
  bool weights_counted = false;            // model.parameters is known: memory_static holds their part
  double memory_static = 0;                // weights (+ gradients + optimizer state when training)
  std::optional<double> activation_bytes;  // per sample
};

ComputeInputs resolve_compute(const Scenario& s);

// A transformer's activations per token from its shape (model.layers, model.hidden_size,
// model.sequence_length, model.attention_heads, model.activation_checkpointing), in 16-bit
// precision; nothing where the shape is not given.
std::optional<double> transformer_activation_bytes(const Scenario& s);

// The per-precision peaks (accelerator.peak_flops_fp32 ... _fp8): an accelerator has some of them.
bool precision_peak(Field f);
// The roofline's inputs (FLOPs, peaks, efficiency, overheads, layers, passes, weight streaming):
// what a measured compute time (model.measured_per_sample) replaces, so they act on nothing then.
bool roofline_input(Field f);

// overhead + max(B x per_sample, weight_seconds x (1 + 0.1 B)): the model's own work per step.
double model_compute_time(const ComputeInputs& in, double batch, Limit* limit = nullptr);
// Accelerator memory needed at a batch size (when in.memory_capacity is set).
double memory_needed(const ComputeInputs& in, double batch);
// Largest batch that fits in accelerator memory; nullopt when any batch fits (activations
// not given and the static part fits), 0 when none does.
std::optional<double> max_batch_that_fits(const ComputeInputs& in);

}  // namespace pipesim
