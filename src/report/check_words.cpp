#include "report/check_words.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

namespace pipesim {

namespace {

// A requirement's value or threshold for people, as its figure is written elsewhere.
std::string shown(const Requirement& req, double v) {
  switch (req.metric) {
    case Metric::Utilization:
    case Metric::FirstEpochUtilization:
    case Metric::RunUtilization:
      return figure_text(FigureUnit::Fraction, v);
    case Metric::Throughput:
      return req.per_step ? format_human(v, Dim::StepRate) : figure_text(FigureUnit::SampleRate, v);
    case Metric::EpochTime:
      return figure_text(FigureUnit::Seconds, v);
    case Metric::CostPerEpoch:
      return figure_text(FigureUnit::Usd, v);
    case Metric::SamplesPerUsd:
      return figure_text(FigureUnit::SamplesPerUsd, v);
    case Metric::Memory:
      return figure_text(FigureUnit::Bytes, v);
    case Metric::Walls:
      break;
  }
  return {};
}

// The value reached, with digits enough to tell it from the threshold where the figure as
// usually written reads the same as the threshold ("55.68%" against 55.7%, not "55.7%"): the
// two rounded alike to more and more significant digits until they differ, so the side shows.
std::string reached_text(const Requirement& req, double v) {
  std::string text = shown(req, v);
  if (equal_but_for_rounding(v, req.threshold) || text != shown(req, req.threshold)) return text;
  double scale = 1;
  std::string_view before, after;
  switch (req.metric) {
    case Metric::Utilization:
    case Metric::FirstEpochUtilization:
    case Metric::RunUtilization:
      scale = 100, after = "%";
      break;
    case Metric::Throughput:
      after = req.per_step ? " it/s" : " samples/s";
      break;
    case Metric::EpochTime:
      after = " s";
      break;
    case Metric::CostPerEpoch:
      before = "$";
      break;
    case Metric::SamplesPerUsd:
      after = " samples/USD";
      break;
    case Metric::Memory:
      after = " B";
      break;
    case Metric::Walls:
      return text;
  }
  for (int digits = 4; digits <= 17; ++digits) {
    const std::string a = fmt::format("{:.{}g}", v * scale, digits);
    if (a != fmt::format("{:.{}g}", req.threshold * scale, digits)) return fmt::format("{}{}{}", before, a, after);
  }
  return text;
}

// The core's bound as people write it.
std::string_view relation(Metric m) {
  switch (requirement_bound(m)) {
    case Bound::AtLeast:
      return ">=";
    case Bound::AtMost:
      return "<=";
    case Bound::Among:
      return "in";
  }
  return "";
}

}  // namespace

OutcomeLine outcome_line(const Outcome& o, bool ranged) {
  const Requirement& req = *o.requirement;
  OutcomeLine l;
  l.key = std::string(requirement_key(req.metric));
  const auto add = [&](const std::string& note) { l.where = l.where.empty() ? note : l.where + "; " + note; };
  if (req.metric == Metric::Walls) {
    l.reached = walls_text(o.walls, ",");
    l.required = "in " + walls_text(req.walls, ",");
    if (!o.pass && ranged) l.where = fmt::format("first outside at batch {}", count(o.at_batch));
    // Walls of the first epoch alone (its cold page cache): judged, or said to be left out.
    if (o.first_epoch_walls)
      add(o.steady_only
              ? fmt::format("the first epoch, not judged (require.epochs = \"steady\"), is bound by {}",
                            walls_text(o.first_epoch_walls, ","))
              : fmt::format("{} in the first epoch only (page cache cold)", walls_text(o.first_epoch_walls, ",")));
  } else {
    l.reached = reached_text(req, o.value);
    l.required = fmt::format("{} {}", relation(req.metric), req.typed.empty() ? shown(req, req.threshold) : req.typed);
    if (ranged) l.where = fmt::format("worst at batch {}", count(o.at_batch));
    // Both figures where the worst epoch differs from the steady state, and which was judged.
    if (o.first_epoch && shown(req, *o.first_epoch) != shown(req, o.steady)) {
      const std::string first = o.first_epoch_cold ? "the first epoch, with its start and its page cache cold,"
                                                   : "every epoch, with its start,";
      const std::string from =
          o.steady_from > 1 ? fmt::format(" from epoch {}", count(o.steady_from)) : std::string(" within each epoch");
      if (o.steady_only)
        add(fmt::format("the steady state{} (require.epochs = \"steady\"); {} reaches {}", from, first,
                        shown(req, *o.first_epoch)));
      else
        add(fmt::format("{} {}; the steady state{}: {}", first, shown(req, *o.first_epoch), from,
                        shown(req, o.steady)));
    }
  }
  // An unmodelled stage could break it: refused unless the plan accepts it, and said either way.
  const auto stages = [&](unsigned bits) {
    return stage_list(bits, ", ", [&](Stage s) {
      return fmt::format("{} ({})", stage_key(s),
                         keys_text(unmodelled_keys(s, o.transform_at, o.transfer_needs_device_bytes)));
    });
  };
  std::string note;
  if (o.unmodelled)
    note = fmt::format("not verified: {} not modelled; model it, or accept it with require.unmodelled",
                       stages(o.unmodelled));
  else if (o.accepted)
    note = fmt::format("an upper bound: {} not modelled, accepted by the plan", stages(o.accepted));
  if (!note.empty()) add(note);
  // A step measured on another accelerator: the figure is that accelerator's. Where the plan
  // accepts it, the assumptions under the lines say so once.
  if (const auto& e = o.elsewhere; e && !o.elsewhere_accepted) {
    const FieldSpec& names = spec(Field::MeasuredOn);
    const auto on = choice_name(names, e->measured_on), here = choice_name(names, e->accelerator);
    add(
        fmt::format("not verified: the step was measured on {}, not {}; measure it on {} (model.measured_per_sample, "
                    "model.measured_on), or accept it with require.measured_elsewhere",
                    on, here, here));
  }
  // A figure a preset measured for another model, accelerator or kind of data.
  for (const ForeignFigure& f : o.foreign)
    add(fmt::format("not verified: {}; set {} measured for this plan", foreign_text(f),
                    f.entry->figure == Field::MeasuredPerSample ? std::string_view("model.measured_steps")
                                                                : spec(f.entry->figure).key));
  // A term of the memory not counted: what is counted only grows with it.
  if (o.memory_unknown)
    add(fmt::format("{}: {}", o.verdict == Verdict::Fail ? "fails on what is counted alone" : "not verified",
                    *o.memory_unknown == Field::Parameters
                        ? "the weights, gradients and optimizer state are not counted; set model.parameters"
                        : "the activations are not counted; set model.activation_bytes (scripts/activation-bytes "
                          "measures a model's), or a transformer's shape (model.layers, model.hidden_size, "
                          "model.sequence_length, model.attention_heads)"));
  // A step measured at several batch sizes, used outside them: extrapolated. Where the plan
  // accepts it, the assumptions under the lines say so once.
  if (const auto& x = o.extrapolated; x && !o.extrapolated_accepted)
    add(
        fmt::format("not verified: the step was measured at {}; batch {} is outside, extrapolated; "
                    "measure it there (model.measured_steps), or accept it with require.extrapolated",
                    batch_span(x->first, x->last), count(x->batch)));
  // The closed forms and simulate apart on the step: simulate's figure beside the model's.
  if (const auto& d = o.disagreement) {
    std::vector<std::string> why;
    if (d->spread) why.emplace_back("the spread set (transform.cv, model.step_cv, workload.sample_size_cv)");
    if (d->shared) why.emplace_back("the CPUs shared by time (pipeline.loop_wait, pipeline.loop_cpu_share)");
    add(fmt::format(
        "not verified: with {} pipesim simulate gives utilization {} where the closed forms give {}{}, more than {:g} "
        "points apart; judge this plan with pipesim simulate",
        fmt::join(why, " and "), figure_text(FigureUnit::Fraction, d->simulated),
        figure_text(FigureUnit::Fraction, d->closed_form),
        ranged ? fmt::format(" at batch {}", count(d->batch)) : std::string(), kAgreement * 100));
  }
  return l;
}

namespace {

// Each verdict as people read it and as programs do, in Verdict's order.
constexpr std::array<std::array<std::string_view, 2>, 3> kVerdictWords = {
    {{"PASS", "pass"}, {"FAIL", "fail"}, {"UNVERIFIED", "unverified"}}};

// Why a plan's requirements are unverified: an unmodelled stage, a step measured elsewhere, a
// step the closed forms and simulate disagree on; each that applies.
std::string unverified_why(const PlanOutcome& p) {
  bool stage = false, step = false, apart = false, outside = false, memory = false, preset = false;
  for (const auto& o : p.outcomes) {
    memory = memory || (o.memory_unknown && o.verdict == Verdict::Unverified);
    stage = stage || o.unmodelled != 0;
    step = step || (o.elsewhere && !o.elsewhere_accepted);
    apart = apart || o.disagreement.has_value();
    outside = outside || (o.extrapolated && !o.extrapolated_accepted);
    preset = preset || !o.foreign.empty();
  }
  const std::string_view rest = p.unverified == 1 ? "it rests" : "they rest";
  std::vector<std::string> why;
  if (stage || (!step && !apart && !outside && !memory && !preset))
    why.push_back(fmt::format("a stage {} on is not modelled", rest));
  if (step)
    why.push_back(why.empty() ? fmt::format("the step {} on was measured on another accelerator", rest)
                              : std::string("the step was measured on another accelerator"));
  if (outside)
    why.push_back(why.empty()
                      ? fmt::format("the step {} on is extrapolated past the batch sizes it was measured at", rest)
                      : std::string("the step is extrapolated past the batch sizes it was measured at"));
  if (memory) why.push_back("the memory needed leaves a term uncounted");
  if (preset) why.push_back("a preset's figure measured for another model, accelerator or data is used");
  if (apart)
    why.push_back(why.empty() ? fmt::format("the closed forms and simulate disagree on the step {} on", rest)
                              : std::string("the closed forms and simulate disagree on the step"));
  return spoken_list(
      why, [](const std::string& w) { return w; }, ", and ");
}

}  // namespace

std::string_view verdict_word(Verdict v) { return kVerdictWords[static_cast<std::size_t>(v)][0]; }
std::string_view verdict_key(Verdict v) { return kVerdictWords[static_cast<std::size_t>(v)][1]; }

std::string verdict(const PlanOutcome& o) {
  const std::size_t n = o.outcomes.size();
  const std::string_view requirements = n == 1 ? "requirement" : "requirements";
  switch (o.verdict) {
    case Verdict::Pass:
      return fmt::format("PASS ({} of {} {} met)", n, n, requirements);
    case Verdict::Fail: {
      const std::string strict =
          o.unused_failures
              ? fmt::format("--strict: {} {} the plan sets {} nothing", o.unused_failures,
                            o.unused_failures == 1 ? "key" : "keys", o.unused_failures == 1 ? "changes" : "change")
              : std::string();
      if (o.failures == 0) return fmt::format("FAIL ({})", strict);
      return fmt::format("FAIL ({} of {} {} failed{}{})", o.failures, n, requirements,
                         o.unverified ? fmt::format(", {} not verified", o.unverified) : std::string(),
                         strict.empty() ? strict : "; " + strict);
    }
    case Verdict::Unverified:
      return fmt::format("UNVERIFIED ({} of {} {} not verified: {})", o.unverified, n, requirements, unverified_why(o));
  }
  return {};
}

std::string unmet_text(const PlanOutcome& o) {
  std::string failed, unverified;
  for (const Outcome& oc : o.outcomes) {
    std::string& to = oc.verdict == Verdict::Fail ? failed : unverified;
    if (oc.verdict == Verdict::Pass) continue;
    const OutcomeLine l = outcome_line(oc, false);
    to += fmt::format("{}{} {} (needs {})", to.empty() ? "" : ", ", l.key, l.reached, l.required);
  }
  std::string text = failed.empty() ? std::string() : "fails " + failed;
  if (!unverified.empty()) text += fmt::format("{}not verified: {}", text.empty() ? "" : "; ", unverified);
  return text;
}

std::string rank_text(const Rank& r) {
  switch (r.by) {
    case RankBy::RunCost:
      return fmt::format("{} for the run", figure_text(FigureUnit::Usd, r.value));
    case RankBy::EpochCost:
      return fmt::format("{} per epoch", figure_text(FigureUnit::Usd, r.value));
    case RankBy::SamplesPerUsd:
      return figure_text(FigureUnit::SamplesPerUsd, r.value);
    case RankBy::RunTime:
      return fmt::format("the run in {}", figure_text(FigureUnit::Seconds, r.value));
    case RankBy::EpochTime:
      return fmt::format("an epoch in {}", figure_text(FigureUnit::Seconds, r.value));
    case RankBy::Throughput:
      return figure_text(FigureUnit::SampleRate, r.value);
  }
  return {};
}

std::string_view rank_word(const Rank& r) {
  return r.by == RankBy::RunCost || r.by == RankBy::EpochCost || r.by == RankBy::SamplesPerUsd ? "cheapest" : "fastest";
}

std::string_view rank_key(RankBy by) {
  switch (by) {
    case RankBy::RunCost:
      return "run_cost_usd";
    case RankBy::EpochCost:
      return "cost_per_epoch_usd";
    case RankBy::SamplesPerUsd:
      return "samples_per_usd";
    case RankBy::RunTime:
      return "run_time_s";
    case RankBy::EpochTime:
      return "epoch_time_s";
    case RankBy::Throughput:
      return "throughput_samples_per_s";
  }
  return {};
}

}  // namespace pipesim
