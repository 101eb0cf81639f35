// The accelerator compute stage: a roofline of FLOPs and weight streaming plus per-step and
// per-layer overheads, or a measured time per step; and accelerator memory.
#pragma once

#include <optional>

#include "core/stage.hpp"
#include "core/workload.hpp"

namespace pipesim {

struct ComputeInputs {
  bool measured = false;
  double overhead = 0;        // seconds per step
  double per_sample = 0;      // seconds per sample
  double weight_seconds = 0;  // weight bytes / memory bandwidth (0: not modelled)
  double passes = 1;
  bool training = false;  // model.training, or more than one pass
  // accelerator memory (modelled when capacity and parameters are known)
  std::optional<double> memory_capacity;
  double memory_static = 0;                // weights (+ gradients + optimizer state when training)
  std::optional<double> activation_bytes;  // per sample
};

ComputeInputs resolve_compute(const Scenario& s);

// overhead + max(B x per_sample, weight_seconds x (1 + 0.1 B)): the model's own work per step.
double model_compute_time(const ComputeInputs& in, double batch, Limit* limit = nullptr);
// Accelerator memory needed at a batch size (when in.memory_capacity is set).
double memory_needed(const ComputeInputs& in, double batch);
// Largest batch that fits in accelerator memory; nullopt when any batch fits (activations
// not given and the static part fits), 0 when none does.
std::optional<double> max_batch_that_fits(const ComputeInputs& in);

}  // namespace pipesim
