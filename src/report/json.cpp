// JSON: for programs. SI base units, full precision, stable keys (docs/manual/output.md).
#include <algorithm>

#include "report/check_words.hpp"
#include "report/diagnosis_words.hpp"
#include "report/figures.hpp"
#include "report/json_writer.hpp"
#include "report/output.hpp"
#include "report/simulation_words.hpp"
#include "report/words.hpp"

namespace pipesim {

namespace {

void walls(JsonWriter& j, unsigned binding) {
  j.array();
  for (Stage st : kStages)
    if (binding & stage_bit(st)) j.str(stage_key(st));
  j.end();
}

// A field's value: true/false, a choice's name, or a number in base units.
void field_value(JsonWriter& j, const FieldSpec& f, double v, Dim dim) {
  if (dim == Dim::Bool)
    j.boolean(v != 0);
  else if (dim == Dim::Choice)
    j.str(choice_name(f, v));
  else
    j.num(v);
}

// The inputs a sweep does not vary, written once per run of them: a run is a stretch of
// all_fields() that holds no varied input (unset ones in it are left out); at its first set
// position, text holds the run's `"key": value, "key": value` and next the position after the
// run (text is empty elsewhere).
struct InputCache {
  std::array<std::string, kFieldCount> text;
  std::array<std::size_t, kFieldCount> next{};
};

// The cache from each input's own text (`"key": value`, empty when unset at every point or
// varying) and whether it varies, both in all_fields() order: a run goes on over inputs unset at
// every point and ends before one that varies.
InputCache input_runs(const std::vector<std::string>& one, const std::vector<bool>& varies) {
  InputCache c;
  for (std::size_t i = 0; i < one.size();) {
    if (one[i].empty()) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    std::string text = one[i++];
    for (; i < one.size() && !varies[i]; ++i)
      if (!one[i].empty()) text.append(", ").append(one[i]);
    c.text[start] = std::move(text);
    c.next[start] = i;
  }
  return c;
}

// The members of one operating point's object: inputs, stages, step, binding, utilization, ...
// and, given a diagnosis, its recommendations.
void inputs(JsonWriter& j, const Scenario& s, const InputCache* cache) {
  j.key("inputs").object();
  const auto fields = all_fields();
  for (std::size_t i = 0; i < fields.size();) {
    if (cache && !cache->text[i].empty()) {
      j.raw_member(cache->text[i]);
      i = cache->next[i];
      continue;
    }
    const FieldSpec& f = fields[i++];
    if (s.has(f.field)) field_value(j.key(f.key), f, s.get(f.field), s.dim(f.field));
  }
  j.end();
}

void results(JsonWriter& j, const Result& r, const Diagnosis* d, std::optional<bool> crossed);

void point(JsonWriter& j, const Scenario& s, const Result& r, const Diagnosis* d, const InputCache* cache = nullptr,
           std::optional<bool> crossed = std::nullopt) {
  inputs(j, s, cache);
  results(j, r, d, crossed);
}

// A figure's member: a number in base units, a flag, walls as stage keys, a limit by its key.
void figure(JsonWriter& j, std::string_view key, FigureUnit unit, double v) {
  if (unit == FigureUnit::Flag)
    j.kv_bool(key, v != 0);
  else if (unit == FigureUnit::Walls)
    walls(j.key(key), static_cast<unsigned>(v));
  else if (unit == FigureUnit::Limit)
    j.kv_str(key, limit_key(static_cast<Limit>(v)));
  else
    j.kv(key, v);
}

// The members of one operating point's result: its stages and every figure of the registry it
// has (a sweep's row also says whether it crossed) and, given a diagnosis, its recommendations.
void results(JsonWriter& j, const Result& r, const Diagnosis* d, std::optional<bool> crossed) {
  j.key("stages").array();
  for (Stage st : kStages) {
    const auto& sr = r.stage(st);
    j.object().kv_str("name", stage_key(st)).kv_bool("modelled", sr.modelled);
    for (const StageFigure& f : stage_figures())
      if (const auto v = f.value(sr)) figure(j, f.key, f.unit, *v);
    j.end();
  }
  j.end();
  const FigureSource source{r, crossed};
  bool in_first_epoch = false;
  for (const PointFigure& f : point_figures()) {
    const auto v = f.value(source);
    if (!v) continue;
    const bool first_epoch = f.group == FigureGroup::FirstEpoch;
    if (first_epoch != in_first_epoch) {
      if (first_epoch)
        j.key("first_epoch").object();
      else
        j.end();
      in_first_epoch = first_epoch;
    }
    figure(j, f.key, f.unit, *v);
  }
  if (in_first_epoch) j.end();
  if (d) {
    j.key("recommendations").array();
    thread_local std::string sentence;  // reused row after row: no string per sentence
    for (const Fix& f : d->fixes) {
      sentence.clear();
      append_fix(sentence, *d, f);
      j.object().kv_str("kind", fix_key(f.kind));
      j.key("changes").object();
      for (const auto& ch : f.changes)
        field_value(j.key(spec(ch.field).key), spec(ch.field), ch.value.value, ch.value.dim);
      j.end();
      j.kv("utilization", f.result.utilization)
          .kv("throughput_samples_per_s", f.result.throughput)
          .kv_str("text", sentence)
          .end();
    }
    j.end();
    j.key("fidelity_losses").array();
    for (const FidelityLoss& l : d->losses)
      j.object()
          .kv_str("cause", loss_key(l.kind))
          .kv("utilization_without", l.without)
          .kv("loss", l.loss)
          .kv_str("over", l.kind == LossKind::EpochStart ? "epoch" : "steady")
          .end();
    j.end();
    if (d->spread_ceiling) j.kv("spread_ceiling_utilization", *d->spread_ceiling);
  }
}

// The simulated figures of `simulate` and of each row of `sweep --simulate`.
void simulated(JsonWriter& j, const Simulation& s) {
  j.key("simulated").object();
  j.kv("utilization", s.utilization)
      .kv_bool("upper_bound", s.analytic.upper_bound())
      .kv("throughput_samples_per_s", s.throughput)
      .kv("step_time_s", s.step_s);
  j.key("wait_s").object();
  j.kv("mean", s.wait.mean).kv("p50", s.wait.p50).kv("p95", s.wait.p95).kv("p99", s.wait.p99).kv("max", s.wait.max);
  j.end();
  j.key("held_up_by").object();
  for (std::size_t c = 0; c < kCauseCount; ++c) {
    j.key(cause_key(static_cast<Cause>(c))).object();
    j.kv("steps", s.cause_steps[c]).kv("wait", s.cause_wait[c]).end();
  }
  j.end();
  j.key("busy").object();
  j.kv("accelerator", s.busy.accelerator);
  if (s.inputs.workers >= 1) j.kv("workers", s.busy.workers);
  if (s.busy.cores) j.kv("cores", *s.busy.cores);
  if (s.busy.storage) j.kv("storage", *s.busy.storage);
  if (s.busy.decoder) j.kv("decoder", *s.busy.decoder);
  if (s.busy.pin_thread) j.kv("pin_thread", *s.busy.pin_thread);
  if (s.busy.interpreter_lock) j.kv("interpreter_lock", *s.busy.interpreter_lock);
  if (s.busy.link) j.kv("link", *s.busy.link);
  j.end();
  if (s.epoch_utilization) {
    j.kv("epoch_utilization", *s.epoch_utilization).kv("steps_per_epoch", static_cast<double>(s.steps_per_epoch));
    j.key("epochs").array();
    for (std::size_t e = 0; e < s.epoch_s.size(); ++e)
      j.object().kv("time_s", s.epoch_s[e]).kv("first_batch_s", s.first_batch_s[e]).end();
    j.end();
  }
  j.end();
}

// "assumptions": [{"key", "text"}]: the defaults an answer rests on.
void write_assumptions(JsonWriter& j, const std::vector<Assumption>& list) {
  j.key("assumptions").array();
  for (const Assumption& a : list) j.object().kv_str("key", spec(a.field).key).kv_str("text", a.text).end();
  j.end();
}

// "unused": [{"key", "reason"}]: keys the user set that change nothing the answer computes.
void write_unused(JsonWriter& j, const std::vector<UnusedKey>& list) {
  j.key("unused").array();
  for (const UnusedKey& u : list) j.object().kv_str("key", unused_key_name(u)).kv_str("reason", u.reason).end();
  j.end();
}

// A plan's verdict and the keys of the requirements it does not meet, as members.
void verdict_members(JsonWriter& j, const PlanOutcome& o) {
  j.kv_str("verdict", verdict_key(o.verdict)).key("unmet").array();
  for (const Outcome& oc : o.outcomes)
    if (oc.verdict != Verdict::Pass) j.str(requirement_key(oc.requirement->metric));
  j.end();
}

class JsonRenderer final : public SweepRenderer {
 public:
  void diagnosis(Out& o, const LoadedScenario& loaded, const Diagnosis& d) const {
    JsonWriter j(o);
    j.object().stamp().kv_str("scenario", loaded.name);
    point(j, loaded.scenario, d.result, &d);
    write_assumptions(j, d.assumptions);
    write_unused(j, d.unused);
    j.key("needs").object();
    if (d.workers_needed) j.kv("workers", *d.workers_needed);
    if (d.cores) {
      j.kv_bool("workers_reachable", d.cores->reachable).kv("workers_knee", d.cores->knee_workers);
      if (d.cores->peak_workers > 0) j.kv("workers_peak", d.cores->peak_workers);
      j.kv_bool("workers_knee_fits_cores", d.cores->knee_fits_cores);
      if (d.cores->workers_beside_training)
        j.kv("workers_beside_training_process", *d.cores->workers_beside_training)
            .kv("workers_with_cpu_to_spare", d.cores->workers_with_spare)
            .kv("cpus_to_spare", d.cores->spare_cpus);
    }
    j.kv("storage_read_bandwidth_bytes_per_s", d.storage_needed.bandwidth)
        .kv("storage_read_bandwidth_per_accelerator_bytes_per_s", d.storage_bandwidth_needed_per_accelerator);
    const auto storage_limits = [&](const StorageNeeds& n, std::string_view prefix) {
      if (n.iops) j.kv(fmt::format("{}storage_iops", prefix), *n.iops);
      if (n.queue_depth) j.kv(fmt::format("{}storage_queue_depth", prefix), *n.queue_depth);
      if (n.node_bandwidth) j.kv(fmt::format("{}node_storage_bandwidth_bytes_per_s", prefix), *n.node_bandwidth);
    };
    storage_limits(d.storage_needed, "");
    if (const auto& first = d.first_epoch_storage_needed) {
      j.kv("first_epoch_storage_read_bandwidth_bytes_per_s", first->bandwidth);
      storage_limits(*first, "first_epoch_");
    }
    if (d.link_bandwidth_needed) j.kv("link_bandwidth_bytes_per_s", *d.link_bandwidth_needed);
    if (d.cores)
      j.kv("workers_at_target", d.cores->workers_target)
          .kv("cores_per_accelerator", d.cores->cores_per_accelerator)
          .kv("node_cores", d.cores->node_full)
          .kv("node_cores_at_target", d.cores->node_target);
    if (d.max_batch) j.kv("max_batch_size", *d.max_batch);
    // What memory_needed_bytes is judged against.
    if (d.inputs.compute.memory_capacity) j.kv("accelerator_memory_bytes", *d.inputs.compute.memory_capacity);
    j.end();
    const Inputs& in = d.inputs;
    if (in.storage.cache_from_page_cache)
      j.key("page_cache")
          .object()
          .kv("dataset_bytes", in.dataset_bytes)
          .kv("page_cache_bytes", in.storage.page_cache_bytes)
          .kv("hit", in.storage.cache_hit)
          .end();
    if (d.storage_capacity) {
      const auto& c = *d.storage_capacity;
      j.key("storage_capacity")
          .object()
          .kv("target_utilization", c.target)
          .kv("demand_bytes_per_s", c.demand)
          .kv("accelerators_sharing", c.have)
          .kv("request_time_s", c.request_time);
      if (c.accelerators) j.kv("accelerators", *c.accelerators);
      if (c.by_bandwidth) j.kv("by_bandwidth", *c.by_bandwidth);
      if (c.by_iops) j.kv("by_iops", *c.by_iops);
      if (c.per_node) j.kv("per_node", *c.per_node);
      j.kv_bool("latency_ok", c.latency_ok).end();
    }
    j.key("crossovers").array();
    for (const auto& cx : d.crossovers)
      j.object()
          .kv("batch_size", cx.batch)
          .kv("last_batch_size", cx.last_batch)
          .kv_str("stage", stage_key(cx.input_stage))
          .kv_bool("input_binds_above", cx.input_binds_above)
          .end();
    j.end().end().finish();
  }

