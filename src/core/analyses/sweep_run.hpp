// Running a sweep's grid: the points in ordered chunks over threads, each evaluated once (and
// diagnosed or simulated when the run asks), handed to the caller's row function on the thread
// that made it and to its writer on the calling thread, in order. The one owner of how a grid
// runs; what a point becomes (a row of some format, a curve's point) is the caller's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/analyses/diagnosis.hpp"
#include "core/analyses/sweep.hpp"
#include "core/sim/simulate.hpp"
#include "util/ordered_chunks.hpp"

namespace pipesim {

// What a run computes at each point beside its result, and on how many threads.
struct SweepRun {
  unsigned jobs = 1;                     // threads in all, the calling thread among them (1: this one alone)
  bool diagnose = false;                 // each point diagnosed: its fixes (SweepPoint::diagnosis)
  const SimOptions* simulate = nullptr;  // each point simulated too (SweepPoint::simulated)
  const Plan* plan = nullptr;            // each point judged by these requirements (SweepPoint::outcome)
};

// A sweep over a plan: the passing point ranked first (check's `rank`), the buyer's.
struct SweepPick {
  std::size_t index = 0;  // in the grid
  std::string point;      // its swept values
  Rank rank;
  double utilization = 0;                 // its steady state's
  std::optional<double> run_utilization;  // over the whole run, when known
};

// What a run found: the points the model refused and, over a plan, the verdicts.
struct SweepSummary {
  std::size_t points = 0;
  std::size_t invalid = 0;
  std::size_t first_invalid = 0;  // index in the grid, when invalid > 0
  std::string first_point;        // its swept values, "accelerator.count=16, pipeline.batch_size=32"
  std::string first_reason;
  std::size_t passed = 0, failed = 0, unverified = 0;  // points judged (SweepRun::plan)
  std::optional<SweepPick> pick;
};

// What a sweep command asks for, beside the scenario: the grid and how each point is run.
struct SweepRequest {
  std::vector<Axis> axes;
  const SimOptions* simulate = nullptr;  // each point simulated with these (sweep --simulate)
  bool cost = false;                     // cost columns (sweep --cost): the scenario must have a price
  bool force = false;                    // run a grid past kLargeSweepPoints (sweep --force)
  Plan plan;                             // the scenario's requirements, judged at every row
  Origin source;                         // where the scenario came from, for an error about it as a whole
};

// The sweep, checked before any row is written: the grid is not too large (unless forced), some
// point is valid (otherwise the first point's error), a simulated sweep's --batches can reach the
// steady state at its fewest workers, the columns fit every point, a price stands behind --cost,
// and a plan can judge the rows (at each row's own batch size where the batch is swept).
struct SweepPlan {
  std::size_t points = 0;
  Scenario first;         // the grid's first point
  std::size_t valid = 0;  // the first valid point's index
  GridColumns columns;
  Plan plan;  // judged at every row when `verdict`
  bool verdict = false;
};
SweepPlan plan_sweep(const Scenario& base, const SweepRequest& request);
// The defaults that decide a point's answer (none when the model refuses it).
std::vector<Assumption> point_assumptions(const Scenario& point);

// A point judged by the plan, or nothing when a requirement needs what the point lacks.
std::optional<PlanOutcome> judge_point(const Scenario& s, const Plan& plan);
// Counts the point's verdict into the summary, and ranks it when it passes (the earlier point first among equals).
void tally(SweepSummary& summary, std::size_t index, const std::vector<Axis>& axes, const SweepPoint& p);

// Points per chunk: one with simulation (each is a whole simulation), fewer when each is
// diagnosed (a diagnosis's words are allocated), so that the few chunks held at once stay far
// below the process's own footprint.
std::size_t sweep_chunk(const SweepRun& run);

// Calls row(index, point, text) for every point of the grid, on `run.jobs` threads: `text` is
// the chunk's, to append the point's rendering to. Then written(text, done) on the calling
// thread, chunk after chunk in the grid's order (`done`: the points written so far). The
// output is the same for any number of threads.
template <class Row, class Written>
SweepSummary run_sweep(const Scenario& base, const std::vector<Axis>& axes, const SweepRun& run, Row&& row,
                       Written&& written) {
  const std::size_t total = grid_size(axes);
  const std::size_t chunk = sweep_chunk(run);
  const std::size_t chunks = (total + chunk - 1) / chunk;
  SweepSummary summary;
  summary.points = total;
  std::mutex m;  // guards summary: taken at invalid points and judged ones
  // A memo of the fixes run for each thread at work, made before the first point: a chunk takes
  // one that is free and gives it back, so what one chunk ran serves the next.
  std::vector<std::unique_ptr<FixMemo>> memos;
  if (run.diagnose) {
    const std::vector<Field> varying = axis_fields(axes);
    for (unsigned t = 0; t < std::max(run.jobs, 1u); ++t) memos.push_back(std::make_unique<FixMemo>(varying));
  }
  std::mutex memos_m;
  const auto take_memo = [&]() -> std::unique_ptr<FixMemo> {
    std::lock_guard lock(memos_m);
    if (memos.empty()) return nullptr;
    auto memo = std::move(memos.back());
    memos.pop_back();
    return memo;
  };
  const auto give_memo = [&](std::unique_ptr<FixMemo> memo) {
    if (!memo) return;
    std::lock_guard lock(memos_m);
    memos.push_back(std::move(memo));
  };
  std::size_t done = 0;
  ordered_chunks(
      chunks, run.jobs,
      [&](std::size_t c, std::string& text) {
        std::unique_ptr<FixMemo> memo = take_memo();
        const std::size_t begin = c * chunk;
        std::size_t i = begin;
        sweep(
            base, axes, begin, std::min(total, begin + chunk), run.diagnose,
            [&](const SweepPoint& p) {
              if (!p.invalid.empty()) {
                std::lock_guard lock(m);
                if (summary.invalid++ == 0 || i < summary.first_invalid) {
                  summary.first_invalid = i;
                  summary.first_point = point_label(axes, p.scenario);
                  summary.first_reason = std::string(p.invalid);
                }
              }
              // Over a plan, a valid point is judged and counted before its row is written.
              std::optional<PlanOutcome> judged;
              if (run.plan != nullptr && p.invalid.empty()) judged = judge_point(p.scenario, *run.plan);
              SweepPoint q = p;
              if (judged) {
                q.outcome = &*judged;
                std::lock_guard lock(m);
                tally(summary, i, axes, q);
              }
              row(i++, q, text);
            },
            run.simulate, memo.get());
        give_memo(std::move(memo));
      },
      [&](const std::string& text) {
        done = std::min(total, done + chunk);
        written(text, done);
      });
  return summary;
}

}  // namespace pipesim
