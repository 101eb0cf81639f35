// What `pipesim attribute trace` prints: a profiler trace's steps, per rank and over the ranks.
#include <fmt/format.h>

#include "core/base/text.hpp"
#include "report/attribution.hpp"
#include "report/json_writer.hpp"
#include "report/out.hpp"
#include "report/text_table.hpp"
#include "report/words.hpp"

namespace pipesim {

namespace {

std::string verdict(const TraceSummary& s) {
  if (s.highly_input_bound)
    return fmt::format(
        "Highly input-bound: the loop waited for data {} of the time ({:.0f}% or more), so the loader set the pace.",
        percent(s.data_wait_fraction), 100 * kHighlyInputBound);
  if (s.input_bound)
    return fmt::format(
        "Input-bound: the loop waited for data {} of the time ({:.0f}% or more), so the loader set "
        "the pace.",
        percent(s.data_wait_fraction), 100 * kTraceInputBound);
  return fmt::format("The loader keeps up: the loop waited for data {} of the time (under {:.0f}%).",
                     percent(s.data_wait_fraction), 100 * kTraceInputBound);
}

}  // namespace

std::string trace_table(const TraceSummary& s) {
  std::string text;
  Out o(text);
  const bool device = s.busy_fraction.has_value();
  std::string intro =
      s.ranks.size() == 1
          ? fmt::format("Profiler trace {}: {} step{}", shown(s.ranks[0].path, false), s.steps, s.steps == 1 ? "" : "s")
          : fmt::format("Profiler traces of {} ranks: {} steps", s.ranks.size(), s.steps);
  intro += device ? " with the device's kernels."
                  : ", host events only (no kernels: the accelerator's busy time "
                    "is not in the trace).";
  o.write(wrap(intro, 100) + "\n\n");
  for (const RankSummary& r : s.ranks) {
    if (s.ranks.size() > 1) o.print("{}{}\n", shown(r.path, false), r.straggler ? " (straggler)" : "");
    std::vector<Column> columns = {{"step", true}, {"time", true}, {"data wait", true}, {"loop", true}};
    if (device) columns.insert(columns.end(), {{"busy", true}, {"h2d copies", true}, {"h2d bytes", true}});
    TextTable table(columns, false, "  ");
    for (const TraceStep& x : r.steps) {
      std::vector<std::string> row = {count(static_cast<double>(x.index + 1)), dur(x.step_s), dur(x.data_wait_s),
                                      dur(x.loop_s)};
      if (device) row.insert(row.end(), {dur(x.busy_s), dur(x.h2d_s), format_human(x.h2d_bytes, Dim::Size)});
      table.add(std::move(row));
    }
    table.render(o);
    o.write("\n");
  }
  TextTable totals({{"over the steps"}, {"mean", true}, {"p50", true}, {"p95", true}, {"max", true}}, false, "  ");
  totals.add({"step", dur(s.step.mean), dur(s.step.p50), dur(s.step.p95), dur(s.step.max)});
  totals.add({"data wait", dur(s.wait.mean), dur(s.wait.p50), dur(s.wait.p95), dur(s.wait.max)});
  totals.render(o);
  std::string words = fmt::format("\n{}\n", verdict(s));
  words +=
      fmt::format("The loop's own time is {} a step (its work and launches, the step less the wait)", dur(s.loop_s));
  words += device ? fmt::format("; the accelerator was busy {} of the time.\n", percent(*s.busy_fraction)) : ".\n";
  if (s.h2d_bytes_per_s) words += fmt::format("Host-to-device copies ran at {}.\n", rate(*s.h2d_bytes_per_s));
  if (s.steps_without_loader > 0)
    words += fmt::format("{} step{} took no batch from a DataLoader inside the step: {} wait counts as none.\n",
                         s.steps_without_loader, s.steps_without_loader == 1 ? "" : "s",
                         s.steps_without_loader == 1 ? "its" : "their");
  if (s.input_bound && s.steps_per_s > 0)
    words += fmt::format(
        "To see what moves the wall, write the scenario that reproduces the trace (--format toml --batch B, "
        "--scenario for your hardware) and pipesim diagnose it; the loader kept {:.4g} it/s.\n",
        s.steps_per_s);
  for (const RankSummary& r : s.ranks)
    if (r.straggler)
      words +=
          fmt::format("{} is a straggler: its steps took {} on average, more than {:.0f}% over the ranks' median.\n",
                      shown(r.path, false), dur(r.step_s), 100 * kStraggler);
  o.write(wrap(words, 100));
  return text;
}

std::string trace_toml(const TraceSummary& s, const LoadedScenario& loaded, const JointSolution& j) {
  const std::string compute =
      s.busy_fraction ? "the device's busy time a step" : "the loop's own time a step (the trace has no kernels)";
  return solved_toml(
      loaded, j,
      fmt::format("pipesim attribute trace (pipesim {}): {} reproducing {} step{} of {}: the compute from {}, the "
                  "loop's time beside it, {}and the worker rate solved for the pace the loader kept.",
                  PIPESIM_VERSION, echo(loaded.name), s.steps, s.steps == 1 ? "" : "s",
                  s.ranks.size() == 1 ? shown(s.ranks[0].path, false) : fmt::format("{} ranks", s.ranks.size()),
                  compute, s.h2d_bytes_per_s ? "the link from the copies' rate, " : ""));
}

std::string trace_json(const TraceSummary& s) {
  std::string text;
  {
    Out out(text);
    JsonWriter j(out);
    const auto optional = [&](std::string_view k, const std::optional<double>& v) {
      if (v)
        j.kv(k, *v);
      else
        j.key(k).null();
    };
    j.object().kv_str("attribute", "trace").stamp();
    j.kv("steps", static_cast<double>(s.steps)).kv("step_time_s", s.step_s);
    j.kv("data_wait_fraction", s.data_wait_fraction);
    optional("accelerator_busy_fraction", s.busy_fraction);
    optional("h2d_bytes_per_s", s.h2d_bytes_per_s);
    j.kv("loop_time_s", s.loop_s);
    j.kv_bool("input_bound", s.input_bound).kv_bool("highly_input_bound", s.highly_input_bound);
    j.kv("steps_without_loader", static_cast<double>(s.steps_without_loader));
    j.key("ranks").array();
    for (const RankSummary& r : s.ranks) {
      j.object().kv_str("file", valid_utf8(r.path)).kv("steps", static_cast<double>(r.steps.size()));
      j.kv("step_time_s", r.step_s).kv("data_wait_fraction", r.data_wait_fraction);
      optional("accelerator_busy_fraction", r.busy_fraction);
      optional("h2d_bytes_per_s", r.h2d_bytes_per_s);
      j.kv("loop_time_s", r.loop_s).kv_bool("straggler", r.straggler);
      j.key("per_step").array();
      for (const TraceStep& x : r.steps) {
        j.object().kv("step", static_cast<double>(x.index + 1)).kv("step_time_s", x.step_s);
        j.kv("data_wait_s", x.data_wait_s).kv("loop_time_s", x.loop_s);
        if (r.busy_fraction) j.kv("busy_s", x.busy_s);
        j.kv("h2d_s", x.h2d_s).kv("h2d_bytes", x.h2d_bytes).kv_bool("loader_seen", x.loader_seen);
        j.end();
      }
      j.end().end();
    }
    j.end().end().finish();
  }
  return text;
}

}  // namespace pipesim