  void begin(const SweepLayout& layout) override {
    // Which inputs are the same at every point: set at the first point, not swept, and not an
    // alternative of a swept field (those are unset at every point). Each one's text...
    const auto fields = all_fields();
    const Scenario& first = layout.first_point;
    const auto swept = [&](Field f) {
      return std::find(layout.swept.begin(), layout.swept.end(), f) != layout.swept.end();
    };
    std::vector<std::string> one(fields.size());
    std::vector<bool> varies(fields.size(), false);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const FieldSpec& f = fields[i];
      varies[i] = swept(f.field);
      for (Field g : alternatives(f.field)) varies[i] = varies[i] || swept(g);
      if (varies[i] || !first.has(f.field)) continue;
      Out o(one[i]);
      JsonWriter j(o);
      j.object();
      field_value(j.key(f.key), f, first.get(f.field), first.dim(f.field));
      one[i] = one[i].substr(1);  // without the "{" the writer opened
    }
    // ...and the runs of them between the inputs that vary.
    inputs_ = input_runs(one, varies);
  }

  void row(Out& o, const SweepLayout&, const SweepPoint& p, bool first) const override {
    // Rows stream out one by one: the writer holds one row; the document's frame is by hand.
    if (first) {
      JsonWriter frame(o);
      frame.object().stamp();
      o.write(", \"rows\": [\n");
    } else {
      o.write(",\n");
    }
    JsonWriter j(o, JsonWriter::Mode::Staged);  // the row goes to o in one piece, at flush()
    j.object();
    if (!p.invalid.empty()) {
      // A point the model refuses: its inputs and why, nothing else.
      inputs(j, p.scenario, &inputs_);
      j.kv_str("invalid", p.invalid).end();
      j.flush();
      return;
    }
    point(j, p.scenario, p.result, p.diagnosis, &inputs_, p.crossed_from.has_value());
    if (p.simulated) simulated(j, *p.simulated);
    if (p.outcome) verdict_members(j, *p.outcome);  // the plan's at this point
    j.end();
    j.flush();
  }

