#include "config/requirements.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "core/base/range.hpp"
#include "core/base/text.hpp"
#include "core/base/units.hpp"

namespace pipesim {

namespace {

// The most batch sizes a plan's require.batch_sizes may hold: each is a diagnosis per requirement
// (100,000 take a fraction of a second; ten million took seconds per plan).
constexpr std::size_t kMaxPlanBatchSizes = 100000;

// "compute, transform" as stage bits; throws `fail` naming the first unknown stage.
template <class Fail>
unsigned parse_stages(std::string_view text, unsigned allowed, std::string_view noun, std::string_view allowed_text,
                      const Fail& fail) {
  unsigned bits = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto comma = text.find(',', pos);
    std::string_view name = text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    bool found = false;
    for (Stage st : kStages)
      if (stage_key(st) == name && (allowed & stage_bit(st))) {
        bits |= stage_bit(st);
        found = true;
      }
    if (!found) throw fail(fmt::format("unknown {} '{}' ({})", noun, echo(name), allowed_text));
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return bits;
}

// Which of two words `text` is, blanks around it aside: 0 or 1. Else throws naming each as it is
// written in a plan, with what it means.
int which_word(std::string_view text, const Origin& where, std::string_view key,
               const std::array<std::pair<std::string_view, std::string_view>, 2>& words) {
  std::string_view v = text;
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  for (int i = 0; i < 2; ++i)
    if (v == words[static_cast<std::size_t>(i)].first) return i;
  throw Error(where,
              fmt::format("require.{}: expected {} or {}, got \"{}\"", key, words[0].second, words[1].second, echo(v)));
}

// The [require] keys that set how the plan is judged rather than a requirement: false for any
// other key.
bool set_plan_option(Plan& plan, std::string_view key, std::string_view text, const Origin& where) {
  if (key == "unmodelled") {
    plan.accept_unmodelled =
        parse_stages(text, stage_bit(Stage::Storage) | stage_bit(Stage::Transform) | stage_bit(Stage::Transfer),
                     "stage", "storage, transform or transfer",
                     [&](const std::string& why) { return Error(where, fmt::format("require.unmodelled: {}", why)); });
    return true;
  }
  if (key == "measured_elsewhere") {
    // Whether the plan accepts a compute step measured on another accelerator than its own.
    plan.accept_elsewhere =
        which_word(text, where, key,
                   {{{"true", "true (the plan accepts a compute step measured on another accelerator)"},
                     {"false", "false"}}}) == 0;
    return true;
  }
  if (key == "extrapolated") {
    // Whether the plan accepts a step measured at several batch sizes used outside them.
    plan.accept_extrapolated =
        which_word(text, where, key,
                   {{{"true",
                      "true (the plan accepts a measured step extrapolated past the batch sizes it was "
                      "measured at)"},
                     {"false", "false"}}}) == 0;
    return true;
  }
  if (key == "epochs") {
    // Which epochs the plan's requirements hold in: "every" (the first, cold, and the steady
    // state: the default) or "steady" (the steady state alone).
    plan.steady_only = which_word(text, where, key,
                                  {{{"every", "\"every\" (the first epoch and the steady state)"},
                                    {"steady", "\"steady\" (every epoch after the first)"}}}) == 1;
    return true;
  }
  if (key == "batch_sizes") {
    try {
      plan.batch_sizes = parse_range(text, spec(Field::BatchSize));
    } catch (const Error& e) {
      throw Error(where, fmt::format("require.batch_sizes: {}", e.what()));
    }
    // A plan is judged at every size, with every requirement: bounded as a sweep is without --force.
    if (plan.batch_sizes->size() > kMaxPlanBatchSizes)
      throw Error(where, fmt::format("require.batch_sizes: {} sizes; a plan is judged at {} at most (pipesim sweep "
                                     "runs larger grids)",
                                     plan.batch_sizes->size(), kMaxPlanBatchSizes));
    plan.batch_sizes_origin = where;
    return true;
  }
  return false;
}

// A requirement's threshold as typed: in the metric's units, greater than zero, a utilization
// at most 1; throws `fail` saying why not.
template <class Fail>
void set_threshold(Requirement& req, std::string_view text, const Fail& fail) {
  DimSet accepted = dims(Dim::Number);
  if (req.metric == Metric::Throughput) accepted = Dim::SampleRate | Dim::StepRate;
  if (req.metric == Metric::EpochTime) accepted = dims(Dim::Duration);
  if (req.metric == Metric::CostPerEpoch) accepted = Dim::Money | Dim::Number;
  Quantity q;
  try {
    q = parse_quantity_as(text, accepted);
  } catch (const Error& e) {
    throw fail(e.what());
  }
  if (!(q.value > 0)) throw fail("the threshold must be greater than zero");
  if ((req.metric == Metric::Utilization || req.metric == Metric::FirstEpochUtilization ||
       req.metric == Metric::RunUtilization) &&
      q.value > 1)
    throw fail(fmt::format("utilization is at most 1 (100%), got {}", format_compact(q.value, Dim::Number)));
  req.threshold = q.value;
  req.per_step = q.dim == Dim::StepRate;
  // Echoed as typed: a threshold shown rounded could read equal to a value it is not.
  const auto first = text.find_first_not_of(" \t");
  req.typed = std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

}  // namespace

void set_requirement(Plan& plan, std::string_view key, std::string_view text, const Origin& where) {
  if (set_plan_option(plan, key, text, where)) return;
  Metric metric{};
  if (!find_requirement(key, &metric)) {
    const auto keys = requirement_keys();
    std::string hint = did_you_mean(key, keys);
    if (hint.empty()) {
      for (auto k : keys) hint += fmt::format("{}{}", hint.empty() ? " (known: " : ", ", k);
      hint += ")";
    }
    throw Error(where, fmt::format("unknown requirement '{}'{}", key, hint));
  }
  Requirement req{metric, 0, 0, where, false};
  const auto fail = [&](const std::string& why) { return Error(where, fmt::format("require.{}: {}", key, why)); };
  if (metric == Metric::Walls) {
    unsigned all = 0;
    for (Stage st : kStages) all |= stage_bit(st);
    req.walls = parse_stages(text, all, "wall", "storage, transform, transfer or compute", fail);
  } else {
    set_threshold(req, text, fail);
  }
  for (auto& r : plan.requirements)
    if (r.metric == metric) {
      r = req;
      return;
    }
  plan.requirements.push_back(req);
}

}  // namespace pipesim
