#include "report/attribution.hpp"

#include <fmt/format.h>

#include "core/base/text.hpp"
#include "core/base/units.hpp"
#include "core/stages/stage.hpp"
#include "report/json_writer.hpp"
#include "report/out.hpp"
#include "report/text_table.hpp"

#ifndef PIPESIM_VERSION
#define PIPESIM_VERSION "dev"
#endif

namespace pipesim {

namespace {

std::string time(double s) { return format_human(s, Dim::Duration); }
std::string rate(double r) { return fmt::format("{:.3g} steps/s", r); }

// "2.326 s", "at most 1.238 s", "1.887 s to 3.125 s".
std::string cost(const Cost& c) {
  if (c.exact()) return time(c.low);
  if (c.low == 0) return "at most " + time(c.high);
  return fmt::format("{} to {}", time(c.low), time(c.high));
}

// The stages a row adds: "copy", or "copy + receive" when a level in between was not measured.
std::string stages(const LevelCost& row) {
  std::string out;
  for (auto l = static_cast<std::size_t>(row.first); l <= static_cast<std::size_t>(row.level); ++l)
    out += (out.empty() ? "" : " + ") + std::string(added_stage_key(static_cast<CacheLevel>(l)));
  return out;
}

std::string workers_text(double w) { return fmt::format("{:g} worker{}", w, w == 1 ? "" : "s"); }

// More workers ran slower (or fewer faster): the count past which the node loses.
std::string falls_text(const Attribution& a, double full_steps_per_s) {
  const double other = *a.in.other_workers;
  const bool more = other > a.in.workers;
  return fmt::format(
      "With {} the full pipeline ran {:.3g} steps/s, {} than {:.3g} here: past some count the node loses with more "
      "workers (the CPUs they share with each other and the training process), so of the two counts {} is the "
      "better.\n",
      workers_text(other), *a.in.other_full, more ? "slower" : "faster", full_steps_per_s,
      workers_text(more ? a.in.workers : other));
}

// The binding stage and what moves it, in words (one paragraph per line, wrapped later).
std::string verdict(const Attribution& a) {
  const double W = a.in.workers;
  const LevelCost& full = a.levels.back();
  if (a.workers_bind) {
    std::string parts;
    for (const LevelCost& r : a.levels)
      if (!r.in_loop) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", stages(r), cost(r.added));
    std::string evidence;
    if (a.evidence == WorkerEvidence::Moves)
      evidence = fmt::format(
          "With {} the full pipeline ran {:.3g} steps/s, and {:.3g} here follows the count: the workers bind.\n",
          workers_text(*a.in.other_workers), *a.in.other_full, full.measured_steps_per_s);
    else if (a.evidence == WorkerEvidence::Partial)
      evidence = fmt::format(
          "With {} the full pipeline ran {:.3g} steps/s, and {:.3g} here follows the count only in part (in "
          "proportion {} would run {:.3g}): the CPUs they share with the training process, or the loop near its "
          "limit, take the rest.\n",
          workers_text(*a.in.other_workers), *a.in.other_full, full.measured_steps_per_s,
          workers_text(*a.in.other_workers), a.proportional_steps_per_s);
    else if (a.evidence == WorkerEvidence::Falls)
      evidence = falls_text(a, full.measured_steps_per_s);
    else if (a.evidence == WorkerEvidence::Slack)
      evidence = fmt::format(
          "But with {} the full pipeline ran {:.3g} steps/s, as fast: the count does not move the rate, so what sets "
          "it is not how many workers there are (the training process, or the CPUs they share).\n",
          workers_text(*a.in.other_workers), *a.in.other_full);
    return evidence +
           fmt::format(
               "The workers bind: one worker takes {} per batch ({}), so {} {} a batch every {} while the "
               "training loop needs {}. The accelerator computes {:.1f}% of the time.\n"
               "To keep up, one worker's batch must take at most {} ({:g} x the loop's {}), or the node needs {} of "
               "this speed if it has the CPUs for them (the times were measured with {} sharing this node).\n",
               time(a.worker_batch.low), parts, workers_text(W), W == 1 ? "delivers" : "deliver", time(full.step_s),
               time(a.loop_step_s), 100 * a.utilization, time(a.worker_budget_s), W, time(a.loop_step_s),
               workers_text(*a.workers_needed), workers_text(W));
  }
  std::string t = fmt::format(
      "The training loop binds: compute {}, copy {} and receiving the batch {} per step. The accelerator "
      "computes {:.1f}% of the time; the rest is the loop's own work.\n",
      time(a.compute_s), time(a.copy_s), time(a.receive_s), 100 * a.utilization);
  if (W < 1) return t;
  const std::string other = a.in.other_workers ? workers_text(*a.in.other_workers) : std::string();
  switch (a.evidence) {
    case WorkerEvidence::None:
      t += fmt::format(
          "The workers keep up by these rates (one worker's batch takes {}), but one count of workers does not "
          "show it: run the full pipeline with another count (--full-at) before taking them off the list.\n",
          cost(a.worker_batch));
      break;
    case WorkerEvidence::Slack:
      t += fmt::format(
          "The workers keep up (one worker's batch takes {}): with {} the full pipeline ran {:.3g} steps/s against "
          "{:.3g} here, so their count is not what to change.\n",
          cost(a.worker_batch), other, *a.in.other_full, full.measured_steps_per_s);
      break;
    case WorkerEvidence::Moves:
      t += fmt::format(
          "But the workers' count moves the rate: with {} the full pipeline ran {:.3g} steps/s against {:.3g} "
          "here (in proportion {:.3g}), so the workers bind with the loop and more of them, or cheaper samples, "
          "still help.\n",
          other, *a.in.other_full, full.measured_steps_per_s, a.proportional_steps_per_s);
      break;
    case WorkerEvidence::Falls:
      t += falls_text(a, full.measured_steps_per_s);
      break;
    case WorkerEvidence::Partial:
      t += fmt::format(
          "With {} the full pipeline ran {:.3g} steps/s against {:.3g} here (in proportion {:.3g}): fewer "
          "workers bind, this many are near the balance with the loop, so a few more help little and a faster "
          "loop helps more.\n",
          other, *a.in.other_full, full.measured_steps_per_s, a.proportional_steps_per_s);
      break;
  }
  return t;
}

std::string fragment_header(const Attribution& a) {
  std::string t = fmt::format(
      "# pipesim attribute caching: stage costs from the caching experiments (pipesim {}), batch {:g}, {}.\n"
      "# Measured by the user, in steps/s:\n",
      PIPESIM_VERSION, a.in.batch, workers_text(a.in.workers));
  for (const LevelCost& r : a.levels)
    t += fmt::format("#   {:<14} {:>6.3g}  ({})\n", level_key(r.level), r.measured_steps_per_s, level_words(r.level));
  t += "# pipesim attribute shows, beside each rate, the rate pipesim's model gives with these keys.\n";
  t += "# Assumed: compute grows in proportion to the batch (one batch size was measured); the\n";
  t += "# workers' time per batch includes building the batch and was measured with this node's\n";
  t += "# CPUs shared as they were, so it holds for this node and this many workers.\n";
  if (a.in.workers >= 1 && !a.worker_batch.exact())
    t += fmt::format(
        "# workload.transform_cost is left out: the workers kept up, so only its bound is known:\n"
        "# one worker's batch takes {} ({} per sample).\n",
        cost(a.worker_batch), cost(a.worker_per_sample));
  if (!a.in.sample_bytes)
    t += "# Not measured by these experiments: workload.sample_size (bytes stored per sample). Add it\n"
         "# (or --sample-size) before diagnosing with this file.\n";
  for (const std::string& n : a.notes) t += "# Note: " + n + ".\n";
  return t;
}

const LevelCost* find(const Attribution& a, CacheLevel l) {
  for (const LevelCost& r : a.levels)
    if (r.level == l) return &r;
  return nullptr;
}

std::string field_comment(const Attribution& a, Field f) {
  const double B = a.in.batch;
  const double W = a.in.workers;
  switch (f) {
    case Field::MeasuredPerSample:
      return fmt::format("device_cached step {} / {:g}", time(a.compute_s), B);
    case Field::LinkBandwidth:
    case Field::PageableBandwidth:
      return fmt::format("the copy host_cached added ({}), not the link's pinned peak", time(a.copy_s));
    case Field::LinkPinned:
      return "the copy runs in the loop before compute, as host_cached measured it";
    case Field::ReceiveTime:
      return fmt::format("{}: taking each batch from the workers",
                         find(a, CacheLevel::Host) ? "sample_cached - host_cached" : "sample_cached - device_cached");
    case Field::LoopOverhead:
      return W >= 1 ? "host_cached - device_cached: the copy to the device, in the loop"
                    : "the loop's own time: the copy and the loader's batch, in turn";
    case Field::TransformCost: {
      if (W < 1) return "the main process's time per sample: transform and load, in turn";
      std::string parts;
      for (const LevelCost& r : a.levels)
        if (!r.in_loop) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", stages(r), cost(r.added_per_sample));
      return fmt::format("{:g} x full step / {:g}: one worker's time per sample ({})", W, B, parts);
    }
    default:
      return "";
  }
}

}  // namespace

std::string toml_value(const FieldSpec& f, double v, Dim dim, int d) {
  if (dim == Dim::Bool) return v != 0 ? "true" : "false";
  if (dim == Dim::Choice) return fmt::format("\"{}\"", f.choices[static_cast<std::size_t>(v)]);
  if (dim == Dim::Money || dim == Dim::MoneyRate)  // "$1.01/h" would round the price
    return fmt::format("\"{} USD{}\"", d > 0 ? fmt::format("{:.{}g}", v, d) : fmt::format("{}", v),
                       dim == Dim::MoneyRate ? "/h" : "");
  if (dim == Dim::Number) return format_exact(v, Dim::Number);
  return fmt::format("\"{}\"", d > 0 ? format_significant(v, dim, d) : format_exact(v, dim));
}

std::string scenario_toml(const Scenario& s, const std::function<std::string(Field)>& comment,
                          const std::function<int(Field)>& digits) {
  std::string t;
  std::string table;
  // The step measured at several batch sizes closes the [model] table (opening it if no other
  // model key is set).
  bool steps_written = s.step_points().empty();
  const auto write_steps = [&] {
    if (steps_written) return;
    if (table != "model") t += fmt::format("{}[model]\n", t.empty() ? "" : "\n");
    std::string points;
    for (const StepPoint& p : s.step_points().points())
      points +=
          fmt::format("{}{:g} = \"{}\"", points.empty() ? "" : ", ", p.batch, format_exact(p.seconds, Dim::Duration));
    t += fmt::format("measured_steps = {{ {} }}\n", points);
    steps_written = true;
  };
  for (const FieldSpec& f : all_fields()) {
    if (!s.has(f.field)) continue;
    const std::string_view key = f.key;
    const std::size_t dot = key.find('.');
    const std::string_view this_table = key.substr(0, dot);
    if (this_table != table) {
      if (table == "model") write_steps();
      t += fmt::format("{}[{}]\n", t.empty() ? "" : "\n", this_table);
      table = this_table;
    }
    const std::string value = toml_value(f, s.get(f.field), s.dim(f.field), digits(f.field));
    const std::string line = fmt::format("{} = {}", key.substr(dot + 1), value);
    const std::string note = comment(f.field);
    t += note.empty() ? line + "\n" : fmt::format("{:<32} # {}\n", line, note);
  }
  write_steps();
  return t;
}

std::string attribution_table(const Attribution& a) {
  const double B = a.in.batch;
  std::string text;
  {
    Out o(text);
    o.write(fmt::format("Caching experiments at batch {:g} with {}:\n\n", B, workers_text(a.in.workers)));
    TextTable table({{"level"},
                     {"measured", true},
                     {"step", true},
                     {"adds"},
                     {"cost per batch", true},
                     {"per sample", true},
                     {"model", true}},
                    false, "  ");
    for (const LevelCost& r : a.levels) {
      const bool worker = !r.in_loop;
      table.add({std::string(level_key(r.level)), rate(r.measured_steps_per_s), time(r.step_s), stages(r),
                 cost(r.added) + (worker ? " per worker" : ""), cost(r.added_per_sample), rate(r.model_steps_per_s)});
    }
    table.render(o);
    o.write(
        "\n  In the loop a stage adds its time to every step; in the workers it is one worker's time per\n"
        "  batch, seen only when the workers set the step (then it is workers x step). \"model\" is\n"
        "  pipesim's rate for the keys below.\n\n");
    o.write(wrap(verdict(a), 100));
    for (const std::string& n : a.notes) o.write(wrap("Note: " + n + ".\n", 100));
    o.write("\nScenario keys (--format toml writes them alone, with how they were obtained):\n\n");
    o.write(scenario_toml(
        attributed_scenario(a, CacheLevel::Full), [](Field) { return std::string(); }, [](Field) { return 7; }));
  }
  return text;
}

std::string attribution_toml(const Attribution& a) {
  return fragment_header(a) + "\n" +
         scenario_toml(
             attributed_scenario(a, CacheLevel::Full), [&](Field f) { return field_comment(a, f); },
             [](Field) { return 7; });
}

std::string attribution_json(const Attribution& a) {
  std::string text;
  {
    Out o(text);
    JsonWriter j(o);
    const auto cost_json = [&](std::string_view k, const Cost& c) {
      j.key(k).object().kv("low_s", c.low).kv("high_s", c.high).kv_bool("exact", c.exact()).end();
    };
    j.object().kv_str("attribute", "caching").stamp();
    j.kv("batch_size", a.in.batch).kv("workers", a.in.workers);
    j.key("levels").array(true);
    for (const LevelCost& r : a.levels) {
      j.object().kv_str("level", level_key(r.level)).kv_str("adds", stages(r));
      j.kv("measured_steps_per_s", r.measured_steps_per_s).kv("step_s", r.step_s);
      j.kv_bool("in_loop", r.in_loop).kv_bool("workers_bind", r.workers_bind);
      cost_json("added_per_batch", r.added);
      j.kv("model_steps_per_s", r.model_steps_per_s).end();
    }
    j.end();
    j.kv("compute_s", a.compute_s).kv("copy_s", a.copy_s).kv("receive_s", a.receive_s);
    j.kv("loop_step_s", a.loop_step_s);
    cost_json("worker_batch", a.worker_batch);
    j.kv_str("binding", a.workers_bind ? "workers" : "loop").kv("utilization", a.utilization);
    if (a.in.other_workers) {
      j.key("other_count").object();
      j.kv("workers", *a.in.other_workers).kv("full_steps_per_s", *a.in.other_full);
      j.kv("proportional_steps_per_s", a.proportional_steps_per_s);
      j.kv_str("evidence", evidence_key(a.evidence));
      j.end();
    }
    j.kv("worker_budget_s", a.worker_budget_s);
    if (a.workers_needed) j.kv("workers_needed", *a.workers_needed);
    j.key("notes").array();
    for (const std::string& n : a.notes) j.str(n);
    j.end();
    const Scenario s = attributed_scenario(a, CacheLevel::Full);
    j.key("scenario").object();
    for (const FieldSpec& f : all_fields())
      if (s.has(f.field)) j.kv(f.key, s.get(f.field));
    j.end();
    j.end().finish();
  }
  return text;
}

namespace {

std::string value_text(const Quantity& q) { return format_human(q.value, q.dim); }

// "cpu.worker_throughput = 544.99 MB/s" and, when only bounded, which way.
std::string solved_words(const Solution& sol) {
  const std::string_view key = spec(sol.field).key;
  if (sol.exact) return fmt::format("{} = {}", key, value_text(sol.value));
  const bool time = sol.value.dim == Dim::Duration;
  return fmt::format("{} {} {}", key, time ? "<=" : ">=", value_text(sol.value));
}

std::string after_words(const LoadedScenario& loaded, const Solution& sol) {
  const Result& r = sol.result;
  std::string binds;
  for (Stage st : kStages)
    if (r.binds(st)) binds += (binds.empty() ? "" : " and ") + std::string(stage_name(st));
  const auto said = [&](Observed kind) {
    return observation_text(kind, observed_figure(r, loaded.scenario.get(Field::BatchSize), kind));
  };
  return fmt::format("With it, pipesim diagnose gives {}, {} and {} ({} binding).", said(Observed::StepsPerS),
                     said(Observed::SamplesPerS), said(Observed::Utilization), binds.empty() ? "nothing" : binds);
}

// The observations in words: "utilization 40.0%" or "utilization 45.0% and 700 samples/s".
// `item(i)` for each observation i, as said: "a", "a and b", "a, b and c".
template <class Item>
std::string each_observation(const JointSolution& j, const Item& item) {
  std::string out;
  for (std::size_t i = 0; i < j.observed.size(); ++i)
    out += (i == 0 ? "" : i + 1 == j.observed.size() ? " and " : ", ") + item(i);
  return out;
}

std::string observations_text(const JointSolution& j) {
  return each_observation(j, [&](std::size_t i) { return observation_text(j.observed[i]); });
}

bool any_utilization(const JointSolution& j) {
  return std::any_of(j.observed.begin(), j.observed.end(),
                     [](const Observation& o) { return o.kind == Observed::Utilization; });
}

// What utilization means here, beside an observed utilization.
constexpr std::string_view kUtilizationMeaning =
    "Utilization here is the accelerator's compute over the step; nvidia-smi's GPU-Util is the share of time in "
    "which at least one kernel runs, however little of the GPU it occupies, the data's kernels included, and reads "
    "higher: solve from the samples/s your training loop prints where you can.\n";

std::string solution_header(const LoadedScenario& loaded, const JointSolution& j) {
  const Solution& sol = j.fit;
  const std::string had =
      sol.previous && sol.previous_field
          ? fmt::format(" (the scenario had {} = {})", spec(*sol.previous_field).key, value_text(*sol.previous))
          : "";
  std::string t;
  if (j.observed.size() == 1) {
    t = fmt::format("Solved {} from the observed {}{}.\n", solved_words(sol), observation_text(j.observed[0]), had);
  } else {
    t = fmt::format(
        "Solved {}{} from the observed {}: the value that fits them together (the least sum of squared logs of the "
        "model's figure over the observed one). Alone, {}: {:.2f}x apart. {}. At the fitted value the model gives "
        "{}.\n",
        solved_words(sol), had, observations_text(j),
        each_observation(j,
                         [&](std::size_t i) {
                           return fmt::format("{} gives {}", observation_text(j.observed[i]),
                                              value_text(j.each[i].value));
                         }),
        j.spread,
        j.spread <= kAgreeWithin ? "They agree"
                                 : "They disagree: in this scenario they cannot all hold, so one of them, or a key of "
                                   "the scenario, is not what the run had",
        each_observation(j, [&](std::size_t i) {
          const Observation& o = j.observed[i];
          const std::string seen =
              o.kind == Observed::Utilization ? fmt::format("{:.1f}%", 100 * o.value) : observation_text(o);
          return fmt::format("{} (observed {})", observation_text(o.kind, j.fitted[i], o.scope), seen);
        }));
  }
  if (!sol.exact)
    t += fmt::format(
        "The observation is the most this scenario reaches: {} does not bind there, so this is only the {} "
        "value that gives it; measure it directly (pipesim calibrate) to know more.\n",
        spec(sol.field).key, sol.value.dim == Dim::Duration ? "largest" : "smallest");
  if (any_utilization(j)) t += kUtilizationMeaning;
  return t + after_words(loaded, sol) + "\n";
}

std::string solved_scenario_toml(const LoadedScenario& loaded, const JointSolution& j, bool origins) {
  // The scenario's own values exactly; the solved one to 7 significant digits (the bisection's
  // last digits are noise).
  const Solution& sol = j.fit;
  return scenario_toml(
      sol.scenario,
      [&](Field f) -> std::string {
        if (f == sol.field)
          return fmt::format("{} the observed {}", j.observed.size() == 1 ? "solved from" : "fitted to",
                             observations_text(j));
        if (!origins) return "";
        const std::string where = loaded.origins[static_cast<std::size_t>(f)].str();
        return where.empty() ? "" : "from " + where;
      },
      [&](Field f) { return f == sol.field ? 7 : 0; });
}

}  // namespace

namespace {

// `text` as a TOML basic string, quotes included: valid UTF-8 with '"', '\\' and control
// characters escaped, so that pipesim reads it back as it was.
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : valid_utf8(text)) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\')
      out += {'\\', c};
    else if (u < 0x20 || u == 0x7f)
      out += fmt::format("\\u{:04X}", u);
    else
      out += c;
  }
  return out + "\"";
}

}  // namespace