  void end(Out& o, const SweepLayout& layout, const SweepSummary& summary) const override {
    if (summary.points == 0) {
      JsonWriter frame(o);
      frame.object().stamp().key("rows").array().end().end().finish();
      return;
    }
    o.write("\n]");
    if (layout.verdict) {
      // Over a plan: the verdicts counted, and the passing point ranked first.
      o.write(", \"plan\": ");
      JsonWriter j(o);
      j.object()
          .kv("passed", static_cast<double>(summary.passed))
          .kv("failed", static_cast<double>(summary.failed))
          .kv("unverified", static_cast<double>(summary.unverified));
      if (const auto& p = summary.pick)
        j.key("pick")
            .object()
            .kv("row", static_cast<double>(p->index))
            .kv_str("point", p->point)
            .kv_str("by", rank_key(p->rank.by))
            .kv("value", p->rank.value)
            .end();
      else
        j.key("pick").null();
      j.end();
    }
    o.write("}\n");
  }

  void check(Out& o, const std::vector<PlanReport>& plans) const {
    bool pass = true;
    for (const auto& p : plans) pass &= p.outcome.pass && !p.error;
    JsonWriter j(o);
    j.object().stamp().kv_bool("pass", pass).key("plans").array(true);
    for (const auto& p : plans) {
      if (p.error) {
        // A plan that could not be evaluated: its error, located where the input was.
        const Origin& at = p.error->origin();
        j.object()
            .kv_str("plan", p.label)
            .kv_bool("pass", false)
            .key("error")
            .object()
            .kv_str("message", p.error->what());
        if (!at.empty()) j.kv_str("source", at.label());
        if (at.line > 0) j.kv("line", at.line).kv("column", at.column);
        j.kv_str("text", p.error->line()).end().end();
        continue;
      }
      j.object()
          .kv_str("plan", p.label)
          .kv_str("name", p.loaded->name)
          .kv_str("source", p.loaded->source.label())
          .kv_bool("pass", p.outcome.pass)
          .kv_str("verdict", verdict_key(p.outcome.verdict))
          .kv_str("epochs", p.loaded->plan.steady_only ? "steady" : "every")
          .kv("failures", static_cast<double>(p.outcome.failures))
          .kv("unverified", static_cast<double>(p.outcome.unverified));
      if (p.outcome.unused_failures) j.kv("unused_failures", static_cast<double>(p.outcome.unused_failures));
      j.key("requirements").array();
      for (const Outcome& oc : p.outcome.outcomes) {
        const Requirement& req = *oc.requirement;
        j.object()
            .kv_str("key", requirement_key(req.metric))
            .kv_bool("pass", oc.pass)
            .kv_str("verdict", verdict_key(oc.verdict));
        if (req.metric == Metric::Walls) {
          walls(j.key("value"), oc.walls);
          walls(j.key("threshold"), req.walls);
        } else {
          j.kv("value", oc.value).kv("threshold", req.threshold).kv_str("unit", requirement_unit(req));
        }
        j.kv("at_batch_size", oc.at_batch);
        if (oc.first_epoch)
          j.kv("first_epoch_value", *oc.first_epoch)
              .kv("steady_value", oc.steady)
              .kv("steady_from_epoch", oc.steady_from);
        if (oc.first_epoch_walls) walls(j.key("first_epoch_walls"), oc.first_epoch_walls);
        walls(j.key("unmodelled"), oc.unmodelled);
        walls(j.key("accepted_unmodelled"), oc.accepted);
        if (oc.elsewhere) {
          const FieldSpec& names = spec(Field::MeasuredOn);
          j.key("measured_elsewhere")
              .object()
              .kv_str("measured_on", choice_name(names, oc.elsewhere->measured_on))
              .kv_str("accelerator", choice_name(names, oc.elsewhere->accelerator))
              .kv_bool("accepted", oc.elsewhere_accepted)
              .end();
        }
        if (oc.memory_unknown) j.kv_str("not_counted", spec(*oc.memory_unknown).key);
        if (!oc.foreign.empty()) {
          j.key("measured_for_another").array();
          for (const ForeignFigure& f : oc.foreign)
            j.object()
                .kv_str("key", f.entry->figure == Field::MeasuredPerSample ? std::string_view("model.measured_steps")
                                                                           : spec(f.entry->figure).key)
                .kv_str("preset", f.entry->preset)
                .kv_str("text", foreign_text(f))
                .end();
          j.end();
        }
        if (const auto& x = oc.extrapolated)
          j.key("extrapolated")
              .object()
              .kv("measured_from_batch_size", x->first)
              .kv("measured_to_batch_size", x->last)
              .kv("at_batch_size", x->batch)
              .kv_bool("accepted", oc.extrapolated_accepted)
              .end();
        if (const auto& d = oc.disagreement)
          j.key("simulate_disagrees")
              .object()
              .kv("simulated_utilization", d->simulated)
              .kv("closed_form_utilization", d->closed_form)
              .kv("at_batch_size", d->batch)
              .end();
        j.end();
      }
      j.end();
      write_assumptions(j, p.assumptions);
      write_unused(j, p.unused);
      j.key("point").object();
      point(j, p.loaded->scenario, p.result, nullptr);
      j.end().end();
    }
    j.end().end().finish();
  }

