#include "report/render.hpp"

#include <algorithm>
#include <cmath>

namespace pipesim {

namespace {

std::string dur(double s) { return format_human(s, Dim::Duration); }
std::string rate(double bps) { return format_human(bps, Dim::Rate); }
std::string samples(double sps) { return fmt::format("{:.1f} samples/s", sps); }
std::string count(double n) { return fmt::format("{:.0f}", n); }

std::string plural(double n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", count(n), n == 1 ? one : many);
}

const FixKind* find_kind(const Diagnosis& d, FixKind k) {
  for (const auto& f : d.fixes)
    if (f.kind == k) return &f.kind;
  return nullptr;
}

double compute_s(const Result& r) { return r.stage(Stage::Compute).time_s; }

std::string gain(const Diagnosis& d, const Result& after) {
  std::string out = fmt::format("utilization {} -> {}, throughput {}", percent(d.result.utilization),
                                percent(after.utilization), samples(after.throughput));
  if (after.utilization < 1 - kCoBinding) {
    std::string walls;
    for (Stage s : kStages)
      if (after.binds(s)) walls += fmt::format("{}{}", walls.empty() ? "" : " and the ", stage_name(s));
    out += fmt::format(" (then the {} binds)", walls);
  }
  return out;
}

// Bytes/s one worker transforms (what the transform stage reads per second per worker).
double worker_bytes_per_s(const Inputs& in) { return in.sample_bytes / in.worker_seconds_per_sample; }

std::string wall_sentence(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  const double B = in.batch;
  std::vector<std::string> parts;
  if (r.binds(Stage::Storage)) {
    const char* limit = r.storage_limit == StorageLimit::Iops      ? "IOPS"
                        : r.storage_limit == StorageLimit::Latency ? "latency x queue depth"
                                                                   : "bandwidth";
    parts.push_back(fmt::format(
        "storage fetch, limited by {}: it delivers {} per accelerator, compute would consume {}",
        limit, rate(B * in.sample_bytes * (1 - in.cache_hit) / r.stage(Stage::Storage).time_s),
        rate(B * in.sample_bytes * (1 - in.cache_hit) / compute_s(r))));
  }
  if (r.binds(Stage::Transform)) {
    parts.push_back(fmt::format(
        "CPU transform: {} x {} = {} per accelerator, compute would consume {}",
        r.serial ? std::string("the main process") : plural(r.effective_workers, "worker", "workers"), format_compact(worker_bytes_per_s(in), Dim::Rate),
        rate(r.effective_workers * worker_bytes_per_s(in)), rate(r.data_demand)));
  }
  if (r.binds(Stage::Transfer)) {
    if (r.transfer_serialised)
      parts.push_back(fmt::format(
          "host-to-device transfer: pageable copies ({} per batch) wait for compute and add to it",
          dur(r.stage(Stage::Transfer).time_s)));
    else
      parts.push_back(fmt::format("host-to-device transfer: {} per accelerator carries {} per sample, "
                                  "compute would take {}",
                                  rate(in.link_bandwidth), format_compact(in.device_bytes, Dim::Size),
                                  rate(B * in.device_bytes / compute_s(r))));
  }
  if (r.binds(Stage::Compute)) {
    if (r.serial)
      parts.push_back("accelerator compute (the largest part of a serial step)");
    else
      parts.push_back("accelerator compute: the input pipeline keeps up");
  }
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += "; and ";
    out += p;
  }
  return out;
}

std::string stage_cell(const Result& r, Stage s) {
  return r.stage(s).modelled ? dur(r.stage(s).time_s) : std::string("-");
}

}  // namespace

std::string binding_text(const Result& r) {
  std::string out;
  for (Stage s : kStages) {
    if (!r.binds(s)) continue;
    if (!out.empty()) out += '+';
    out += stage_key(s);
  }
  return out;
}