std::string solution_table(const LoadedScenario& loaded, const JointSolution& j) {
  return wrap(solution_header(loaded, j), 100) +
         "\nThe scenario with it filled in (--format toml writes it alone, with where each key came from):\n\n" +
         solved_scenario_toml(loaded, j, false);
}

// What the scenario's preset figures were measured for, as [measured_for] tables, so that the
// written scenario is judged as the one it came from; the solved field is this scenario's own.
std::string measured_for_toml(const std::vector<MeasuredFor>& all, const Solution& sol) {
  std::string t;
  for (const MeasuredFor& m : all) {
    if (m.figure == sol.field || !sol.scenario.has(m.figure)) continue;
    t += fmt::format("\n[measured_for.\"{}\"]  # measured by {}\n", spec(m.figure).key, m.preset);
    for (const auto& [field, v] : m.context) {
      const FieldSpec& f = spec(field);
      t += fmt::format("\"{}\" = {}\n", f.key, toml_value(f, v, first_dim(f)));
    }
  }
  return t;
}

std::string solution_toml(const LoadedScenario& loaded, const JointSolution& j) {
  return solved_toml(loaded, j,
                     fmt::format("pipesim attribute observed (pipesim {}): {} with one field solved.", PIPESIM_VERSION,
                                 echo(loaded.name)));
}