  void compare(Out& o, const std::vector<PlanReport>& plans, const std::vector<CompareRow>& rows) const {
    JsonWriter j(o);
    j.object().stamp().key("plans").array(true);
    for (const auto& p : plans) {
      j.object().kv_str("plan", p.label).kv_str("name", p.loaded->name).kv_str("source", p.loaded->source.label());
      point(j, p.loaded->scenario, p.result, nullptr);
      j.kv_str("compute_source", compute_source(p.loaded->scenario, p.result));
      if (p.outcome.judged()) verdict_members(j, p.outcome);  // its verdict on its own requirements, as check's
      write_assumptions(j, p.assumptions);
      write_unused(j, p.unused);
      j.end();
    }
    j.end().key("best").object();
    for (const auto& row : rows) {
      bool any = false;
      for (bool b : row.best) any |= b;
      if (!any) continue;
      j.key(compare_key(row.metric)).array();
      for (std::size_t i = 0; i < plans.size(); ++i)
        if (row.best[i]) j.str(plans[i].label);
      j.end();
    }
    // Each plan's value over the best, in plan order, for the rows that have a best.
    j.end().key("ratio_to_best").object();
    for (const auto& row : rows) {
      bool any = false;
      for (const auto& r : row.ratio) any |= r.has_value();
      if (!any) continue;
      j.key(compare_key(row.metric)).array();
      for (const auto& r : row.ratio)
        if (r)
          j.num(*r);
        else
          j.null();
      j.end();
    }
    j.end().end().finish();
  }