std::string describe_fix(const Diagnosis& d, const Fix& fix) {
  const Inputs& in = d.inputs;
  const Result& after = fix.result;
  const auto value = [&](std::size_t i) { return fix.changes.at(i).value.value; };
  switch (fix.kind) {
    case FixKind::Overlap:
      return fmt::format("Use {} (now 0) so loading overlaps compute: {}",
                         plural(value(0), "worker", "workers"), gain(d, after));
    case FixKind::Workers:
      return fmt::format("Workers: {} per accelerator (now {}) keep the transform under compute: {}",
                         count(value(0)), count(in.workers), gain(d, after));
    case FixKind::WorkersAndCores:
      return fmt::format(
          "CPU: the transform needs {} per accelerator, but the node has {} cores per accelerator; "
          "{} cores for the node with {} workers per accelerator: {}",
          plural(value(0), "worker", "workers"), format_compact(*in.cores_per_accelerator, Dim::Number),
          count(value(1)), count(value(0)), gain(d, after));
    case FixKind::AllTogether:
      return fmt::format("All of the above but the batch size, together: {}", gain(d, after));
    case FixKind::StorageBandwidth:
      return fmt::format("Storage: {} read bandwidth (now {}): {}", rate(value(0)),
                         rate(in.storage_bandwidth * in.storage_shared_by), gain(d, after));
    case FixKind::StorageIops:
      return fmt::format("Storage: {} IOPS (now {}): {}", count(value(0)),
                         count(*in.storage_iops * in.storage_shared_by), gain(d, after));
    case FixKind::StorageQueueDepth:
      return fmt::format("Storage: {} outstanding requests per accelerator (now {}) to hide latency: {}",
                         count(value(0)), format_compact(in.queue_depth, Dim::Number), gain(d, after));
    case FixKind::LinkBandwidth:
      return fmt::format("Link: {} host-to-device bandwidth (now {}): {}", rate(value(0)),
                         rate(in.link_bandwidth * in.link_shared_by), gain(d, after));
    case FixKind::PinMemory:
      return fmt::format("Transfer: pinned memory with non-blocking copies, so the copy overlaps compute: {}",
                         gain(d, after));
    case FixKind::SmallerBatch:
      return fmt::format(
          "Batch size {} (now {}): the accelerator binds, utilization {} -> {}, but throughput "
          "{} (now {}): a smaller batch hides the wall, it does not move it",
          count(value(0)), count(in.batch), percent(d.result.utilization), percent(after.utilization),
          samples(after.throughput), samples(d.result.throughput));
  }
  return {};
}

// The members of one point's JSON object, without the enclosing braces.
void json_point(Out& o, const Scenario& s, const Result& r, const Diagnosis* d) {
  o.write("\"inputs\": {");
  bool first = true;
  for (const auto& f : all_fields()) {
    if (!s.has(f.field)) continue;
    o.print("{}{}: {}", first ? "" : ", ", json_string(f.key),
            f.accepts == dims(Dim::Bool) ? (s.get(f.field) != 0 ? "true" : "false")
                                         : json_number(s.get(f.field)));
    first = false;
  }
  o.write("}, \"stages\": [");
  for (Stage st : kStages) {
    const auto& sr = r.stage(st);
    o.print("{}{{\"name\": \"{}\", \"modelled\": {}", st == Stage::Storage ? "" : ", ",
            stage_key(st), sr.modelled ? "true" : "false");
    if (sr.modelled)
      o.print(", \"time_s\": {}, \"samples_per_s\": {}", json_number(sr.time_s),
              json_number(s.get(Field::BatchSize) / sr.time_s));
    o.write("}");
  }
  o.print("], \"step_time_s\": {}, \"binding\": [", json_number(r.step_s));
  first = true;
  for (Stage st : kStages) {
    if (!r.binds(st)) continue;
    o.print("{}\"{}\"", first ? "" : ", ", stage_key(st));
    first = false;
  }
  o.print("], \"utilization\": {}, \"slowdown\": {}, \"throughput_samples_per_s\": {}, "
          "\"data_demand_bytes_per_s\": {}, \"serial\": {}",
          json_number(r.utilization), json_number(r.slowdown), json_number(r.throughput),
          json_number(r.data_demand), r.serial ? "true" : "false");
  if (r.epoch_s) o.print(", \"epoch_time_s\": {}", json_number(*r.epoch_s));
  if (r.samples_per_usd) {
    o.print(", \"price_per_hour_usd\": {}, \"samples_per_usd\": {}",
            json_number(*r.price_per_hour), json_number(*r.samples_per_usd));
  }
  if (r.cost_per_epoch)
    o.print(", \"cost_per_epoch_usd\": {}, \"idle_cost_per_epoch_usd\": {}", json_number(*r.cost_per_epoch),
            json_number(*r.idle_cost_per_epoch));
  if (d) {
    o.write(", \"recommendations\": [");
    for (std::size_t i = 0; i < d->fixes.size(); ++i) {
      const Fix& f = d->fixes[i];
      o.print("{}{{\"changes\": {{", i ? ", " : "");
      for (std::size_t c = 0; c < f.changes.size(); ++c) {
        const auto& ch = f.changes[c];
        o.print("{}{}: {}", c ? ", " : "", json_string(spec(ch.field).key),
                ch.value.dim == Dim::Bool ? (ch.value.value != 0 ? "true" : "false")
                                          : json_number(ch.value.value));
      }
      o.print("}}, \"utilization\": {}, \"throughput_samples_per_s\": {}, \"text\": {}}}",
              json_number(f.result.utilization), json_number(f.result.throughput),
              json_string(describe_fix(*d, f)));
    }
    o.write("]");
  }
}