std::string solved_toml(const LoadedScenario& loaded, const JointSolution& j, std::string_view heading) {
  std::string t = fmt::format("# {}\n", heading);
  t += commented(wrap(solution_header(loaded, j), 96));
  return t + fmt::format("\nname = {}\n\n", toml_string(loaded.name)) + solved_scenario_toml(loaded, j, true) +
         measured_for_toml(loaded.plan.measured_for, j.fit);
}

std::string solution_json(const LoadedScenario& loaded, const JointSolution& joint) {
  const Solution& sol = joint.fit;
  std::string text;
  {
    Out out(text);
    JsonWriter j(out);
    constexpr std::array<std::string_view, 3> kinds = {"utilization", "steps_per_s", "samples_per_s"};
    constexpr std::array<std::string_view, 3> scopes = {"accelerator", "node", "cluster"};
    const auto observation = [&](const Observation& o) {
      j.object().kv_str("kind", kinds[static_cast<std::size_t>(o.kind)]).kv("value", o.value);
      if (o.scope != Scope::Accelerator) j.kv_str("scope", scopes[static_cast<std::size_t>(o.scope)]);
    };
    j.object().kv_str("attribute", "observed").stamp();
    j.kv_str("scenario_name", valid_utf8(loaded.name));
    if (joint.observed.size() == 1) {
      j.key("observed");
      observation(joint.observed[0]);
      j.end();
    }
    // Each observation with the value it gives alone and the model's figure at the solved value.
    j.key("observations").array();
    for (std::size_t i = 0; i < joint.observed.size(); ++i) {
      observation(joint.observed[i]);
      j.kv("solved_alone", joint.each[i].value.value).kv("model", joint.fitted[i]).end();
    }
    j.end();
    j.kv("spread", joint.spread).kv_bool("agree", joint.spread <= kAgreeWithin);
    j.key("solved").object().kv_str("key", spec(sol.field).key).kv("value", sol.value.value);
    j.kv_bool("exact", sol.exact);
    if (sol.previous && sol.previous_field)
      j.kv_str("replaced_key", spec(*sol.previous_field).key).kv("replaced_value", sol.previous->value);
    j.end();
    const Result& r = sol.result;
    const double batch = loaded.scenario.get(Field::BatchSize);
    j.key("model").object().kv("steps_per_s", observed_figure(r, batch, Observed::StepsPerS));
    j.kv("samples_per_s", observed_figure(r, batch, Observed::SamplesPerS))
        .kv("utilization", observed_figure(r, batch, Observed::Utilization))
        .end();
    j.key("inputs").object();
    for (const FieldSpec& f : all_fields())
      if (sol.scenario.has(f.field)) j.kv(f.key, sol.scenario.get(f.field));
    j.end();
    j.end().finish();
  }
  return text;
}