  void simulation(Out& o, const LoadedScenario& loaded, const Simulation& s) const {
    JsonWriter j(o);
    j.object().stamp().kv_str("scenario", loaded.name);
    inputs(j, loaded.scenario, nullptr);
    j.kv("seed", static_cast<double>(s.seed))
        .kv("steps", static_cast<double>(s.steps))
        .kv("window_steps", static_cast<double>(s.window_steps));
    if (s.sample_times > 0)
      j.key("sample_times")
          .object()
          .kv_str("source", s.sample_times_label)
          .kv("count", static_cast<double>(s.sample_times))
          .kv("mean_s", s.sample_times_mean)
          .end();
    simulated(j, s);
    // The waits binned, as the figure draws them: steps (per accelerator) that did not wait, and
    // the count in each bin k, (k, k+1] x bin_s.
    const WaitHistogram& h = s.wait_histogram;
    j.key("wait_histogram").object().kv("bin_s", h.bin_s).kv("no_wait", static_cast<double>(h.no_wait));
    j.kv("total", static_cast<double>(h.total)).key("counts").array();
    for (std::size_t c : h.counts) j.num(static_cast<double>(c));
    j.end().end();
    j.key("analytic").object();
    results(j, s.analytic, nullptr, std::nullopt);
    j.end().end().finish();
  }

