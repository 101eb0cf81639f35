// Plan checks: requirements a purchase plan must meet, evaluated with the model.
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analyses/provenance.hpp"
#include "core/base/error.hpp"
#include "core/base/range.hpp"
#include "core/stages/model.hpp"

namespace pipesim {

enum class Metric : std::uint8_t {
  // min_utilization (ratio): every epoch of the run, its start and the first epoch from storage
  // included (require.epochs = "steady": the steady state alone)
  Utilization,
  // min_first_epoch_utilization (ratio): the first epoch's, which reads from storage what later
  // epochs find in the page cache (the steady state's when the cache makes no difference)
  FirstEpochUtilization,
  // min_run_utilization (ratio): over the whole run of workload.epochs epochs, the first from
  // storage and every epoch's start included
  RunUtilization,
  Throughput,     // min_throughput (samples/s for the cluster, or steps/s: see Requirement::per_step)
  EpochTime,      // max_epoch_time (s)
  CostPerEpoch,   // max_cost_per_epoch (USD)
  SamplesPerUsd,  // min_samples_per_dollar
  Walls,          // allowed_walls (set of stages)
  Memory,         // fits_in_memory: added to every plan whose accelerator memory is modelled
};

struct Requirement {
  Metric metric;
  double threshold = 0;  // for Walls: unused
  unsigned walls = 0;    // for Walls: allowed stages, bit per Stage
  Origin origin;         // where it was written (plan file or --require)
  // min_throughput given per step ("3 it/s"): the threshold and the value are training steps
  // per second (1 / step time), so the requirement holds at every batch size as written.
  bool per_step = false;
  // The threshold as the plan wrote it ("55.7%", "$0.71"), echoed as typed; empty for the
  // implicit fits_in_memory and for allowed_walls.
  std::string typed = {};
};

struct Plan {
  std::vector<Requirement> requirements;
  std::optional<Range> batch_sizes;  // requirements must hold at every one of these
  Origin batch_sizes_origin;
  // Stages the plan accepts not modelled (require.unmodelled, bit per Stage): a requirement
  // that such a stage could break passes on the model's upper bound, and the output says so.
  // Any other unmodelled stage leaves those requirements unverified (docs/manual/plans.md).
  unsigned accept_unmodelled = 0;
  // require.measured_elsewhere = true: the plan accepts a compute step measured on another
  // accelerator than its own, used as measured; otherwise a requirement resting on one is
  // unverified.
  bool accept_elsewhere = false;
  // require.extrapolated = true: the plan accepts a step measured at several batch sizes
  // (model.measured_steps) used at a batch size outside them, extrapolated; otherwise a
  // requirement resting on one is unverified.
  bool accept_extrapolated = false;
  // What the figures the scenario takes from presets were measured for (the loader fills it from
  // each preset's [measured_for] table, dropping those a later layer sets): a requirement resting on
  // one that the scenario changed the model, accelerator or data of is unverified.
  std::vector<MeasuredFor> measured_for;
  // require.epochs = "steady": utilization, throughput, walls, epoch time, cost and samples per
  // dollar are judged in the steady state alone (an epoch's steps once its pipeline is full and
  // its page cache warm). By default over every epoch: the worst, the first with its start and
  // its cold page cache, too: a requirement holds in every epoch.
  bool steady_only = false;
};

// The stable key of a requirement ("min_utilization", ...).
std::string_view requirement_key(Metric m);
// How a requirement's value meets its threshold: at least it (min_*), at most it (max_*,
// fits_in_memory: the memory needed at most the accelerator's), or among it (allowed_walls:
// every binding stage one of the allowed).
enum class Bound : std::uint8_t { AtLeast, AtMost, Among };
Bound requirement_bound(Metric m);
// nullptr-like: returns false when the key is unknown.
bool find_requirement(std::string_view key, Metric* out);
// The unit of a requirement's value and threshold in machine-readable output: "ratio",
// "samples/s", "it/s", "s", "USD", "samples/USD", "B"; empty for allowed_walls.
std::string_view requirement_unit(const Requirement& r);
// Every requirement key, plus "batch_sizes", "unmodelled", "epochs", "measured_elsewhere" and
// "extrapolated".
std::vector<std::string_view> requirement_keys();

// A requirement's verdict. Unverified: the model's figure meets the threshold, but a stage it
// rests on is not modelled (nor accepted by the plan), so that figure is only a bound on the
// truth; or the compute step it rests on was measured on another accelerator, so the figure,
// met or missed, is that accelerator's; or the closed forms and simulate disagree on the step. The requirement neither
// passes nor fails until the stage is modelled or the step measured here, or the plan accepts it.
enum class Verdict : std::uint8_t { Pass, Fail, Unverified };

// A figure equal to its threshold but for the rounding of the arithmetic that gives it (0.9 ms
// of compute over 1 ms of transform is 0.8999999999999999 at some batch sizes, 0.9 at others)
// meets it: no verdict turns on the last bits of a double. Far below any figure pipesim prints.
inline bool equal_but_for_rounding(double figure, double threshold) {
  return std::abs(figure - threshold) <= 1e-12 * std::abs(threshold);
}

// Where variance acts (transform.cv, model.step_cv, workload.sample_size_cv), or the workers and
// the training process share the CPUs by time (pipeline.loop_cpu_share or loop_wait) and are
// more than the CPUs give a whole core each, the closed forms approximate what the DataLoader
// delivers (the tasks that take turns on the CPUs come and go); `pipesim simulate` runs it.
// Their utilizations at one point where they differ by more than kAgreement (0.02): the
// figures resting on the step are then not verified.
inline constexpr double kAgreement = 0.02;
struct Disagreement {
  double simulated = 0;    // simulate's utilization (the steady run, seed 1, default steps)
  double closed_form = 0;  // the closed forms' (the steady state)
  double batch = 0;        // at this batch size
  bool spread = false;     // a spread is set (transform.cv, model.step_cv, workload.sample_size_cv)
  bool shared = false;     // the workers and the training process share the CPUs by time
};
// Simulates the point when variance acts or the CPUs are shared by time, and compares; nothing
// where they agree, where neither holds, or where the simulation cannot run (too long, too
// short for a steady state).
std::optional<Disagreement> disagreement(const Inputs& in, const Result& r);

struct Outcome {
  const Requirement* requirement = nullptr;
  Verdict verdict = Verdict::Pass;
  bool pass = true;  // verdict == Pass
  // The worst value reached (for Walls: unused): at each batch size the worse of the first
  // epoch's and the steady state's, or the steady state's alone (Plan::steady_only).
  double value = 0;
  unsigned walls = 0;   // for Walls: every stage that bound at some point, in any epoch judged
  double at_batch = 0;  // batch size where the worst value was reached
  // Stages not modelled at some point that could break this requirement (bit per Stage): not
  // accepted by the plan (the requirement fails), and accepted (it passes on an upper bound).
  unsigned unmodelled = 0;
  unsigned accepted = 0;
  // Which keys model them (unmodelled_keys): where the transform runs, and whether the transfer
  // needs the device's bytes per sample beside the link.
  TransformAt transform_at = TransformAt::Cpu;
  bool transfer_needs_device_bytes = false;
  // The compute step this requirement rests on was measured on another accelerator than the
  // scenario's (every requirement but fits_in_memory): unverified unless the plan accepts it.
  std::optional<StepElsewhere> elsewhere;
  bool elsewhere_accepted = false;
  // The step measured at several batch sizes was used outside them (the first such point): the
  // figure rests on an extrapolation (every requirement but fits_in_memory), unverified unless
  // the plan accepts it.
  std::optional<StepRange> extrapolated;
  bool extrapolated_accepted = false;
  // fits_in_memory with a term of the memory unknown: the key that gives it (model.parameters for
  // the weights, gradients and optimizer state; model.activation_bytes for the activations). What
  // is counted can only grow: a batch that misses fails, one that fits is unverified.
  std::optional<Field> memory_unknown;
  // Figures a preset measured for another model, accelerator or kind of data than the scenario's,
  // that this requirement rests on (the activations for fits_in_memory, the others for the rest):
  // unverified, met or missed, until the scenario sets them.
  std::vector<ForeignFigure> foreign;
  // Where the worst epoch differs from the steady state, at the batch size of the worst value:
  // the worst epoch's figure (the first, with its start and, where first_epoch_cold, its cold page
  // cache) and the steady state's, so that the output can give both and say which was judged
  // (for Walls, the stages that bound only the first epoch); and the epoch from which the steady
  // state holds (within 1% where the cache warms over several epochs).
  std::optional<double> first_epoch;
  bool first_epoch_cold = false;
  double steady = 0;
  double steady_from = 1;
  unsigned first_epoch_walls = 0;
  bool steady_only = false;  // the plan's require.epochs = "steady": the first epoch not judged
  // The closed forms and simulate disagree on the step at some point (the first such): every
  // requirement but fits_in_memory is then unverified.
  std::optional<Disagreement> disagreement;
};

struct PlanOutcome {
  std::shared_ptr<Requirement> memory;  // the implicit fits_in_memory requirement, when added
  std::vector<Outcome> outcomes;
  bool pass = true;  // every requirement passed
  std::size_t failures = 0;
  std::size_t unverified = 0;  // requirements whose figure holds on an unmodelled stage's bound
  // check --strict: the keys the plan sets that change nothing, each a failure (the verdict Fail).
  std::size_t unused_failures = 0;
  // Fail when any requirement failed, else Unverified when any is, else Pass.
  Verdict verdict = Verdict::Pass;
  // Some requirement was judged (compare leaves a plan without requirements unjudged).
  [[nodiscard]] bool judged() const { return !outcomes.empty(); }
};

// Evaluates every requirement at the scenario's batch size, or at every batch size of
// plan.batch_sizes. When accelerator memory is modelled, a fits_in_memory requirement
// (memory needed <= accelerator.memory) is added: a batch that does not fit fails the plan.
// A stage that is not modelled can only lower a utilization, throughput or samples per dollar
// and raise an epoch's time or cost, so the model's figure is a bound: a requirement that the
// bound already misses fails; one that it meets is Unverified unless the plan accepts the stage. Throws Error (with the
// requirement's origin) when a requirement needs data the scenario lacks (epoch time without a dataset size, cost
// without a price).
PlanOutcome check_plan(const Scenario& s, const Plan& plan);

// The figure that ranks the passing points of a sweep over a plan, the buyer's pick first: where
// a price is set the cheapest (the whole run's cost, else an epoch's, else the most samples per
// USD), else the fastest (the whole run's time, else an epoch's, else the most throughput).
enum class RankBy : std::uint8_t { RunCost, EpochCost, SamplesPerUsd, RunTime, EpochTime, Throughput };
struct Rank {
  RankBy by = RankBy::Throughput;
  double value = 0;  // the figure itself (USD, s, samples/USD or samples/s)
};
Rank rank(const Result& r);
// a ranks before b: less cost or time, more samples per USD or throughput (both ranked by the same figure).
bool ranks_before(const Rank& a, const Rank& b);

}  // namespace pipesim
