// CSV: for programs. One header line, SI base units, full precision, stable column names.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "core/base/text.hpp"
#include "report/check_words.hpp"
#include "report/diagnosis_words.hpp"
#include "report/figures.hpp"
#include "report/json_writer.hpp"
#include "report/output.hpp"
#include "report/simulation_words.hpp"
#include "report/words.hpp"

namespace pipesim {

namespace {

// A text field of CSV, quoted when it holds a comma, quote or newline. A field that a spreadsheet
// would take for a formula (it starts with =, +, -, @, a tab or a carriage return) starts with an
// apostrophe instead, which spreadsheets read as "text follows" and show without.
std::string csv_field(std::string_view text) {
  std::string s = valid_utf8(text);  // names and file names come from the user
  if (!s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos) s.insert(0, 1, '\'');
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

// Numbers in base units, choices by name.
void input_cell(Out& o, const Scenario& s, Field f) {
  if (s.dim(f) == Dim::Choice)
    o.write(choice_name(spec(f), s.get(f)));
  else
    o.num(s.get(f));
}

// Whether a sweep with this layout has the figure's column.
bool has_column(const PointFigure& f, const SweepLayout& layout) {
  switch (f.csv_part) {
    case CsvPart::None:
      return false;
    case CsvPart::Always:
      return true;
    case CsvPart::EffectiveWorkers:
      return layout.effective_workers;
    case CsvPart::FirstEpoch:
      return layout.first_epoch;
    case CsvPart::WorstEpoch:
      return layout.worst_epoch;
    case CsvPart::Run:
      return layout.run;
    case CsvPart::Cost:
      return layout.cost;
  }
  return false;
}

// The simulated figures of `sweep --simulate`, after the point's.
constexpr std::array<std::string_view, 5> kSimulatedColumns = {
    "sim_utilization", "sim_throughput_samples_per_s", "sim_step_time_s", "sim_wait_p95_s", "sim_epoch_utilization"};

// A number in base units and its comma; only the comma when there is none.
void number_cell(Out& o, std::optional<double> v) {
  if (v) o.num(*v);
  o.put(',');
}

// One figure's value: flags true/false, walls joined by "+", a limit by its key, other figures as
// numbers; nothing when the point has no such figure.
void value_text(Out& o, FigureUnit unit, std::optional<double> v) {
  if (!v) return;
  if (unit == FigureUnit::Flag)
    o.write(*v != 0 ? "true" : "false");
  else if (unit == FigureUnit::Walls)
    o.write(walls_text(static_cast<unsigned>(*v)));
  else if (unit == FigureUnit::Limit)
    o.write(limit_key(static_cast<Limit>(*v)));
  else
    o.num(*v);
}

// One figure's cell and its comma.
void cell(Out& o, FigureUnit unit, std::optional<double> v) {
  value_text(o, unit, v);
  o.put(',');
}

class CsvRenderer final : public SweepRenderer {
 public:
  // One row per figure: the simulated value beside the analytic one where the model has it.
  void simulation(Out& o, const LoadedScenario&, const Simulation& s) const {
    const Result& a = s.analytic;
    o.write("metric,simulated,analytic\n");
    const auto row = [&](std::string_view k, double sim, std::optional<double> ana) {
      o.print("{},", k);
      o.num(sim);
      o.put(',');
      if (ana) o.num(*ana);
      o.put('\n');
    };
    row("utilization", s.utilization, a.utilization);
    row("throughput_samples_per_s", s.throughput, a.throughput);
    row("step_time_s", s.step_s, a.step_s);
    if (s.epoch_utilization) {
      row("epoch_utilization", *s.epoch_utilization, a.epoch_utilization);
      row("first_batch_s", s.first_batch_s.back(), a.first_batch_s);
    }
    row("wait_mean_s", s.wait.mean, std::nullopt);
    row("wait_p50_s", s.wait.p50, std::nullopt);
    row("wait_p95_s", s.wait.p95, std::nullopt);
    row("wait_p99_s", s.wait.p99, std::nullopt);
    row("wait_max_s", s.wait.max, std::nullopt);
    for (std::size_t c = 0; c < kCauseCount; ++c)
      row(fmt::format("held_up_by_{}_steps", cause_key(static_cast<Cause>(c))), s.cause_steps[c], std::nullopt);
    row("busy_accelerator", s.busy.accelerator, std::nullopt);
    if (s.inputs.workers >= 1) row("busy_workers", s.busy.workers, std::nullopt);
    if (s.busy.cores) row("busy_cores", *s.busy.cores, std::nullopt);
    if (s.busy.storage) row("busy_storage", *s.busy.storage, std::nullopt);
    if (s.busy.decoder) row("busy_decoder", *s.busy.decoder, std::nullopt);
    if (s.busy.pin_thread) row("busy_pin_thread", *s.busy.pin_thread, std::nullopt);
    if (s.busy.interpreter_lock) row("busy_interpreter_lock", *s.busy.interpreter_lock, std::nullopt);
    if (s.busy.link) row("busy_link", *s.busy.link, std::nullopt);
  }

  // One row per stage; the point's own figures (a CSV sweep's columns: the step, the binding
  // wall, utilization, throughput, ...) repeated on each row after the stage's, so that every row
  // reads alone.
  void diagnosis(Out& o, const LoadedScenario&, const Diagnosis& d) const {
    std::vector<const PointFigure*> point;
    for (const PointFigure& f : point_figures())
      if (f.csv_part == CsvPart::Always && f.group == FigureGroup::Point) point.push_back(&f);
    o.write("stage,modelled,limit,time_s,samples_per_s,share_of_step,binding");
    // The stage's own column is "binding": the point's wall is "binding_wall" here.
    for (const PointFigure* f : point) o.print(",{}", f->csv == "binding" ? "binding_wall" : f->csv);
    o.put('\n');
    const FigureSource source{d.result, std::nullopt};
    for (Stage st : kStages) {
      const auto& sr = d.result.stage(st);
      if (!sr.modelled) {
        o.print("{},false,,,,,false", stage_key(st));
      } else {
        o.print("{},true,{},{},", stage_key(st), limit_key(sr.limit), sr.time_s);
        if (sr.time_s > 0) o.print("{}", sr.samples_per_s);
        o.print(",{},{}", sr.share_of_step, sr.binding ? "true" : "false");
      }
      for (const PointFigure* f : point) {
        o.put(',');
        value_text(o, f->unit, f->value(source));
      }
      o.put('\n');
    }
  }

  // The header is the first row's; the figures of this layout's columns are picked once, and
  // with them the figure columns' header (after the inputs, before `invalid`, each followed by
  // a comma): each stage's time, the registry's figures this layout has, the simulated ones.
  void begin(const SweepLayout& layout) override {
    stage_columns_.clear();
    for (const StageFigure& f : stage_figures())
      if (f.csv) stage_columns_.push_back(&f);
    columns_.clear();
    for (const PointFigure& f : point_figures())
      if (has_column(f, layout)) columns_.push_back(&f);
    header_.clear();
    figure_count_ = 0;
    const auto column = [&](std::string_view name) {
      header_.append(name).push_back(',');
      ++figure_count_;
    };
    for (Stage st : kStages)
      for (const StageFigure* f : stage_columns_) column(fmt::format("{}_{}", stage_key(st), f->key));
    for (const PointFigure* f : columns_) column(f->csv);
    if (layout.simulated)
      for (std::string_view name : kSimulatedColumns) column(name);
    if (layout.verdict) column("verdict");
  }
  void row(Out& o, const SweepLayout& layout, const SweepPoint& p, bool first) const override {
    const Scenario& s = p.scenario;
    const Result& r = p.result;
    if (first) {
      for (Field f : required_fields()) o.print("{},", spec(f).key);
      for (Field f : layout.inputs)
        if (!required(f)) o.print("{},", spec(f).key);
      o.write(header_);
      o.write("invalid\n");
    }
    for (Field f : required_fields()) {
      o.num(s.get(f));
      o.put(',');
    }
    for (Field f : layout.inputs)
      if (!required(f)) {
        input_cell(o, s, f);
        o.put(',');
      }
    if (!p.invalid.empty()) {
      // A point the model refuses: its inputs, every figure empty, and why in the last column.
      o.write(std::string(figure_count_, ','));
      o.print("{}\n", csv_field(p.invalid));
      return;
    }
    for (Stage st : kStages)
      for (const StageFigure* f : stage_columns_) cell(o, f->unit, f->value(r.stage(st)));
    const FigureSource source{r, p.crossed_from.has_value()};
    for (const PointFigure* f : columns_) cell(o, f->unit, f->value(source));
    if (layout.simulated) {
      if (const Simulation* m = p.simulated) {
        for (double v : {m->utilization, m->throughput, m->step_s, m->wait.p95}) number_cell(o, v);
        number_cell(o, m->epoch_utilization);
      } else {
        o.write(std::string(kSimulatedColumns.size(), ','));
      }
    }
    if (layout.verdict) {
      if (p.outcome) o.write(verdict_key(p.outcome->verdict));
      o.put(',');
    }
    o.write("\n");
  }

  void end(Out&, const SweepLayout&, const SweepSummary&) const override {}  // no footer

  void check(Out& o, const std::vector<PlanReport>& plans) const {
    o.write("plan,requirement,pass,value,threshold,at_batch_size,unmodelled,error,unit,verdict\n");
    for (const auto& p : plans) {
      if (p.error) o.print("{},,false,,,,,{},,error\n", csv_field(p.label), csv_field(p.error->line()));
      for (const auto& oc : p.outcome.outcomes) {
        const Requirement& req = *oc.requirement;
        const bool walls = req.metric == Metric::Walls;
        o.print("{},{},{},{},{},{},{},,{},{}\n", csv_field(p.label), requirement_key(req.metric),
                oc.pass ? "true" : "false", walls ? csv_field(walls_text(oc.walls, ",")) : json_number(oc.value),
                walls ? csv_field(walls_text(req.walls, ",")) : json_number(req.threshold), json_number(oc.at_batch),
                csv_field(walls_text(oc.unmodelled | oc.accepted, ",")), requirement_unit(req),
                verdict_key(oc.verdict));
      }
    }
  }

  void compare(Out& o, const std::vector<PlanReport>& plans, const std::vector<CompareRow>& rows) const {
    o.write("plan,verdict,binding");
    for (const auto& row : rows) o.print(",{}", compare_key(row.metric));
    o.put('\n');
    for (std::size_t i = 0; i < plans.size(); ++i) {
      const PlanOutcome& oc = plans[i].outcome;
      o.print("{},{},{}", csv_field(plans[i].label), oc.judged() ? verdict_key(oc.verdict) : "",
              binding_text(plans[i].result));
      for (const auto& row : rows) {
        o.put(',');
        if (row.values[i]) o.print("{}", *row.values[i]);
      }
      o.put('\n');
    }
  }

 private:
  std::vector<const PointFigure*> columns_;        // the figures of this layout's columns, in order
  std::vector<const StageFigure*> stage_columns_;  // each stage's
  std::string header_;                             // the figure columns' names, each with its comma
  std::size_t figure_count_ = 0;                   // how many
};

}  // namespace

std::vector<Writer> csv_writers() {
  return {
      writer<DiagnosisReport>(
          [](Out& o, const DiagnosisReport& r, std::size_t) { CsvRenderer().diagnosis(o, r.loaded, r.diagnosis); }),
      writer<CheckReport>([](Out& o, const CheckReport& r, std::size_t) { CsvRenderer().check(o, r.plans); }),
      writer<CompareReport>(
          [](Out& o, const CompareReport& r, std::size_t) { CsvRenderer().compare(o, r.plans, r.rows); }),
      writer<SimulationReport>(
          [](Out& o, const SimulationReport& r, std::size_t) { CsvRenderer().simulation(o, r.loaded, r.simulation); }),
  };
}
std::unique_ptr<SweepRenderer> csv_sweep() { return std::make_unique<CsvRenderer>(); }

}  // namespace pipesim