 private:
  InputCache inputs_;
};

}  // namespace

void json_inputs(JsonWriter& j, const Scenario& s) { inputs(j, s, nullptr); }

std::vector<Writer> json_writers() {
  return {
      writer<DiagnosisReport>(
          [](Out& o, const DiagnosisReport& r, std::size_t) { JsonRenderer().diagnosis(o, r.loaded, r.diagnosis); }),
      writer<CheckReport>([](Out& o, const CheckReport& r, std::size_t) { JsonRenderer().check(o, r.plans); }),
      writer<CompareReport>(
          [](Out& o, const CompareReport& r, std::size_t) { JsonRenderer().compare(o, r.plans, r.rows); }),
      writer<SimulationReport>(
          [](Out& o, const SimulationReport& r, std::size_t) { JsonRenderer().simulation(o, r.loaded, r.simulation); }),
      writer<AttributionReport>(
          [](Out& o, const AttributionReport& r, std::size_t) { o.write(attribution_json(r.attribution)); }),
      writer<SolutionReport>(
          [](Out& o, const SolutionReport& r, std::size_t) { o.write(solution_json(r.loaded, r.solution)); }),
      writer<StepLogReport>(
          [](Out& o, const StepLogReport& r, std::size_t) { o.write(step_log_json(r.path, r.log, r.summary)); }),
      writer<TraceReport>([](Out& o, const TraceReport& r, std::size_t) { o.write(trace_json(r.summary)); }),
      writer<DecodeReport>([](Out& o, const DecodeReport& r, std::size_t) { o.write(decode_json(r.calibration)); }),
      writer<StorageReport>([](Out& o, const StorageReport& r, std::size_t) { o.write(storage_json(r.calibration)); }),
      writer<MemoryReport>([](Out& o, const MemoryReport& r, std::size_t) { o.write(memory_json(r.calibration)); }),
      writer<LoopReport>([](Out& o, const LoopReport& r, std::size_t) { o.write(loop_json(r.calibration)); }),
      writer<PresetListReport>([](Out& o, const PresetListReport& r, std::size_t) { json_presets(o, r.presets); }),
      writer<KeysReport>([](Out& o, const KeysReport& r, std::size_t) { json_keys(o, r.filter); }),
      writer<PresetReport>(
          [](Out& o, const PresetReport& r, std::size_t) { json_preset(o, r.entry, r.loaded, r.toml); }),
  };
}
std::unique_ptr<SweepRenderer> json_sweep() { return std::make_unique<JsonRenderer>(); }

}  // namespace pipesim
