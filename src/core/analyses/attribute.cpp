#include "core/analyses/attribute.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/base/units.hpp"
#include "core/stages/model.hpp"

namespace pipesim {

namespace {

constexpr std::array<CacheLevel, kCacheLevels> kLevels = {CacheLevel::Device, CacheLevel::Host, CacheLevel::Sample,
                                                          CacheLevel::Raw, CacheLevel::Full};

std::size_t index(CacheLevel l) { return static_cast<std::size_t>(l); }

std::string steps(double rate) { return fmt::format("{:.3g} steps/s", rate); }

void check(const CachingExperiments& e) {
  if (!(e.batch >= 1 && e.batch <= 1e9) || e.batch != std::floor(e.batch))
    throw Error(Origin::argument("--batch"),
                "the batch size of the experiments must be a whole number of samples, 1 to 1e9");
  if (!(e.workers >= 0 && e.workers <= 1e6) || e.workers != std::floor(e.workers))
    throw Error(Origin::argument("--workers"), "the DataLoader's num_workers must be a whole number, 0 to 1e6");
  for (CacheLevel l : {CacheLevel::Device, CacheLevel::Full})
    if (!e.rate(l))
      throw Error(Origin::argument(level_option(l)),
                  fmt::format("attribute needs {} (the rate with {}) and {}", level_option(CacheLevel::Device),
                              level_words(CacheLevel::Device), level_option(CacheLevel::Full)));
  for (CacheLevel l : kLevels)
    if (const auto r = e.rate(l); r && !(*r >= 1e-6 && *r <= 1e6))
      throw Error(Origin::argument(level_option(l)), "a measured rate must be between 1e-6 and 1e6 steps per second");
  if (e.other_workers || e.other_full) {
    if (!e.other_workers || !e.other_full || !(*e.other_full >= 1e-6 && *e.other_full <= 1e6))
      throw Error(Origin::argument("--full-at"),
                  "expected WORKERS=RATE, the rate between 1e-6 and 1e6 steps per second");
    if (!(*e.other_workers >= 1 && *e.other_workers <= 1e6) || *e.other_workers != std::floor(*e.other_workers) ||
        *e.other_workers == e.workers || e.workers < 1)
      throw Error(Origin::argument("--full-at"),
                  "the other worker count must be a whole number from 1 to 1e6 other than --workers, which must be "
                  "1 or more");
    // No count of workers makes the whole pipeline outrun its compute alone (the device-cached rate).
    if (const double device = *e.rate(CacheLevel::Device); *e.other_full > device * (1 + kSameRate))
      throw Error(Origin::argument("--full-at"),
                  fmt::format("{} steps/s at {} workers is faster than --device-cached ({} steps/s, the step's "
                              "compute alone): no pipeline outruns its compute; measure both again",
                              format_compact(*e.other_full, Dim::Number), format_compact(*e.other_workers, Dim::Number),
                              format_compact(device, Dim::Number)));
  }
}

// Where a loop row's time goes.
void add_loop_time(Attribution& a, const LevelCost& row) {
  switch (row.level) {
    case CacheLevel::Device:
      a.compute_s += row.added.low;
      break;
    case CacheLevel::Host:
      a.copy_s += row.added.low;
      break;
    case CacheLevel::Sample:
      a.receive_s += row.added.low;
      break;
    case CacheLevel::Raw:
    case CacheLevel::Full:
      break;
  }
}

void note_rise(Attribution& a, const LevelCost& row, CacheLevel below, double below_rate) {
  if (row.measured_steps_per_s <= below_rate * (1 + kSameRate)) return;
  a.notes.push_back(
      fmt::format("{} ({}) is faster than {} ({}), though it adds a stage: read as adding nothing; measure both again "
                  "(a warm-up left in, a clock boost, another job)",
                  level_key(row.level), steps(row.measured_steps_per_s), level_key(below), steps(below_rate)));
}

}  // namespace

std::string_view level_key(CacheLevel l) {
  switch (l) {
    case CacheLevel::Device:
      return "device_cached";
    case CacheLevel::Host:
      return "host_cached";
    case CacheLevel::Sample:
      return "sample_cached";
    case CacheLevel::Raw:
      return "raw_cached";
    case CacheLevel::Full:
      break;
  }
  return "full";
}

std::string level_option(CacheLevel l) {
  std::string o = "--" + std::string(level_key(l));
  std::replace(o.begin(), o.end(), '_', '-');
  return o;
}

std::string_view level_words(CacheLevel l) {
  switch (l) {
    case CacheLevel::Device:
      return "one batch cached on the device";
    case CacheLevel::Host:
      return "one batch cached on the host, copied each step";
    case CacheLevel::Sample:
      return "the loader over one transformed sample";
    case CacheLevel::Raw:
      return "the loader over one raw sample, transformed each time";
    case CacheLevel::Full:
      break;
  }
  return "the full pipeline";
}

std::string_view added_stage_key(CacheLevel l) {
  switch (l) {
    case CacheLevel::Device:
      return "compute";
    case CacheLevel::Host:
      return "copy";
    case CacheLevel::Sample:
      return "receive";
    case CacheLevel::Raw:
      return "transform";
    case CacheLevel::Full:
      break;
  }
  return "load";
}

std::string_view evidence_key(WorkerEvidence e) {
  switch (e) {
    case WorkerEvidence::None:
      return "none";
    case WorkerEvidence::Slack:
      return "slack";
    case WorkerEvidence::Moves:
      return "moves";
    case WorkerEvidence::Partial:
      return "partial";
    case WorkerEvidence::Falls:
      break;
  }
  return "falls";
}

bool in_loop(CacheLevel l, double workers) { return workers < 1 || index(l) <= index(CacheLevel::Sample); }

double parse_step_rate(std::string_view text, double batch) {
  std::string_view t = text;
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  for (std::string_view unit : {"steps/s", "step/s", "it/s"}) {
    if (t.size() > unit.size() && t.substr(t.size() - unit.size()) == unit) {
      const Quantity q = parse_quantity_as(t.substr(0, t.size() - unit.size()), dims(Dim::Number));
      return q.value;
    }
  }
  try {
    const Quantity q = parse_quantity_as(t, Dim::Number | Dim::SampleRate);
    return q.dim == Dim::SampleRate ? q.value / batch : q.value;
  } catch (const Error&) {
    throw Error(fmt::format("expected a rate such as \"3.45 steps/s\", \"3.45 it/s\" or \"880 samples/s\", got \"{}\"",
                            echo(text)));
  }
}

namespace {

Cost per_sample(const Cost& c, double batch) { return {c.low / batch, c.high / batch}; }

// Each measured level's cost, from the fastest (device_cached) to the full pipeline: loop stages
// add their time to the step, worker stages are seen only when the workers set the step.
void level_costs(const CachingExperiments& e, Attribution& a) {
  const double W = e.workers;
  double loop_step = 0;  // the loop's own chain so far (compute + copy + receive)
  double step = 0;       // the measured step of the level below, raised to the loop's chain
  Cost worker{0, 0};     // one worker's time per batch so far (with no workers: the main process's)
  std::optional<CacheLevel> below;
  for (CacheLevel l : kLevels) {
    const auto rate = e.rate(l);
    if (!rate) continue;
    LevelCost row;
    row.level = l;
    row.first = below ? kLevels[index(*below) + 1] : l;
    row.measured_steps_per_s = *rate;
    row.step_s = 1 / *rate;
    row.in_loop = in_loop(l, W);
    if (below) note_rise(a, row, *below, *e.rate(*below));
    if (row.in_loop) {
      // In the loop each stage adds its time to the step.
      const double added = std::max(0.0, row.step_s - step);
      row.added = {added, added};
      step += added;
      if (index(l) <= index(CacheLevel::Sample)) {
        add_loop_time(a, row);
        loop_step = step;
      } else {
        worker = {worker.low + added, worker.high + added};
      }
    } else {
      // In W workers: seen only when they set the step, and then one worker's batch takes W steps.
      Cost now = worker;
      row.workers_bind = row.step_s > loop_step * (1 + kSameRate);
      if (row.workers_bind) {
        const double t = W * row.step_s;
        if (t < worker.low) {
          a.notes.push_back(
              fmt::format("{} is faster than the level below it while the workers set both: read as "
                          "adding nothing",
                          level_key(l)));
        }
        now = {std::max(t, worker.low), std::max(t, worker.low)};
      } else {
        now = {worker.low, std::max(worker.low, W * loop_step)};
      }
      row.added = {std::max(0.0, now.low - worker.high), now.high - worker.low};
      worker = now;
      step = std::max(step, row.step_s);
    }
    row.worker_batch = worker;
    row.added_per_sample = per_sample(row.added, e.batch);
    a.levels.push_back(row);
    below = l;
  }
  a.loop_step_s = loop_step;
  a.worker_batch = worker;
  a.worker_per_sample = per_sample(worker, e.batch);
  a.workers_bind = a.levels.back().workers_bind;
  // Over the step as read: a level measured faster than the one below it adds nothing.
  a.utilization = a.compute_s / step;
  a.worker_budget_s = W * loop_step;
  if (a.workers_bind) a.workers_needed = std::ceil(worker.low / loop_step);
}

// What the full pipeline at another worker count says: did the workers bind at this one?
void worker_evidence(const CachingExperiments& e, Attribution& a) {
  const double W = e.workers;
  if (e.other_full && e.other_workers) {
    // The rate at the other count against this one's. More workers running faster (beyond the
    // noise) says the workers bound at this count. Fewer running slower says they bind at that
    // count; at this one only when this rate followed the count, at least half of the way from
    // that rate to its proportion (W / other x that rate): less, and something else caps it here.
    const double full = *e.rate(CacheLevel::Full);
    const double other = *e.other_full;
    const double ratio = other / full;
    const bool more = *e.other_workers > W;
    a.proportional_steps_per_s = full * *e.other_workers / W;
    // More workers running slower, or fewer faster (beyond the noise): past some count the node
    // loses with more, what the CPUs the workers share with each other and the training process cost.
    if (more ? ratio < 1 - kSameRate : ratio > 1 + kSameRate)
      a.evidence = WorkerEvidence::Falls;
    else if (more)
      a.evidence = ratio > 1 + kSameRate ? WorkerEvidence::Moves : WorkerEvidence::Slack;
    else if (ratio > 1 - kSameRate)
      a.evidence = WorkerEvidence::Slack;
    else
      a.evidence = full - other >= 0.5 * (other * W / *e.other_workers - other) ? WorkerEvidence::Moves
                                                                                : WorkerEvidence::Partial;
  }
}

// What the levels not measured leave untold.
void missing_level_notes(const CachingExperiments& e, Attribution& a) {
  const double W = e.workers;
  if (!e.rate(CacheLevel::Host) && e.rate(CacheLevel::Sample))
    a.notes.emplace_back(
        "without --host-cached the copy to the device is not told apart from taking batches from the workers: "
        "both are in pipeline.receive_time");
  if (!e.rate(CacheLevel::Sample) && W >= 1)
    a.notes.emplace_back(
        "without --sample-cached the loop's time to take a batch from the workers is not measured: "
        "pipeline.receive_time is left out (0 s)");
  if (!e.rate(CacheLevel::Raw))
    a.notes.emplace_back(
        "without --raw-cached the transform is not told apart from loading: both are in the "
        "workers' time per batch");
}

}  // namespace

Attribution attribute(const CachingExperiments& e) {
  check(e);
  Attribution a;
  a.in = e;
  level_costs(e, a);
  worker_evidence(e, a);
  missing_level_notes(e, a);

  // What pipesim's model gives for each measured level: the attributed scenario up to it.
  for (LevelCost& row : a.levels) {
    Scenario s = attributed_scenario(a, row.level);
    // No figure read here depends on the stored sample size (the transform is a time per sample,
    // storage is not modelled and the copy is in device bytes), but every scenario needs one.
    if (!s.has(Field::SampleSize)) s.set(Field::SampleSize, Quantity{1, Dim::Size});
    row.model_steps_per_s = 1 / evaluate(resolve(s)).step_s;
  }
  return a;
}

namespace {

// Whether pipesim reads back a figure of this magnitude (1e-21 to 1e21 in base units).
bool inputs_accept(double v) { return v >= kMinMagnitude && v <= kMaxMagnitude; }

}  // namespace

Scenario attributed_scenario(const Attribution& a, CacheLevel upto) {
  const CachingExperiments& e = a.in;
  const double B = e.batch;
  Scenario s;
  s.set(Field::BatchSize, B);
  s.set(Field::Workers, e.workers);
  s.set(Field::MeasuredPerSample, Quantity{a.compute_s / B, Dim::Duration});
  if (e.sample_bytes) s.set(Field::SampleSize, Quantity{*e.sample_bytes, Dim::Size});

  const LevelCost* top = nullptr;
  for (const LevelCost& row : a.levels)
    if (index(row.level) <= index(upto)) top = &row;

  double loop_overhead = 0;
  const bool with_copy = index(upto) >= index(CacheLevel::Host) && a.copy_s > 0;
  if (with_copy && e.device_sample_bytes) {
    // A copy too quick to tell from the rates' rounding (a bandwidth past 1e21 B/s) gives no
    // link figure, which pipesim would refuse to read back: the copy is then not modelled.
    const double bandwidth = B * *e.device_sample_bytes / a.copy_s;
    if (inputs_accept(bandwidth)) {
      s.set(Field::DeviceSampleSize, Quantity{*e.device_sample_bytes, Dim::Size});
      s.set(Field::LinkBandwidth, Quantity{bandwidth, Dim::Rate});
      s.set(Field::PageableBandwidth, Quantity{bandwidth, Dim::Rate});
      s.set(Field::LinkPinned, Quantity{0, Dim::Bool});
    }
  } else if (with_copy) {
    loop_overhead += a.copy_s;
  }
  if (index(upto) >= index(CacheLevel::Sample) && a.receive_s > 0) {
    if (e.workers >= 1) {
      if (inputs_accept(a.receive_s)) s.set(Field::ReceiveTime, Quantity{a.receive_s, Dim::Duration});
    } else {
      loop_overhead += a.receive_s;
    }
  }
  // Times below the accepted range (1e-21 s) are no cost measured: not written.
  if (inputs_accept(loop_overhead)) s.set(Field::LoopOverhead, Quantity{loop_overhead, Dim::Duration});
  if (top && top->worker_batch.exact() && inputs_accept(top->worker_batch.low / B))
    s.set(Field::TransformCost, Quantity{top->worker_batch.low / B, Dim::Duration});
  return s;
}

}  // namespace pipesim