namespace {

// A row of aligned cells for tables; `right` per column.
struct Columns {
  std::vector<std::size_t> widths;
  std::vector<bool> right;
};

void table_line(Out& o, const Columns& c, const std::vector<std::string>& cells, bool markdown) {
  std::string line = markdown ? "|" : "";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::size_t w = c.widths[i];
    if (markdown) line += ' ';
    else if (i) line += "  ";
    line += c.right[i] ? fmt::format("{:>{}}", cells[i], w) : fmt::format("{:<{}}", cells[i], w);
    if (markdown) line += " |";
  }
  if (!markdown)
    while (!line.empty() && line.back() == ' ') line.pop_back();
  line += '\n';
  o.write(line);
}

}  // namespace

std::string render_diagnosis(const LoadedScenario& loaded, const Scenario& s, const Diagnosis& d,
                             Format format) {
  // Rendered into a string, so that nothing is written when something fails.
  std::string text;
  {
    Out o(text);
    const Inputs& in = d.inputs;
    const Result& r = d.result;
    if (format == Format::Json) {
      o.print("{{\"scenario\": {}, ", json_string(loaded.name));
      json_point(o, s, r, &d);
      o.write(", \"needs\": {");
      bool first = true;
      if (d.workers_needed) {
        o.print("\"workers\": {}", json_number(*d.workers_needed));
        first = false;
      }
      o.print("{}\"storage_read_bandwidth_bytes_per_s\": {}", first ? "" : ", ",
              json_number(d.storage_bandwidth_needed));
      if (d.link_bandwidth_needed)
        o.print(", \"link_bandwidth_bytes_per_s\": {}", json_number(*d.link_bandwidth_needed));
      o.write("}, \"crossovers\": [");
      for (std::size_t i = 0; i < d.crossovers.size(); ++i)
        o.print("{}{{\"batch_size\": {}, \"stage\": \"{}\", \"input_binds_above\": {}}}", i ? ", " : "",
                json_number(d.crossovers[i].batch), stage_key(d.crossovers[i].input_stage),
                d.crossovers[i].input_binds_above ? "true" : "false");
      o.write("]}\n");
    } else if (format == Format::Csv) {
      o.write("stage,modelled,time_s,samples_per_s,share_of_step,binding\n");
      for (Stage st : kStages) {
        const auto& sr = r.stage(st);
        if (sr.modelled)
          o.print("{},true,{},{},{},{}\n", stage_key(st), json_number(sr.time_s),
                  json_number(in.batch / sr.time_s), json_number(sr.time_s / r.step_s),
                  r.binds(st) ? "true" : "false");
        else
          o.print("{},false,,,,false\n", stage_key(st));
      }
    } else {
      const bool md = format == Format::Markdown;
      o.print("{}{}\n", md ? "## " : "", loaded.name);
      std::string inputs = fmt::format(
          "batch {} | {} | {} per sample | {}", count(in.batch),
          plural(in.workers, "worker", "workers"), format_compact(in.sample_bytes, Dim::Size),
          plural(in.accelerators, "accelerator", "accelerators"));
      if (in.cores_per_accelerator)
        inputs += fmt::format(" | {} cores per accelerator",
                              format_compact(*in.cores_per_accelerator, Dim::Number));
      o.print("{}\n\n", inputs);

      Columns c{{23, 12, 11, 13, 7}, {false, true, true, true, false}};
      table_line(o, c, {"stage", "time/batch", "samples/s", "share of step", ""}, md);
      if (md) o.write("|---|---:|---:|---:|---|\n");
      for (Stage st : kStages) {
        const auto& sr = r.stage(st);
        if (!sr.modelled) {
          table_line(o, c, {std::string(stage_name(st)), "not modelled", "", "", ""}, md);
          continue;
        }
        table_line(o, c,
                   {std::string(stage_name(st)), dur(sr.time_s), fmt::format("{:.1f}", in.batch / sr.time_s),
                    percent(sr.time_s / r.step_s), r.binds(st) ? "binding" : ""},
                   md);
      }
      o.write("\n");
      const auto kv = [&](std::string_view k, const std::string& v) {
        if (md) o.print("- **{}**: {}\n", k, v);
        else o.print("{:<14} {}\n", k, v);
      };
      kv("binding wall", wall_sentence(d));
      kv("step", fmt::format("{} ({})", dur(r.step_s),
                             r.serial ? "workers = 0: stages run in turn, step = sum of stages"
                             : r.transfer_serialised
                                 ? "stages overlap, but the pageable copy adds to compute"
                                 : "stages overlap: step = slowest stage"));
      kv("utilization", fmt::format("{} (accelerator idle {} of every step)", percent(r.utilization),
                                    percent(1 - r.utilization)));
      kv("slowdown", fmt::format("{:.2f}x (step / compute)", r.slowdown));
      kv("throughput", fmt::format("{} ({} x batch {} / step)", samples(r.throughput),
                                   plural(in.accelerators, "accelerator", "accelerators"), count(in.batch)));
      kv("data demand", fmt::format("{} per accelerator (what compute consumes if never starved)",
                                    rate(r.data_demand)));
      if (r.samples_per_usd) {
        std::string cost = fmt::format("{} for the node, {:.0f} samples per USD",
                                       format_human(*r.price_per_hour, Dim::MoneyRate),
                                       *r.samples_per_usd);
        if (r.cost_per_epoch)
          cost += fmt::format("; an epoch costs {}, {} of it for idle accelerator time",
                              format_human(*r.cost_per_epoch, Dim::Money),
                              format_human(*r.idle_cost_per_epoch, Dim::Money));
        else
          cost += " (set workload.dataset_samples for the cost per epoch)";
        kv("cost", cost);
      }
      if (r.epoch_s)
        kv("epoch", fmt::format("{} for {} samples ({} of it the accelerator idles)", dur(*r.epoch_s),
                                count(*in.dataset_samples), dur(*r.epoch_s * (1 - r.utilization))));

      o.print("\n{}What moves the wall\n", md ? "### " : "");
      const std::string bullet = md ? "- " : "  - ";
      if (d.fixes.empty())
        o.print("{}Nothing to fix: the accelerator is the binding wall (utilization {}).\n", bullet,
                percent(r.utilization));
      for (const auto& f : d.fixes) o.print("{}{}\n", bullet, describe_fix(d, f));

      // Figures for the stages that are not binding or not modelled.
      if (d.workers_needed && !find_kind(d, FixKind::Workers) && !find_kind(d, FixKind::Overlap) &&
      !find_kind(d, FixKind::WorkersAndCores))
        o.print("{}Workers: {} per accelerator keep the transform at or under compute (now {}){}.\n",
                bullet, count(*d.workers_needed), count(in.workers),
                in.cores_per_accelerator && *in.cores_per_accelerator < *d.workers_needed
                    ? fmt::format(", but the node has only {} cores per accelerator",
                                  format_compact(*in.cores_per_accelerator, Dim::Number))
                    : std::string());
      if (!in.storage)
        o.print("{}Storage: not modelled; to keep up it must deliver {} per accelerator "
                "(set storage.read_bandwidth to model it).\n",
                bullet, rate(d.storage_bandwidth_needed / in.storage_shared_by));
      else if (!find_kind(d, FixKind::StorageBandwidth))
        o.print("{}Storage: {} read bandwidth is needed to keep up (have {}).\n", bullet,
                rate(d.storage_bandwidth_needed), rate(in.storage_bandwidth * in.storage_shared_by));
      if (!in.transfer)
        o.print("{}Transfer: not modelled (set link.bandwidth and workload.device_sample_size to model it).\n",
                bullet);
      else if (!find_kind(d, FixKind::LinkBandwidth))
        o.print("{}Link: {} host-to-device bandwidth is needed to keep up (have {}).\n", bullet,
                rate(*d.link_bandwidth_needed), rate(in.link_bandwidth * in.link_shared_by));
      for (const auto& cx : d.crossovers) {
        const std::string wall(stage_name(cx.input_stage));
        if (cx.input_binds_above)
          o.print("{}Crossover: the accelerator binds up to batch {}, the {} above it (crossing at {:.1f}).\n",
                  bullet, count(std::floor(cx.batch)), wall, cx.batch);
        else
          o.print("{}Crossover: the {} binds up to batch {}, the accelerator above it (crossing at {:.1f}).\n",
                  bullet, wall, count(std::floor(cx.batch)), cx.batch);
      }
      if (d.crossovers.empty() && !r.serial && (in.transform || in.storage || in.transfer))
        o.print("{}Crossover: none; the same wall binds at every batch size.\n", bullet);
    }
  }
  return text;
}

