// CSV: for programs. One header line, SI base units, full precision, stable column names.
#include <algorithm>
#include <cstddef>
#include <string>

#include "core/text.hpp"
#include "report/check_words.hpp"
#include "report/diagnosis_words.hpp"
#include "report/json_writer.hpp"
#include "report/renderer.hpp"
#include "report/simulation_words.hpp"
#include "report/words.hpp"

namespace pipesim {

namespace {

// A CSV field, quoted when it holds a comma, quote or newline.
std::string csv_field(std::string_view text) {
  const std::string s = valid_utf8(text);  // names and file names come from the user
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

// A sweep row's figure columns, after its inputs and before `invalid`: the header of every
// row's figures, and what a refused row leaves empty.
std::string figure_columns(const SweepLayout& layout) {
  std::string h =
      "storage_time_s,transform_time_s,transfer_time_s,compute_time_s,step_time_s,binding,"
      "utilization,slowdown,throughput_samples_per_s,data_demand_bytes_per_s,epoch_time_s,"
      "crossover,memory_needed_bytes,fits";
  if (layout.effective_workers) h += ",effective_workers";
  if (layout.first_epoch)
    h += ",first_epoch_step_time_s,first_epoch_binding,first_epoch_utilization,"
         "first_epoch_throughput_samples_per_s,first_epoch_time_s";
  if (layout.cost) h += ",price_per_hour_usd,cost_per_epoch_usd,idle_cost_per_epoch_usd,samples_per_usd";
  if (layout.simulated)
    h += ",sim_utilization,sim_throughput_samples_per_s,sim_step_time_s,sim_wait_p95_s,sim_epoch_utilization";
  return h;
}

class CsvRenderer final : public DiagnosisRenderer,
                          public SweepRenderer,
                          public CheckRenderer,
                          public CompareRenderer,
                          public SimulationRenderer {
 public:
  // One row per figure: the simulated value beside the analytic one where the model has it.
  void simulation(Out& o, const LoadedScenario&, const Simulation& s) const override {
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
    if (s.busy.link) row("busy_link", *s.busy.link, std::nullopt);
  }

  void diagnosis(Out& o, const LoadedScenario&, const Diagnosis& d) const override {
    o.write("stage,modelled,limit,time_s,samples_per_s,share_of_step,binding\n");
    for (Stage st : kStages) {
      const auto& sr = d.result.stage(st);
      if (!sr.modelled) {
        o.print("{},false,,,,,false\n", stage_key(st));
        continue;
      }
      o.print("{},true,{},{},", stage_key(st), limit_key(sr.limit), sr.time_s);
      if (sr.time_s > 0) o.print("{}", sr.samples_per_s);
      o.print(",{},{}\n", sr.share_of_step, sr.binding ? "true" : "false");
    }
  }

  void begin(const SweepLayout&) override {}  // the header is the first row's
  void row(Out& o, const SweepLayout& layout, const SweepPoint& p, bool first) const override {
    const Scenario& s = p.scenario;
    const Result& r = p.result;
    if (first) {
      for (Field f : required_fields()) o.print("{},", spec(f).key);
      for (Field f : layout.inputs)
        if (!required(f)) o.print("{},", spec(f).key);
      o.write(figure_columns(layout));
      o.write(",invalid\n");
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
      // One field per figure column: as many commas as the columns' header has.
      const std::string columns = figure_columns(layout);
      const auto empty = std::count(columns.begin(), columns.end(), ',');
      for (std::ptrdiff_t i = 0; i < empty; ++i) o.put(',');
      o.print(",{}\n", csv_field(p.invalid));
      return;
    }
    for (Stage st : kStages) {
      if (r.stage(st).modelled) o.num(r.stage(st).time_s);
      o.put(',');
    }
    o.num(r.step_s);
    o.put(',');
    o.write(walls_text(r.binding));
    for (double v : {r.utilization, r.slowdown, r.throughput, r.data_demand}) {
      o.put(',');
      o.num(v);
    }
    o.put(',');
    if (r.epoch_s) o.num(*r.epoch_s);
    o.write(p.crossed_from ? ",true," : ",false,");
    if (r.memory_needed) o.num(*r.memory_needed);
    o.write(r.fits ? ",true" : ",false");
    if (layout.effective_workers) {
      // As the table shows them: the workers that add throughput, in single-worker rates.
      o.put(',');
      if (r.effective_workers > 0) o.num(r.effective_workers);
    }
    if (layout.first_epoch) {
      if (r.cold) {
        o.print(",{},{},{},{},", r.cold->step_s, walls_text(r.cold->binding), r.cold->utilization, r.cold->throughput);
        if (r.cold->epoch_s) o.print("{}", *r.cold->epoch_s);
      } else {
        o.write(",,,,,");
      }
    }
    if (layout.cost) {
      o.print(",{},", *r.price_per_hour);
      if (r.cost_per_epoch)
        o.print("{},{}", *r.cost_per_epoch, *r.idle_cost_per_epoch);
      else
        o.put(',');
      o.print(",{}", *r.samples_per_usd);
    }
    if (layout.simulated) {
      if (const Simulation* m = p.simulated) {
        for (double v : {m->utilization, m->throughput, m->step_s, m->wait.p95}) {
          o.put(',');
          o.num(v);
        }
        o.put(',');
        if (m->epoch_utilization) o.num(*m->epoch_utilization);
      } else {
        o.write(",,,,,");
      }
    }
    o.write(",\n");
  }

  void end(Out&, const SweepLayout&, std::size_t) const override {}  // no footer

  void check(Out& o, const std::vector<PlanReport>& plans) const override {
    o.write("plan,requirement,pass,value,threshold,at_batch_size,unmodelled,error,unit\n");
    for (const auto& p : plans) {
      if (p.error) o.print("{},,false,,,,,{},\n", csv_field(p.label), csv_field(p.error->line()));
      for (const auto& oc : p.outcome.outcomes) {
        const Requirement& req = *oc.requirement;
        const bool walls = req.metric == Metric::Walls;
        o.print("{},{},{},{},{},{},{},,{}\n", csv_field(p.label), requirement_key(req.metric),
                oc.pass ? "true" : "false", walls ? csv_field(walls_text(oc.walls, ",")) : json_number(oc.value),
                walls ? csv_field(walls_text(req.walls, ",")) : json_number(req.threshold), json_number(oc.at_batch),
                csv_field(walls_text(oc.unmodelled | oc.accepted, ",")), requirement_unit(req));
      }
    }
  }

  void compare(Out& o, const std::vector<PlanReport>& plans, const std::vector<CompareRow>& rows) const override {
    o.write("plan,binding");
    for (const auto& row : rows) o.print(",{}", compare_key(row.metric));
    o.put('\n');
    for (std::size_t i = 0; i < plans.size(); ++i) {
      o.print("{},{}", csv_field(plans[i].label), binding_text(plans[i].result));
      for (const auto& row : rows) {
        o.put(',');
        if (row.values[i]) o.print("{}", *row.values[i]);
      }
      o.put('\n');
    }
  }
};

}  // namespace

FormatRenderers csv_renderers() { return renderers_of<CsvRenderer>(); }

}  // namespace pipesim
