// Solving a scenario for the one rate it leaves unknown from what the user observed
// (`pipesim attribute --observed`, docs/tutorials/gpu-at-40-percent.md): the utilization their accelerator
// shows, or the it/s their training loop prints.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/base/fields.hpp"
#include "core/stages/model.hpp"

namespace pipesim {

enum class Observed { Utilization, StepsPerS, SamplesPerS };

struct Observation {
  Observed kind = Observed::Utilization;
  double value = 0;  // a fraction, steps/s of one training process, or samples/s of one accelerator
};

// "utilization=40%", "utilization=0.4", "3.1 it/s", "3.1 steps/s", "790 samples/s". Throws Error
// (without origin) otherwise.
Observation parse_observation(std::string_view text);

// "utilization 40.0%", "3.1 steps/s", "790.00 samples/s".
std::string observation_text(Observed kind, double value);

// The model's figure that an observation is compared with.
double observed_figure(const Result& r, double batch, Observed kind);

// The worker's rate in the form the scenario gives it (cpu.worker_throughput,
// cpu.worker_sample_rate or workload.transform_cost), else cpu.worker_sample_rate.
Field default_unknown(const Scenario& s);

struct Solution {
  Field field = Field::WorkerSampleRate;
  Quantity value;
  // false: the observation is the most the scenario reaches, so the field is not what binds and
  // `value` is only the least (or, for a time, the most) that gives it.
  bool exact = true;
  std::optional<Quantity> previous;  // what the scenario set for the field (or its alternative)
  std::optional<Field> previous_field;
  Scenario scenario;  // with the field set to `value`
  Result result;      // the model of `scenario`
};

// Finds the value of `unknown` at which the model's figure equals the observation (bisection:
// the figure is monotone in one stage's rate). Throws Error when the field cannot be solved for
// (a count, a switch, a choice), when the figure does not depend on it, or when the observation
// is out of reach at any value (saying the most or least the scenario gives); FieldError from
// the model as diagnose would.
Solution solve_observed(const Scenario& s, Field unknown, const Observation& o);

}  // namespace pipesim
