#include "core/stages/compute.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <string>

#include "core/base/error.hpp"

namespace pipesim {

namespace {

// A measured step's line at the scenario's batch size: from the points measured around it, or
// as given.
void measured_step(const Scenario& s, ComputeInputs& in) {
  if (const StepPoints& points = s.step_points(); !points.empty()) {
    const double batch = s.get(Field::BatchSize);
    const StepLine line = step_line(points, batch);
    in.overhead = line.overhead;
    in.per_sample = line.per_sample;
    in.measured_range = StepRange{points.first_batch(), points.last_batch(), batch};
  } else {
    in.overhead = s.value(Field::MeasuredOverhead);
    in.per_sample = s.get(Field::MeasuredPerSample);
  }
}

}  // namespace

ComputeInputs resolve_compute(const Scenario& s) {
  ComputeInputs in;
  const std::optional<Precision> precision =
      s.has(Field::Precision) ? std::optional(static_cast<Precision>(s.get(Field::Precision))) : std::nullopt;
  const bool training = s.has(Field::Training) ? s.get(Field::Training) != 0 : s.opt(Field::Passes).value_or(1) > 1;
  in.passes = s.opt(Field::Passes).value_or(training ? 3 : 1);
  in.training = training;
  const double bytes_per_parameter =
      s.opt(Field::BytesPerParameter).value_or(precision ? precision_bytes(*precision) : 2);
  // Activation bytes are given in 16-bit precision (mixed precision keeps most activations in bf16
  // or fp16, as the shipped models were measured): fp32 and tf32 hold each in 4 bytes.
  const double activation_scale =
      s.has(Field::Precision) && precision_bytes(static_cast<Precision>(s.get(Field::Precision))) >= 4 ? 2.0 : 1.0;

  if (s.step_measured()) {
    in.measured = true;
    measured_step(s, in);
    if (in.overhead + in.per_sample <= 0)
      throw FieldError(Field::MeasuredPerSample,
                       "model.measured_per_sample and model.measured_overhead are both zero: a step takes time");
    const auto on = s.opt(Field::MeasuredOn);
    const auto here = s.opt(Field::AcceleratorType);
    if (on && here && *on != kOtherAccelerator && *here != kOtherAccelerator && *on != *here)
      in.elsewhere = StepElsewhere{*on, *here};
  } else {
    if (s.has(Field::MeasuredOverhead))
      throw FieldError(Field::MeasuredOverhead, "model.measured_overhead is set but model.measured_per_sample is not");
    std::optional<double> peak = s.opt(Field::PeakFlops);
    if (!peak && precision) {
      const Field f = peak_field(*precision);
      if (!s.has(f))
        throw FieldError(Field::Precision,
                         fmt::format("model.precision is {} but the accelerator gives no {}: set it, or "
                                     "accelerator.peak_flops",
                                     choice_name(spec(Field::Precision), s.get(Field::Precision)), spec(f).key));
      peak = s.get(f);
    }
    std::string missing;
    Field first = Field::PeakFlops;
    const auto need = [&](bool ok, Field f, std::string_view name) {
      if (ok) return;
      if (missing.empty()) first = f;
      missing += fmt::format("{}{}", missing.empty() ? "" : ", ", name);
    };
    need(peak.has_value(), precision ? Field::Precision : Field::PeakFlops,
         "accelerator.peak_flops (or model.precision with the accelerator's per-precision peaks)");
    need(s.has(Field::FlopsPerSample), Field::FlopsPerSample, "model.flops_per_sample");
    need(s.has(Field::Efficiency), Field::Efficiency, "accelerator.efficiency");
    if (!missing.empty())
      throw FieldError(first, fmt::format("the accelerator compute stage needs "
                                          "accelerator.peak_flops, model.flops_per_sample and "
                                          "accelerator.efficiency, or model.measured_per_sample; "
                                          "missing: {}",
                                          missing));
    const double layers = s.value(Field::Layers);
    const double per_layer = s.value(Field::LayerOverhead);
    in.overhead = s.value(Field::DispatchOverhead) + layers * per_layer * (in.passes > 1 ? 3.0 : 1.0);
    in.per_sample = s.get(Field::FlopsPerSample) * in.passes / (*peak * s.get(Field::Efficiency));
    if (s.has(Field::MemoryBandwidth) && s.has(Field::Parameters))
      in.weight_seconds = s.get(Field::Parameters) * bytes_per_parameter / s.get(Field::MemoryBandwidth);
  }

  // Checked against the accelerator's memory whenever one of its terms is known; the words say
  // which term is missing.
  const std::optional<double> activations =
      s.has(Field::ActivationBytes) ? s.opt(Field::ActivationBytes) : transformer_activation_bytes(s);
  if (s.has(Field::AcceleratorMemory) && (s.has(Field::Parameters) || activations)) {
    in.memory_capacity = s.get(Field::AcceleratorMemory);
    // Mixed-precision Adam holds 16 bytes per parameter: fp16 weights and gradients (2 + 2),
    // fp32 master weights, momentum and variance (4 + 4 + 4) (Rajbhandari et al., ZeRO, 2020).
    const double per_parameter = training ? s.opt(Field::StateBytesPerParameter).value_or(16) : bytes_per_parameter;
    in.weights_counted = s.has(Field::Parameters);
    in.memory_static = s.opt(Field::Parameters).value_or(0) * per_parameter;
    if (activations) in.activation_bytes = *activations * activation_scale;
  }
  return in;
}

std::optional<double> transformer_activation_bytes(const Scenario& s) {
  const double layers = s.value(Field::Layers);
  if (!s.has(Field::HiddenSize) || !s.has(Field::SequenceLength) || layers <= 0) return std::nullopt;
  const double h = s.get(Field::HiddenSize);
  // Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models" (MLSys
  // 2023), section 4: a GPT layer keeps s b h (34 + 5 a s / h) bytes of 16-bit activations for s
  // tokens of b sequences: 34 s b h in its linear layers, norms and masks, 5 a s^2 b in its
  // attention scores (a heads); with the attention recomputed 34 s b h; with the whole layer
  // recomputed its input, 2 s b h. Per token: divided by s b.
  switch (static_cast<Checkpointing>(s.value(Field::ActivationCheckpointing))) {
    case Checkpointing::None:
      if (!s.has(Field::AttentionHeads)) return std::nullopt;
      return layers * h * (34 + 5 * s.get(Field::AttentionHeads) * s.get(Field::SequenceLength) / h);
    case Checkpointing::Selective:
      return layers * h * 34;
    case Checkpointing::Full:
      return layers * h * 2;
  }
  return std::nullopt;
}

bool precision_peak(Field f) {
  for (Precision p : {Precision::Fp32, Precision::Tf32, Precision::Bf16, Precision::Fp16, Precision::Fp8})
    if (peak_field(p) == f) return true;
  return false;
}

bool roofline_input(Field f) {
  switch (f) {
    case Field::FlopsPerSample:
    case Field::Efficiency:
    case Field::PeakFlops:
    case Field::DispatchOverhead:
    case Field::LayerOverhead:
    case Field::Layers:
    case Field::Passes:
    case Field::MemoryBandwidth:
      return true;
    default:
      return precision_peak(f);
  }
}

double model_compute_time(const ComputeInputs& in, double batch, Limit* limit) {
  const double flop_term = batch * in.per_sample;
  const double memory_term = in.weight_seconds * (1 + 0.1 * batch);
  if (limit) *limit = in.measured ? Limit::Measured : memory_term > flop_term ? Limit::MemoryBandwidth : Limit::Flops;
  return in.overhead + std::max(flop_term, memory_term);
}

double memory_needed(const ComputeInputs& in, double batch) {
  return in.memory_static + batch * in.activation_bytes.value_or(0);
}

std::optional<double> max_batch_that_fits(const ComputeInputs& in) {
  if (!in.memory_capacity) return std::nullopt;
  if (in.memory_static > *in.memory_capacity) return 0.0;
  if (!in.activation_bytes) return std::nullopt;
  return std::floor((*in.memory_capacity - in.memory_static) / *in.activation_bytes);
}

}  // namespace pipesim
