// Solving a scenario for the one rate it leaves unknown from what the user observed
// (`pipesim attribute observed`, docs/tutorials/gpu-at-40-percent.md): the utilization their accelerator
// shows, or the it/s their training loop prints.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/fields.hpp"
#include "core/stages/model.hpp"

namespace pipesim {

// Utilization is pipesim's: the accelerator's compute over the step. It is not nvidia-smi's
// GPU-Util, the share of time in which at least one kernel runs, however little of the GPU it
// occupies, the data's kernels (decoding and augmenting on the GPU) included: that reads higher.
enum class Observed { Utilization, StepsPerS, SamplesPerS };
// Whose samples/s: one accelerator's, the node's (all its accelerators) or the cluster's.
enum class Scope { Accelerator, Node, Cluster };

struct Observation {
  Observed kind = Observed::Utilization;
  double value = 0;  // a fraction, steps/s of one training process, or samples/s of `scope`
  Scope scope = Scope::Accelerator;
};

// "utilization=40%", "utilization=0.4", "3.1 it/s", "3.1 steps/s", "790 samples/s" (of one
// accelerator), "790 samples/s per accelerator", "5600 samples/s for the node", "per node", "for
// the cluster". Throws Error (without origin) otherwise.
Observation parse_observation(std::string_view text);

// "utilization 40.0%", "3.1 steps/s", "790.00 samples/s"; "5,600 samples/s for the node".
std::string observation_text(Observed kind, double value, Scope scope = Scope::Accelerator);
std::string observation_text(const Observation& o);

// The model's figure that an observation is compared with.
double observed_figure(const Result& r, double batch, Observed kind, Scope scope = Scope::Accelerator);

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

// Several observations of one scenario (utilization and samples/s, say), each solved alone, and
// the value that fits them all: the least sum of squared logs of model figure over observed
// figure, searched between the values they give alone. With one observation `fit` is its solution.
struct JointSolution {
  std::vector<Observation> observed;
  std::vector<Solution> each;  // by observation
  Solution fit;
  std::vector<double> fitted;  // the model's figure for each observation at the fitted value
  double spread = 1;           // the largest value solved alone over the smallest
};
// Observations farther apart than this (as values solved alone) disagree.
inline constexpr double kAgreeWithin = 1.05;
JointSolution solve_observations(const Scenario& s, Field unknown, const std::vector<Observation>& observed);

}  // namespace pipesim