SweepWriter::SweepWriter(std::FILE* out, Format format, const std::vector<Axis>& axes, const Result& first,
                         bool cost)
    : out_(out), format_(format), cost_(cost) {
  for (const auto& a : axes)
    if (std::find(inputs_.begin(), inputs_.end(), a.field) == inputs_.end()) inputs_.push_back(a.field);
  for (Stage s : kStages)
    if (first.stage(s).modelled) stages_.push_back(s);
  // Tables show the swept inputs, innermost first, as people read left to right.
  std::reverse(inputs_.begin(), inputs_.end());
}

namespace {
constexpr std::size_t kNumWidth = 10;
std::string short_key(Field f) {
  const std::string_view k = spec(f).key;
  if (f == Field::BatchSize) return "batch";
  if (f == Field::Workers) return "workers";
  if (f == Field::SampleSize) return "sample size";
  return std::string(k);
}
std::string input_cell(const Scenario& s, Field f) {
  return s.dim(f) == Dim::Number ? format_compact(s.get(f), Dim::Number) : format_compact(s.get(f), s.dim(f));
}
}  // namespace

void SweepWriter::row(const Scenario& s, const Result& r, const std::string& binding,
                      const std::string* crossover_from, const Diagnosis* d) {
  const bool first = rows_++ == 0;
  switch (format_) {
    case Format::Json:
      out_.write(first ? "{\"rows\": [\n{" : ",\n{");
      json_point(out_, s, r, d);
      if (crossover_from) out_.write(", \"crossover\": true");
      out_.write("}");
      return;
    case Format::Csv: {
      if (first) {
        for (Field f : {Field::BatchSize, Field::Workers, Field::SampleSize}) out_.print("{},", spec(f).key);
        for (Field f : inputs_)
          if (f != Field::BatchSize && f != Field::Workers && f != Field::SampleSize) out_.print("{},", spec(f).key);
        out_.write("storage_time_s,transform_time_s,transfer_time_s,compute_time_s,step_time_s,binding,"
                   "utilization,slowdown,throughput_samples_per_s,data_demand_bytes_per_s,epoch_time_s,"
                   "crossover");
        out_.write(cost_ ? ",price_per_hour_usd,cost_per_epoch_usd,idle_cost_per_epoch_usd,samples_per_usd\n" : "\n");
      }
      for (Field f : {Field::BatchSize, Field::Workers, Field::SampleSize}) out_.print("{},", s.get(f));
      for (Field f : inputs_)
        if (f != Field::BatchSize && f != Field::Workers && f != Field::SampleSize) out_.print("{},", s.get(f));
      for (Stage st : kStages) {
        if (r.stage(st).modelled) out_.print("{},", r.stage(st).time_s);
        else out_.write(",");
      }
      out_.print("{},{},{},{},{},{},", r.step_s, binding, r.utilization, r.slowdown, r.throughput,
                 r.data_demand);
      if (r.epoch_s) out_.print("{}", *r.epoch_s);
      out_.write(crossover_from ? ",true" : ",false");
      if (cost_) {
        out_.print(",{},", *r.price_per_hour);
        if (r.cost_per_epoch) out_.print("{},{}", *r.cost_per_epoch, *r.idle_cost_per_epoch);
        else out_.write(",");
        out_.print(",{}", *r.samples_per_usd);
      }
      out_.write("\n");
      return;
    }
    case Format::Table:
    case Format::Markdown: {
      const bool md = format_ == Format::Markdown;
      Columns c;
      std::vector<std::string> cells;
      for (Field f : inputs_) {
        c.widths.push_back(std::max<std::size_t>(short_key(f).size(), f == Field::BatchSize ? 5 : 8));
        c.right.push_back(true);
        cells.push_back(input_cell(s, f));
      }
      for (Stage st : stages_) {
        c.widths.push_back(kNumWidth);
        c.right.push_back(true);
        cells.push_back(stage_cell(r, st));
      }
      c.widths.insert(c.widths.end(), {kNumWidth, 9, 11, 17});
      c.right.insert(c.right.end(), {true, false, true, true});
      cells.push_back(dur(r.step_s));
      cells.push_back(binding);
      cells.push_back(percent(r.utilization));
      cells.push_back(samples(r.throughput));
      if (cost_) {
        c.widths.insert(c.widths.end(), {10, 11});
        c.right.insert(c.right.end(), {true, true});
        cells.push_back(r.cost_per_epoch ? format_human(*r.cost_per_epoch, Dim::Money) : std::string("-"));
        cells.push_back(fmt::format("{:.0f}", *r.samples_per_usd));
      }
      c.widths.push_back(0);
      c.right.push_back(false);
      cells.push_back(crossover_from ? fmt::format("<- crossover ({} -> {})", *crossover_from, binding)
                                     : std::string());
      if (first) {
        std::vector<std::string> head;
        for (Field f : inputs_) head.push_back(short_key(f));
        for (Stage st : stages_) head.push_back(std::string(stage_key(st)));
        head.insert(head.end(), {"step", "binding", "utilization", "throughput"});
        if (cost_) head.insert(head.end(), {"cost/epoch", "samples/USD"});
        head.push_back("");
        table_line(out_, c, head, md);
        if (md) {
          std::string sep = "|";
          for (std::size_t i = 0; i < head.size(); ++i) sep += c.right[i] ? "---:|" : "---|";
          out_.print("{}\n", sep);
        }
      }
      table_line(out_, c, cells, md);
      return;
    }
  }
}

void SweepWriter::finish() {
  if (format_ == Format::Json) out_.write(rows_ ? "\n]}\n" : "{\"rows\": []}\n");
  out_.flush();
}

}  // namespace pipesim
