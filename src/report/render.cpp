#include "report/render.hpp"

#include <algorithm>
#include <cmath>

namespace pipesim {

namespace {

std::string dur(double s) { return format_human(s, Dim::Duration); }
std::string rate(double bps) { return format_human(bps, Dim::Rate); }
std::string samples(double sps) {
  // Below 0.1, one decimal would print 0.0: show three significant digits instead.
  return sps > 0 && sps < 0.1 ? fmt::format("{:.3g} samples/s", sps) : fmt::format("{:.1f} samples/s", sps);
}
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
  if (!after.compute_bound()) {
    std::string walls;
    for (Stage s : kStages)
      if (after.binds(s)) walls += fmt::format("{}{}", walls.empty() ? "" : " and the ", stage_name(s, after.transform_at));
    out += fmt::format(" (then the {} binds)", walls);
  }
  if (!after.fits) out += " (but the batch does not fit in accelerator memory)";
  return out;
}

// "8 workers", "6.5 workers" (cores shared between accelerators can give a fraction).
std::string workers_text(double w) {
  return fmt::format("{} {}", format_compact(w, Dim::Number), w == 1 ? "worker" : "workers");
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
                        : in.bandwidth_cap == BandwidthCap::NodeNetwork ? "the node's network bandwidth"
                        : in.bandwidth_cap == BandwidthCap::NodeClient  ? "the per-node client bandwidth"
                                                                        : "bandwidth";
    parts.push_back(fmt::format(
        "storage fetch, limited by {}: it delivers {} per accelerator, compute would consume {}",
        limit, rate(B * in.sample_bytes * (1 - in.cache_hit) / r.stage(Stage::Storage).time_s),
        rate(B * in.sample_bytes * (1 - in.cache_hit) / compute_s(r))));
  }
  if (r.binds(Stage::Transform)) {
    if (r.transform_limit == TransformLimit::Decoder)
      parts.push_back(fmt::format("hardware decode: the decoder delivers {} per accelerator, compute would take {}",
                                  samples(1 / in.decoder_seconds_per_sample), samples(B / compute_s(r))));
    else
      parts.push_back(fmt::format(
          "{}: {} x {} = {} per accelerator, compute would consume {}", stage_name(Stage::Transform, in),
          r.serial ? std::string("the main process") : workers_text(r.effective_workers),
          format_compact(worker_bytes_per_s(in), Dim::Rate), rate(r.effective_workers * worker_bytes_per_s(in)),
          rate(r.data_demand)));
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

// A field's value in JSON: true/false, a choice's name, or a number in base units.
std::string json_value(const FieldSpec& f, double v, Dim dim) {
  if (dim == Dim::Bool) return v != 0 ? "true" : "false";
  if (dim == Dim::Choice) return json_string(choice_name(f, v));
  return json_number(v);
}

// "12.58 GB/s read bandwidth (now 4.00 GB/s)" or "12 TiB of capacity (now 4 TiB), 12.00 GB/s".
std::string aggregate_change(const Diagnosis& d, const Change& c) {
  const Inputs& in = d.inputs;
  const std::string now = in.read_bandwidth ? rate(*in.read_bandwidth) : std::string("no limit");
  if (c.field == Field::StorageCapacity)
    return fmt::format("{} TiB of capacity for {} read bandwidth (now {})", count(c.value.value / kTiB),
                       rate(d.storage_bandwidth_needed), now);
  return fmt::format("{} read bandwidth (now {})", rate(c.value.value), now);
}

std::string walls_text(unsigned binding) {
  std::string out;
  for (Stage s : kStages)
    if ((binding >> static_cast<unsigned>(s)) & 1u) out += fmt::format("{}{}", out.empty() ? "" : "+", stage_key(s));
  return out;
}

// A JSON array of the stage keys in a binding bit set: ["storage", "transform"].
void json_walls(Out& o, unsigned binding) {
  o.write("[");
  bool first = true;
  for (Stage st : kStages) {
    if (!((binding >> static_cast<unsigned>(st)) & 1u)) continue;
    o.print("{}\"{}\"", first ? "" : ", ", stage_key(st));
    first = false;
  }
  o.write("]");
}

std::string stage_cell(const Result& r, Stage s) {
  return r.stage(s).modelled ? dur(r.stage(s).time_s) : std::string("-");
}

std::string storage_capacity_text(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const StorageCapacity& c = *d.storage_capacity;
  if (c.demand <= 0)
    return "Storage: after the first epoch every read is a page-cache hit, so storage limits no accelerator count";
  const double have = in.scope == StorageScope::Cluster ? in.accelerators * in.nodes : in.accelerators;
  std::string limits = c.by_bandwidth ? fmt::format("{} feeds {}", rate(*in.read_bandwidth), count(*c.by_bandwidth))
                                      : std::string("no aggregate bandwidth limit");
  if (c.by_iops)
    limits += fmt::format(", {} IOPS at {} per request feed {}", count(*in.iops_total),
                          format_compact(in.request_bytes, Dim::Size), count(*c.by_iops));
  if (!c.latency_ok)
    limits += fmt::format(", but {} outstanding requests of {} taking {} each deliver less than one accelerator reads",
                          format_compact(in.queue_depth, Dim::Number), format_compact(in.request_bytes, Dim::Size),
                          format_compact(request_service_time(in), Dim::Duration));
  std::string fed = c.accelerators ? plural(*c.accelerators, "accelerator", "accelerators")
                                   : std::string("any number of accelerators");
  if (c.accelerators && *c.accelerators == 0) fed = "not even one accelerator";
  std::string out = fmt::format(
      "Storage: each accelerator reads {} at {} utilization; the storage feeds {} ({}){}; this {} has {}",
      rate(c.demand), percent(c.target), fed, limits,
      c.per_node ? fmt::format("; one node's {} of {} feeds {} of its own", 
                               in.node_cap_kind == BandwidthCap::NodeNetwork ? "network" : "client limit",
                               rate(*in.node_cap), count(*c.per_node))
                 : std::string(),
      in.scope == StorageScope::Cluster ? "cluster" : "node", count(have));
  return out;
}

std::string cores_text(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const CoreNeeds& c = *d.cores;
  std::string out = fmt::format(
      "Cores: {} per accelerator keep up with compute ({} for {}), plus {} reserved for its training process: "
      "{} cores per node ({} for {})",
      plural(c.workers_full, "worker", "workers"), count(c.workers_target), percent(in.target_utilization),
      format_compact(c.reserved_per_accelerator, Dim::Number), count(c.node_full), count(c.node_target),
      percent(in.target_utilization));
  if (in.node_cores) out += fmt::format("; the node has {}", format_compact(*in.node_cores, Dim::Number));
  return out;
}

}  // namespace

std::string binding_text(const Result& r) { return walls_text(r.binding); }

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
          "CPU: the transform needs {} per accelerator, but the node has {} cores per accelerator for workers; "
          "{} cores for the node ({} reserved for training processes) with {} workers per accelerator: {}",
          plural(value(0), "worker", "workers"), format_compact(*in.cores_per_accelerator, Dim::Number),
          count(value(1)), format_compact(in.reserved_cores, Dim::Number), count(value(0)), gain(d, after));
    case FixKind::DecodeOnDecoder:
      return fmt::format("Decode on the accelerator's hardware decoder ({}, transform.device = decoder): {}",
                         samples(d.scenario_decoder_rate), gain(d, after));
    case FixKind::DecodeOnGpu:
      return fmt::format(
          "Decode on the GPU (DALI/nvJPEG, {} of accelerator time per sample, transform.device = gpu): {}",
          format_compact(d.scenario_gpu_time, Dim::Duration), gain(d, after));
    case FixKind::Predecoded:
      return fmt::format(
          "Pre-decoded dataset: store {} per sample (now {}) that a worker transforms at {}: {}{}",
          format_compact(value(0), Dim::Size), format_compact(in.sample_bytes, Dim::Size),
          format_compact(value(1), Dim::SampleRate), gain(d, after),
          in.dataset_samples ? fmt::format("; the dataset grows to {}",
                                           format_human(*in.dataset_samples * value(0), Dim::Size))
                             : std::string());
    case FixKind::FitMemory:
      return fmt::format("Batch size {} (now {}) is the largest that fits in {} of accelerator memory: {}",
                         count(value(0)), count(in.batch), format_human(*in.memory_capacity, Dim::Size),
                         gain(d, after));
    case FixKind::AllTogether:
      return fmt::format("All of the above but the batch size, together: {}", gain(d, after));
    case FixKind::StorageBandwidth:
      if (fix.changes.at(0).field == Field::NetworkBandwidth || fix.changes.at(0).field == Field::NodeStorageBandwidth)
        return fmt::format("Storage: {} per node (now {}, {}){}: {}", rate(value(0)), rate(*in.node_cap),
                           fix.changes.at(0).field == Field::NetworkBandwidth ? "the node's network"
                                                                              : "the per-node client limit",
                           fix.changes.size() > 1 ? fmt::format(" and {}", aggregate_change(d, fix.changes[1]))
                                                  : std::string(),
                           gain(d, after));
      return fmt::format("Storage: {}: {}", aggregate_change(d, fix.changes[0]), gain(d, after));
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
    o.print("{}{}: {}", first ? "" : ", ", json_string(f.key), json_value(f, s.get(f.field), s.dim(f.field)));
    first = false;
  }
  o.write("}, \"stages\": [");
  for (Stage st : kStages) {
    const auto& sr = r.stage(st);
    o.print("{}{{\"name\": \"{}\", \"modelled\": {}", st == Stage::Storage ? "" : ", ",
            stage_key(st), sr.modelled ? "true" : "false");
    if (sr.modelled) o.print(", \"time_s\": {}", json_number(sr.time_s));
    // A stage that takes no time (every read from page cache) has no finite rate.
    if (sr.modelled && sr.time_s > 0)
      o.print(", \"samples_per_s\": {}", json_number(s.get(Field::BatchSize) / sr.time_s));
    o.write("}");
  }
  o.print("], \"step_time_s\": {}, \"binding\": ", json_number(r.step_s));
  json_walls(o, r.binding);
  o.print(", \"utilization\": {}, \"slowdown\": {}, \"throughput_samples_per_s\": {}, "
          "\"throughput_per_node_samples_per_s\": {}, \"throughput_per_accelerator_samples_per_s\": {}, "
          "\"data_demand_bytes_per_s\": {}, \"serial\": {}",
          json_number(r.utilization), json_number(r.slowdown), json_number(r.throughput),
          json_number(r.throughput_per_node), json_number(r.throughput_per_accelerator),
          json_number(r.data_demand), r.serial ? "true" : "false");
  if (r.stage(Stage::Storage).modelled) o.print(", \"cache_hit\": {}", json_number(r.cache_hit));
  if (r.cold) {
    o.print(", \"first_epoch\": {{\"cache_hit\": {}, \"storage_time_s\": {}, \"step_time_s\": {}, "
            "\"utilization\": {}, \"throughput_samples_per_s\": {}, \"binding\": ",
            json_number(r.cold->cache_hit), json_number(r.cold->storage_s), json_number(r.cold->step_s),
            json_number(r.cold->utilization), json_number(r.cold->throughput));
    json_walls(o, r.cold->binding);
    if (r.cold->epoch_s) o.print(", \"epoch_time_s\": {}", json_number(*r.cold->epoch_s));
    o.write("}");
  }
  if (r.memory_needed)
    o.print(", \"memory_needed_bytes\": {}, \"fits\": {}", json_number(*r.memory_needed), r.fits ? "true" : "false");
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
                json_value(spec(ch.field), ch.value.value, ch.value.dim));
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
      if (d.cores)
        o.print(", \"workers_at_target\": {}, \"cores_per_accelerator\": {}, \"node_cores\": {}, "
                "\"node_cores_at_target\": {}",
                json_number(d.cores->workers_target),
                json_number(d.cores->workers_full + d.cores->reserved_per_accelerator),
                json_number(d.cores->node_full), json_number(d.cores->node_target));
      if (d.max_batch) o.print(", \"max_batch_size\": {}", json_number(*d.max_batch));
      o.write("}");
      if (d.storage_capacity) {
        const auto& c = *d.storage_capacity;
        o.print(", \"storage_capacity\": {{\"target_utilization\": {}, \"demand_bytes_per_s\": {}",
                json_number(c.target), json_number(c.demand));
        const auto opt = [&](std::string_view key, const std::optional<double>& v) {
          if (v) o.print(", \"{}\": {}", key, json_number(*v));
        };
        opt("accelerators", c.accelerators);
        opt("by_bandwidth", c.by_bandwidth);
        opt("by_iops", c.by_iops);
        opt("per_node", c.per_node);
        o.print(", \"latency_ok\": {}}}", c.latency_ok ? "true" : "false");
      }
      o.write(", \"crossovers\": [");
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
                  sr.time_s > 0 ? json_number(in.batch / sr.time_s) : std::string(),
                  json_number(sr.time_s / r.step_s), r.binds(st) ? "true" : "false");
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
      if (in.nodes > 1) inputs += fmt::format(" per node x {} nodes", count(in.nodes));
      if (in.cores_per_accelerator)
        inputs += fmt::format(" | {} cores per accelerator for workers ({} on the node, {} reserved)",
                              format_compact(*in.cores_per_accelerator, Dim::Number),
                              format_compact(*in.node_cores, Dim::Number),
                              format_compact(in.reserved_cores, Dim::Number));
      o.print("{}\n\n", inputs);

      Columns c{{23, 12, 11, 13, 7}, {false, true, true, true, false}};
      table_line(o, c, {"stage", "time/batch", "samples/s", "share of step", ""}, md);
      if (md) o.write("|---|---:|---:|---:|---|\n");
      for (Stage st : kStages) {
        const auto& sr = r.stage(st);
        if (!sr.modelled) {
          table_line(o, c, {std::string(stage_name(st, in)), "not modelled", "", "", ""}, md);
          continue;
        }
        table_line(o, c,
                   {std::string(stage_name(st, in)), dur(sr.time_s),
                    sr.time_s > 0 ? fmt::format("{:.1f}", in.batch / sr.time_s) : std::string("cached"),
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
      if (in.nodes > 1)
        kv("throughput", fmt::format("{} for the cluster ({} nodes x {} x batch {} / step); {} per node, {} per "
                                     "accelerator",
                                     samples(r.throughput), count(in.nodes),
                                     plural(in.accelerators, "accelerator", "accelerators"), count(in.batch),
                                     samples(r.throughput_per_node), samples(r.throughput_per_accelerator)));
      else if (in.accelerators > 1)
        kv("throughput", fmt::format("{} for the node ({} accelerators x batch {} / step); {} per accelerator",
                                     samples(r.throughput), count(in.accelerators), count(in.batch),
                                     samples(r.throughput_per_accelerator)));
      else
        kv("throughput", fmt::format("{} (1 accelerator x batch {} / step)", samples(r.throughput), count(in.batch)));
      std::string demand = fmt::format("{} per accelerator (what compute consumes if never starved)",
                                       rate(r.data_demand));
      if (in.accelerators > 1) demand += fmt::format("; {} per node", rate(r.data_demand * in.accelerators));
      if (in.nodes > 1) demand += fmt::format("; {} for the cluster", rate(r.data_demand * in.accelerators * in.nodes));
      kv("data demand", demand);
      if (in.cache_from_page_cache) {
        std::string cache = fmt::format("{} of {} dataset fits in {} of page cache per node: later epochs read {} from "
                                        "cache",
                                        percent(r.cache_hit), format_human(in.dataset_bytes, Dim::Size),
                                        format_human(in.page_cache_bytes, Dim::Size), percent(r.cache_hit));
        if (r.cold)
          cache += fmt::format("; the first epoch reads everything from storage: storage {}, step {}, utilization "
                               "{}, {} binding{}",
                               dur(r.cold->storage_s), dur(r.cold->step_s), percent(r.cold->utilization),
                               walls_text(r.cold->binding),
                               r.cold->epoch_s ? fmt::format(", epoch {}", dur(*r.cold->epoch_s)) : std::string());
        else
          cache += " (none of it: every epoch reads from storage)";
        kv("page cache", cache);
      }
      if (r.memory_needed) {
        std::string mem = fmt::format("batch {} needs {} of {} ({}{})", count(in.batch),
                                      format_human(*r.memory_needed, Dim::Size),
                                      format_human(*in.memory_capacity, Dim::Size),
                                      in.training ? "weights, gradients and optimizer state" : "weights",
                                      in.activation_bytes ? " and activations" : "; activations not given");
        if (!r.fits) mem = "DOES NOT FIT: " + mem + "; the figures above cannot run";
        if (d.max_batch) mem += fmt::format("; the largest batch that fits is {}", count(*d.max_batch));
        kv("memory", mem);
      }
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
      if (d.fixes.empty() && !r.fits)
        o.print("{}Nothing runs: the model's weights and state alone need {} of {} of accelerator memory; shard "
                "them across accelerators or use an accelerator with more memory.\n",
                bullet, format_human(in.memory_static, Dim::Size), format_human(*in.memory_capacity, Dim::Size));
      else if (d.fixes.empty())
        o.print("{}Nothing to fix: the accelerator is the binding wall (utilization {}).\n", bullet,
                percent(r.utilization));
      for (const auto& f : d.fixes) o.print("{}{}\n", bullet, describe_fix(d, f));

      // Figures for the stages that are not binding or not modelled.
      if (d.workers_needed && !find_kind(d, FixKind::Workers) && !find_kind(d, FixKind::Overlap) &&
          !find_kind(d, FixKind::WorkersAndCores))
        o.print("{}Workers: {} per accelerator keep the transform at or under compute (now {}){}.\n",
                bullet, count(*d.workers_needed), count(in.workers),
                in.cores_per_accelerator && *in.cores_per_accelerator < *d.workers_needed
                    ? fmt::format(", but the node has only {} cores per accelerator for workers",
                                  format_compact(*in.cores_per_accelerator, Dim::Number))
                    : std::string());
      if (!in.storage)
        o.print("{}Storage: not modelled; to keep up it must deliver {} per accelerator "
                "(set storage.read_bandwidth to model it).\n",
                bullet, rate(d.storage_bandwidth_needed / in.storage_shared_by));
      else if (in.cache_hit >= 1)
        o.print("{}Storage: after the first epoch every read is a page-cache hit; the first epoch needs {} read "
                "bandwidth to keep up (have {}).\n",
                bullet, rate(in.batch * in.sample_bytes * in.storage_shared_by / r.stage(Stage::Compute).time_s),
                in.read_bandwidth ? rate(*in.read_bandwidth) : std::string("no aggregate limit"));
      else if (!find_kind(d, FixKind::StorageBandwidth))
        o.print("{}Storage: {} read bandwidth is needed to keep up (have {}).\n", bullet,
                rate(d.storage_bandwidth_needed),
                in.read_bandwidth ? rate(*in.read_bandwidth) : std::string("no aggregate limit"));
      if (!in.transfer)
        o.print("{}Transfer: not modelled (set link.bandwidth and the bytes per sample on the device to model it).\n",
                bullet);
      else if (!find_kind(d, FixKind::LinkBandwidth))
        o.print("{}Link: {} host-to-device bandwidth is needed to keep up (have {}{}).\n", bullet,
                rate(*d.link_bandwidth_needed), rate(in.link_bandwidth * in.link_shared_by),
                in.pinned ? "" : ", pageable");
      for (const auto& cx : d.crossovers) {
        const std::string wall(stage_name(cx.input_stage, in));
        if (cx.input_binds_above)
          o.print("{}Crossover: the accelerator binds up to batch {}, the {} above it (crossing at {:.1f}).\n",
                  bullet, count(std::floor(cx.batch)), wall, cx.batch);
        else
          o.print("{}Crossover: the {} binds up to batch {}, the accelerator above it (crossing at {:.1f}).\n",
                  bullet, wall, count(std::floor(cx.batch)), cx.batch);
      }
      if (d.crossovers.empty() && !r.serial && (in.transform || in.storage || in.transfer))
        o.print("{}Crossover: none; the same wall binds at every batch size.\n", bullet);

      if (d.storage_capacity || d.cores) {
        o.print("\n{}Capacity at {} utilization\n", md ? "### " : "", percent(in.target_utilization));
        if (d.storage_capacity) o.print("{}{}\n", bullet, storage_capacity_text(d));
        if (d.cores) o.print("{}{}\n", bullet, cores_text(d));
      }
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
std::string input_cell(const Scenario& s, Field f) { return format_value(spec(f), s.get(f), s.dim(f)); }
// CSV: numbers in base units, choices by name.
std::string csv_input(const Scenario& s, Field f) {
  if (s.dim(f) == Dim::Choice) return std::string(choice_name(spec(f), s.get(f)));
  return fmt::format("{}", s.get(f));
}
}  // namespace

void SweepWriter::row(const SweepPoint& p) {
  const Scenario& s = p.scenario;
  const Result& r = p.result;
  const Diagnosis* d = p.diagnosis;
  const std::string binding = binding_text(r);
  const std::optional<std::string> crossover_from =
      p.crossed_from ? std::optional(walls_text(*p.crossed_from)) : std::nullopt;
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
                   "crossover,memory_needed_bytes,fits");
        out_.write(cost_ ? ",price_per_hour_usd,cost_per_epoch_usd,idle_cost_per_epoch_usd,samples_per_usd\n" : "\n");
      }
      for (Field f : {Field::BatchSize, Field::Workers, Field::SampleSize}) out_.print("{},", s.get(f));
      for (Field f : inputs_)
        if (f != Field::BatchSize && f != Field::Workers && f != Field::SampleSize) out_.print("{},", csv_input(s, f));
      for (Stage st : kStages) {
        if (r.stage(st).modelled) out_.print("{},", r.stage(st).time_s);
        else out_.write(",");
      }
      out_.print("{},{},{},{},{},{},", r.step_s, binding, r.utilization, r.slowdown, r.throughput,
                 r.data_demand);
      if (r.epoch_s) out_.print("{}", *r.epoch_s);
      out_.write(crossover_from ? ",true," : ",false,");
      if (r.memory_needed) out_.print("{}", *r.memory_needed);
      out_.write(r.fits ? ",true" : ",false");
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
      // A batch that does not fit in accelerator memory does not run: no step, no throughput.
      const std::string none = "-";
      cells.push_back(r.fits ? dur(r.step_s) : none);
      cells.push_back(r.fits ? binding : std::string("no fit"));
      cells.push_back(r.fits ? percent(r.utilization) : none);
      cells.push_back(r.fits ? samples(r.throughput) : none);
      if (cost_) {
        c.widths.insert(c.widths.end(), {10, 11});
        c.right.insert(c.right.end(), {true, true});
        cells.push_back(r.cost_per_epoch && r.fits ? format_human(*r.cost_per_epoch, Dim::Money) : none);
        cells.push_back(r.fits ? fmt::format("{:.0f}", *r.samples_per_usd) : none);
      }
      c.widths.push_back(0);
      c.right.push_back(false);
      if (!r.fits)
        cells.push_back(fmt::format("<- does not fit: needs {} of accelerator memory",
                                    format_human(*r.memory_needed, Dim::Size)));
      else
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