namespace {

std::string_view log_format_name(StepLogFormat f) {
  switch (f) {
    case StepLogFormat::JsonLines:
      return "JSON lines";
    case StepLogFormat::Csv:
      return "CSV";
    case StepLogFormat::Text:
    case StepLogFormat::Auto:
      break;
  }
  return "text";
}

}  // namespace

std::string step_log_table(const std::string& path, const StepLog& log, const StepLogSummary& s) {
  std::string text;
  Out o(text);  // writes into `text` as it goes
  std::string intro = fmt::format("Per-step log {} ({}): {} record{} of data_time and time", echo(path),
                                  log_format_name(log.format), s.records, s.records == 1 ? "" : "s");
  if (s.left_out)
    intro +=
        s.left_out == 1
            ? std::string("; the first record left out as the loader's start (--skip 0 keeps it)")
            : fmt::format("; the first {} records left out as the loader's start (--skip 0 keeps them)", s.left_out);
  if (log.skipped) intro += fmt::format("; {} other record{} skipped", log.skipped, log.skipped == 1 ? "" : "s");
  o.write(wrap(intro + ".\n", 100) + "\n");
  TextTable table({{"per record"}, {"mean", true}, {"p50", true}, {"p95", true}, {"p99", true}, {"max", true}}, false,
                  "  ");
  const auto row = [&](std::string name, const Spread& d) {
    table.add({std::move(name), time(d.mean), time(d.p50), time(d.p95), time(d.p99), time(d.max)});
  };
  row("time", s.time);
  row("data_time", s.wait);
  table.render(o);
  std::string words;
  const std::string loader_samples =
      s.loader_samples_per_s ? fmt::format(" ({})", format_human(*s.loader_samples_per_s, Dim::SampleRate)) : "";
  if (s.input_bound) {
    words += fmt::format(
        "Input-bound: the loop waited for data {:.1f}% of the time, so the loader set the pace: it delivered {}{}.\n",
        100 * s.input_bound_fraction, rate(s.loader_steps_per_s), loader_samples);
  } else {
    words += fmt::format(
        "The loader keeps up: the loop waited for data {:.1f}% of the time (under {:.0f}%), so the loader delivers "
        "at least {}{}; the loop sets the pace.\n",
        100 * s.input_bound_fraction, 100 * kInputBound, rate(s.loader_steps_per_s), loader_samples);
  }
  words += fmt::format(
      "The loop's own step (time - data_time) is {} on average: never waiting, it would run {}. The accelerator "
      "is busy at most {:.1f}% of the time (its compute is part of the loop's step).\n",
      time(s.loop_step_s), rate(s.loop_steps_per_s), 100 * (1 - s.input_bound_fraction));
  if (s.input_bound)
    words += fmt::format(
        "To find the worker rate behind it, solve your scenario for it: pipesim attribute observed SCENARIO --observed "
        "\"{:.4g} it/s\".\n",
        s.loader_steps_per_s);
  o.write("\n" + wrap(words, 100));
  return text;
}

std::string step_log_json(const std::string& path, const StepLog& log, const StepLogSummary& s) {
  std::string text;
  {
    Out out(text);
    JsonWriter j(out);
    const auto spread_json = [&](std::string_view k, const Spread& d) {
      j.key(k).object().kv("mean", d.mean).kv("p50", d.p50).kv("p95", d.p95).kv("p99", d.p99).kv("max", d.max).end();
    };
    constexpr std::array<std::string_view, 4> formats = {"auto", "jsonl", "csv", "text"};
    j.object().kv_str("attribute", "log").stamp();
    j.kv_str("log", valid_utf8(path)).kv_str("format", formats[static_cast<std::size_t>(log.format)]);
    j.kv("records", static_cast<double>(s.records)).kv("left_out", static_cast<double>(s.left_out));
    j.kv("skipped", static_cast<double>(log.skipped));
    spread_json("time_s", s.time);
    spread_json("data_time_s", s.wait);
    j.kv("input_bound_fraction", s.input_bound_fraction).kv_bool("input_bound", s.input_bound);
    j.kv("loop_step_s", s.loop_step_s).kv("loop_steps_per_s", s.loop_steps_per_s);
    j.kv("loader_steps_per_s", s.loader_steps_per_s);
    if (s.loader_samples_per_s) j.kv("loader_samples_per_s", *s.loader_samples_per_s);
    j.end().finish();
  }
  return text;
}

}  // namespace pipesim
