#include "report/text_report.hpp"

#include <algorithm>
#include <cmath>

#include "config/presets.hpp"
#include "core/base/text.hpp"
#include "report/check_words.hpp"
#include "report/diagnosis_words.hpp"
#include "report/simulation_words.hpp"
#include "report/text_table.hpp"
#include "report/words.hpp"

namespace pipesim {

namespace {

// One "key: value" line of a report: aligned text (wrapped to `columns` when not 0, hanging
// under the value), or a markdown bullet.
void key_value(Out& o, bool md, std::string_view k, const std::string& v, std::size_t columns = 0) {
  if (md)
    o.print("- **{}**: {}\n", k, v);
  else if (columns > 0)
    o.write(wrap_hanging(fmt::format("{:<14} ", k), v, columns) + "\n");
  else
    o.print("{:<14} {}\n", k, v);
}

// The bullets and headings of a report's sections, each line wrapped to `columns`: a bullet's
// further lines hang under its text.
std::string wrap_sections(std::string_view text, std::size_t columns) {
  std::string out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    const std::string_view bullet = "  - ";
    out += line.starts_with(bullet) ? wrap_hanging(bullet, line.substr(bullet.size()), columns) : wrap(line, columns);
    if (end != std::string_view::npos) out += '\n';
  }
  return out;
}

// A stage's time: "-" when not modelled, "cached" for a read the page cache serves whole.
std::string stage_cell(const Result& r, Stage s) {
  if (!r.stage(s).modelled) return "-";
  if (r.stage(s).time_s == 0) return s == Stage::Storage ? "cached" : "none";
  return dur(r.stage(s).time_s);
}

}  // namespace

namespace {

// What moves the wall, the capacity answers and the assumptions: headings and bullets.
// When there is no fix: why (nothing fits in memory, or the accelerator binds).
void nothing_to_fix(Out& o, const Diagnosis& d, std::string_view bullet) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  if (d.fixes.empty() && !r.fits && in.compute.memory_static > *in.compute.memory_capacity)
    o.print(
        "{}Nothing runs: the model's weights and state alone need {} of {} of accelerator memory; shard "
        "them across accelerators or use an accelerator with more memory.\n",
        bullet, format_human(in.compute.memory_static, Dim::Size),
        format_human(*in.compute.memory_capacity, Dim::Size));
  else if (d.fixes.empty() && !r.fits)
    o.print(
        "{}Nothing runs: one sample's activations ({}) do not fit beside the model's state ({}) in {} of "
        "accelerator memory; use an accelerator with more memory, or less activation memory per sample.\n",
        bullet, format_human(in.compute.activation_bytes.value_or(0), Dim::Size),
        format_human(in.compute.memory_static, Dim::Size), format_human(*in.compute.memory_capacity, Dim::Size));
  else if (d.fixes.empty() && !r.compute_bound() && r.binds(Stage::Transform) &&
           r.stage(Stage::Transform).limit == Limit::Decoder)
    o.print(
        "{}No fix: the hardware decoder binds, and no worker or CPU moves it; decode fewer frames per sample "
        "(workload.frames_per_sample) or elsewhere (transform.device).\n",
        bullet);
  else if (d.fixes.empty() && !r.compute_bound())
    o.print("{}No fix found: no change pipesim tries moves the binding wall.\n", bullet);
  else if (d.fixes.empty() && r.upper_bound())
    o.print("{}Nothing to fix among the modelled stages: the accelerator is their binding wall.\n", bullet);
  else if (d.fixes.empty())
    o.print("{}Nothing to fix: the accelerator is the binding wall (utilization {}).\n", bullet,
            percent(r.utilization));
}

// Figures for the stages that are not binding or not modelled: the workers, the knee, the CPUs
// beside the training process, storage and the link.
void other_stages(Out& o, const Diagnosis& d, std::string_view bullet) {
  const Inputs& in = d.inputs;
  if (d.cores && !d.cores->reachable)
    o.print(
        "{}Workers: no number keeps the transform at or under compute: the scaling law (cpu.scaling_*) "
        "caps them at {} single-worker rates.\n",
        bullet, format_human(d.cores->most_rates, Dim::Number));
  else if (d.workers_needed && !has_fix(d, FixKind::Workers) && !has_fix(d, FixKind::Overlap) &&
           !has_fix(d, FixKind::WorkersAndCores))
    o.print("{}Workers: {} per accelerator keep the transform at or under compute (now {}){}.\n", bullet,
            count(*d.workers_needed), count(in.workers),
            in.transform.cores_per_accelerator && *in.transform.cores_per_accelerator < *d.workers_needed
                ? fmt::format(", but the node has only {} per accelerator for workers",
                              cpus(*in.transform.cores_per_accelerator))
                : std::string());
  if (d.cores) o.print("{}{}\n", bullet, knee_sentence(d));
  if (const std::string past = beside_training_sentence(d); !past.empty()) o.print("{}{}\n", bullet, past);
  if (!in.storage.modelled)
    o.print(
        "{}Storage: not modelled; to keep up it must deliver {} per accelerator "
        "(set storage.read_bandwidth to model it).\n",
        bullet, rate(d.storage_bandwidth_needed_per_accelerator));
  else if (const auto& first = d.first_epoch_storage_needed)
    o.print("{}Storage: {} every read is a page-cache hit; the first epoch needs {} to keep up (have {}).\n", bullet,
            warm_epochs(d.result), storage_needs_text(d, *first), storage_has_text(d, *first));
  else if (!has_fix(d, FixKind::StorageBandwidth) && !has_fix(d, FixKind::StorageIops) &&
           !has_fix(d, FixKind::StorageQueueDepth) && !has_fix(d, FixKind::StorageRequestSize) &&
           !has_fix(d, FixKind::LocalCache)) {
    const StorageNeeds& n = d.storage_needed;
    const bool one = !n.iops && !n.queue_depth && !n.node_bandwidth;
    o.print("{}Storage: {} {} needed to keep up (have {}).\n", bullet, storage_needs_text(d, n), one ? "is" : "are",
            storage_has_text(d, n));
  }
  if (!in.transfer.modelled)
    o.print("{}Transfer: not modelled (set link.bandwidth and the bytes per sample on the device to model it).\n",
            bullet);
  else if (!has_fix(d, FixKind::LinkBandwidth)) {
    // The link keeps up, but the pin thread or the interpreter lock may set the transfer's time.
    const StageResult& t = d.result.stage(Stage::Transfer);
    const bool thread = t.limit == Limit::PinThread || t.limit == Limit::InterpreterLock;
    o.print("{}Link: {} host-to-device bandwidth is needed to keep up (have {}{}){}.\n", bullet,
            rate(*d.link_bandwidth_needed), rate(in.transfer.copy_bandwidth), in.transfer.pinned ? "" : ", pageable",
            thread && t.time_s > d.result.stage(Stage::Compute).time_s
                ? fmt::format("; the transfer takes {} per batch all the same, set by the training process's {}, "
                              "which a faster link does not change",
                              format_human(t.time_s, Dim::Duration),
                              t.limit == Limit::PinThread ? "pin thread" : "interpreter lock")
                : std::string());
  }
}

// Where the binding wall changes with the batch size.
void crossover_lines(Out& o, const Diagnosis& d, std::string_view bullet) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  for (const auto& cx : d.crossovers) {
    const std::string wall(stage_name(cx.input_stage, r.transform_at));
    const std::string at = group_thousands(fmt::format("{:.1f}", cx.batch));
    if (cx.input_binds_above)
      o.print("{}Crossover: the accelerator binds up to batch {}, the {} above it (crossing at {}).\n", bullet,
              count(cx.last_batch), wall, at);
    else
      o.print("{}Crossover: the {} binds up to batch {}, the accelerator above it (crossing at {}).\n", bullet, wall,
              count(cx.last_batch), at);
  }
  if (d.crossovers.empty() && !r.serial && (in.transform.modelled || in.storage.modelled || in.transfer.modelled))
    o.print("{}Crossover: none; the same wall binds at every batch size.\n", bullet);
}

void diagnosis_sections(Out& o, const Diagnosis& d, bool md) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  o.print("\n{}What moves the wall\n", md ? "### " : "");
  const std::string bullet = md ? "- " : "  - ";
  nothing_to_fix(o, d, bullet);
  if (r.upper_bound()) o.print("{}{}\n", bullet, upper_bound_sentence(r));
  for (const auto& f : d.fixes) o.print("{}{}\n", bullet, describe_fix(d, f));
  if (!d.losses.empty()) o.print("{}{}\n", bullet, losses_sentence(d));

  other_stages(o, d, bullet);
  crossover_lines(o, d, bullet);

  if (d.storage_capacity || d.cores) {
    o.print("\n{}Capacity at {} utilization\n", md ? "### " : "", percent(in.target_utilization));
    if (d.spread_ceiling)
      o.print(
          "{}Out of reach: the accelerators' wait for the slowest of them (model.step_cv) caps utilization at {} "
          "whatever feeds them; the counts below keep the input pipeline at the target's pace\n",
          bullet, percent(*d.spread_ceiling));
    if (d.storage_capacity) o.print("{}{}\n", bullet, storage_capacity_text(d));
    if (d.cores) o.print("{}{}\n", bullet, cores_text(d));
  }
  if (!d.assumptions.empty()) {
    o.print("\n{}Assumed (defaults that decide this answer; set the key to replace one)\n", md ? "### " : "");
    for (const Assumption& a : d.assumptions) o.print("{}{}\n", bullet, a.text);
  }
  if (!d.unused.empty()) {
    o.print("\n{}Unused (keys you set that change nothing this diagnosis computes)\n", md ? "### " : "");
    for (const UnusedKey& u : d.unused) o.print("{}{}: {}\n", bullet, unused_key_name(u), u.reason);
  }
}

}  // namespace

namespace {

// The line under the title: batch, workers, sample size, accelerators and the CPUs for workers.
std::string inputs_line(const Inputs& in) {
  std::string inputs = fmt::format(
      "batch {} | {} | {} per sample | {}", count(in.batch), plural(in.workers, "worker", "workers"),
      format_significant(in.sample_bytes, Dim::Size, 4), plural(in.accelerators, "accelerator", "accelerators"));
  if (in.nodes > 1) inputs += fmt::format(" per node x {} nodes", count(in.nodes));
  if (in.transform.cores_per_accelerator)
    inputs += fmt::format(
        " | {} per accelerator for workers ({} on the node{}, {} reserved)", cpus(*in.transform.cores_per_accelerator),
        format_compact(*in.transform.node_cores, Dim::Number),
        in.transform.threads_per_core > 1
            ? fmt::format(": {} threads per core", format_compact(in.transform.threads_per_core, Dim::Number))
            : std::string(),
        format_compact(in.transform.reserved_cores, Dim::Number));
  return inputs;
}

// Each stage's time per batch, rate and share of the step, and which binds.
void stage_table(Out& o, const Result& r, bool md) {
  TextTable stages({{"stage", false, 23},
                    {"time/batch", true, 12},
                    {"samples/s", true, 11},
                    {"share of step", true, 13},
                    {"", false, 7}},
                   md);
  for (Stage st : kStages) {
    const auto& sr = r.stage(st);
    if (!sr.modelled) {
      stages.add({std::string(stage_name(st, r.transform_at)), "not modelled", "", "", ""});
      continue;
    }
    // A stage that takes no time is a cached read (or a stage with nothing to move): its rate
    // is unbounded, so the rate cell stays empty rather than showing inf.
    stages.add({std::string(stage_name(st, r.transform_at)), stage_cell(r, st),
                sr.time_s > 0 ? format_number(sr.samples_per_s) : std::string(), percent(sr.share_of_step),
                sr.binding ? "binding" : ""});
  }
  stages.render(o);
}

std::string throughput_text(const Inputs& in, const Result& r) {
  if (in.nodes > 1)
    return fmt::format(
        "{} for the cluster ({} nodes x {} x batch {} / step); {} per node, {} per "
        "accelerator",
        samples(r.throughput), count(in.nodes), plural(in.accelerators, "accelerator", "accelerators"), count(in.batch),
        samples(r.throughput_per_node), samples(r.throughput_per_accelerator));
  if (in.accelerators > 1)
    return fmt::format("{} for the node ({} accelerators x batch {} / step); {} per accelerator", samples(r.throughput),
                       count(in.accelerators), count(in.batch), samples(r.throughput_per_accelerator));
  return fmt::format("{} (1 accelerator x batch {} / step)", samples(r.throughput), count(in.batch));
}

// How much of the dataset the page cache holds, over epochs, and the cold first epoch.
std::string page_cache_text(const Inputs& in, const Result& r) {
  const bool own_shard = in.nodes > 1 && in.storage.shards <= 1;
  std::string cache =
      fmt::format("{} of {} {} fits in {} of {} per node: {} read {} from cache", percent(r.cache_hit),
                  format_human(in.storage.cached_share_bytes, Dim::Size),
                  own_shard ? "shard (each node reads the same one every epoch, cluster.reshuffle = false)" : "dataset",
                  format_human(in.storage.page_cache_bytes, Dim::Size),
                  in.storage.local_cache_bytes > 0 ? "page cache and local cache" : "page cache",
                  r.warmup ? "once warm, epochs" : "later epochs", percent(r.cache_hit));
  if (r.warmup)
    cache += fmt::format(
        "; each of the {} nodes reads a different random share every epoch (cluster.reshuffle), so its cache "
        "warms over epochs: epoch 2 reads {} from cache, epoch 3 {}, epoch 5 {}, epoch 10 {}, within 1% of "
        "{} from epoch {}",
        count(r.warmup->shards), percent(r.warmup->hits[0]), percent(r.warmup->hits[1]), percent(r.warmup->hits[2]),
        percent(r.warmup->hits[3]), percent(r.cache_hit), count(r.warmup->near_epoch));
  if (r.cold)
    cache += fmt::format(
        "; the first epoch reads everything from storage: storage {}, step {}, utilization "
        "{}, {} binding{}",
        dur(r.cold->storage_s), dur(r.cold->step_s), percent(r.cold->utilization), walls_text(r.cold->binding),
        r.cold->epoch_s ? fmt::format(", epoch {}", dur(*r.cold->epoch_s)) : std::string());
  else
    cache += " (none of it: every epoch reads from storage)";
  return cache;
}

std::string memory_text(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  std::string mem =
      fmt::format("batch {} needs {} of {} ({}{})", count(in.batch), format_human(*r.memory_needed, Dim::Size),
                  format_human(*in.compute.memory_capacity, Dim::Size),
                  !in.compute.weights_counted ? "activations; weights not given"
                  : in.compute.training       ? "weights, gradients and optimizer state"
                                              : "weights",
                  !in.compute.weights_counted   ? ""
                  : in.compute.activation_bytes ? " and activations"
                                                : "; activations not given");
  if (!r.fits) mem = "DOES NOT FIT: " + mem + "; the figures above cannot run";
  if (d.max_batch) mem += fmt::format("; the largest batch that fits is {}", count(*d.max_batch));
  return mem;
}

std::string cost_text(const Result& r, double nodes) {
  const std::string price = format_human(*r.price_per_hour, Dim::MoneyRate);
  std::string cost = nodes > 1 ? fmt::format("{} for the cluster ({} per node)", price,
                                             format_human(*r.price_per_hour / nodes, Dim::MoneyRate))
                               : price + " for the node";
  cost += fmt::format(", {} samples per USD", format_number(*r.samples_per_usd));
  if (r.cost_per_epoch)
    cost += fmt::format("; an epoch costs {}, {} of it for idle accelerator time",
                        format_human(*r.cost_per_epoch, Dim::Money), format_human(*r.idle_cost_per_epoch, Dim::Money));
  else
    cost += " (set workload.dataset_samples for the cost per epoch)";
  return cost;
}

}  // namespace

void text_diagnosis(Out& o, const LoadedScenario& loaded, const Diagnosis& d, bool md, std::size_t columns) {
  if (md) columns = 0;
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  const std::string title = fmt::format("{}{}\n", md ? "## " : "", shown(loaded.name, md));
  o.write(columns > 0 ? wrap(title, columns) : title);
  const std::string inputs = inputs_line(in);
  o.print("{}\n\n", columns > 0 ? wrap(inputs, columns) : inputs);

  stage_table(o, r, md);
  o.write("\n");
  const auto kv = [&](std::string_view k, const std::string& v) { key_value(o, md, k, v, columns); };
  kv("binding wall", wall_sentence(d));
  kv("step", fmt::format("{} ({})", dur(r.step_s),
                         r.serial                ? "workers = 0: stages run in turn, step = sum of stages"
                         : r.transfer_serialised ? "stages overlap, but the pageable copy adds to compute"
                                                 : "stages overlap: step = slowest stage"));
  kv("utilization",
     fmt::format("{} (accelerator idle {} of every step)", percent(r.utilization), percent(r.idle_fraction)));
  kv("slowdown", ratio_text(r.slowdown) + " (step / compute)");
  kv("throughput", throughput_text(in, r));
  std::string demand = fmt::format("{} per accelerator (what compute consumes if never starved)", rate(r.data_demand));
  if (in.accelerators > 1) demand += fmt::format("; {} per node", rate(r.data_demand_per_node));
  if (in.nodes > 1) demand += fmt::format("; {} for the cluster", rate(r.data_demand_per_cluster));
  kv("data demand", demand);
  if (in.padding > 1)
    kv("padding", fmt::format("each batch padded to its longest sample{}: {} the data of its samples unpadded, on "
                              "the device, in compute and in activations",
                              in.length_buckets > 1 ? fmt::format(" within one of {} length buckets",
                                                                  format_compact(in.length_buckets, Dim::Number))
                                                    : "",
                              ratio_text(in.padding)));
  if (in.storage.cache_from_page_cache) kv("page cache", page_cache_text(in, r));
  if (r.memory_needed) kv("memory", memory_text(d));
  if (r.samples_per_usd) kv("cost", cost_text(r, d.inputs.nodes));
  if (r.epoch_s)
    kv("epoch", fmt::format("{} for {} samples ({} of it the accelerator idles)", dur(*r.epoch_s),
                            count(*in.dataset_samples), dur(*r.idle_per_epoch_s)));
  if (r.first_batch_s && !r.serial) {
    const std::string start = in.persistent_workers    ? "persistent workers; "
                              : *r.workers_start_s > 0 ? fmt::format("workers start in {}; ", dur(*r.workers_start_s))
                                                       : std::string();
    if (r.epoch_utilization)
      kv("epoch start",
         fmt::format("+{} per epoch ({}first step done at {}): utilization {} over the whole epoch",
                     dur(*r.epoch_start_s), start, dur(*r.first_batch_s), percent(*r.epoch_utilization)));
    else
      kv("first step", fmt::format("done {} into each epoch ({}set workload.dataset_samples for the epoch's time)",
                                   dur(*r.first_batch_s), start));
  }
  if (r.run_s)
    kv("run", fmt::format(
                  "{} in {}: utilization {} over the whole run ({}every epoch's start){}",
                  plural(*in.epochs, "epoch", "epochs"), dur(*r.run_s), percent(*r.run_utilization),
                  r.cold ? "the first epoch from storage, " : "",
                  r.run_cost ? fmt::format("; {} for the run", format_human(*r.run_cost, Dim::Money)) : std::string()));

  std::string prose;
  {
    Out sections(prose);
    diagnosis_sections(sections, d, md);
  }
  o.write(columns > 0 ? wrap_sections(prose, columns) : prose);
}

namespace {

constexpr std::size_t kNumWidth = 10;

std::string short_key(Field f) {
  if (f == Field::BatchSize) return "batch";
  if (f == Field::Workers) return "workers";
  if (f == Field::SampleSize) return "sample size";
  return std::string(spec(f).key);
}

}  // namespace

TextTable sweep_table(const SweepLayout& layout, bool md) {
  std::vector<Column> cols;
  for (Field f : layout.inputs) cols.push_back({short_key(f), true, f == Field::BatchSize ? 5u : 8u});
  if (layout.effective_workers) cols.push_back({"effective", true, 9});
  for (Stage st : layout.stages) cols.push_back({std::string(stage_key(st)), true, kNumWidth});
  // Wide enough for two of the shown stages binding at once ("transform+compute"), so that a
  // tie does not push the columns after it out of line.
  std::size_t binding = 9;
  for (std::size_t i = 0; i < layout.stages.size(); ++i)
    for (std::size_t j = i + 1; j < layout.stages.size(); ++j)
      binding = std::max(binding, stage_key(layout.stages[i]).size() + 1 + stage_key(layout.stages[j]).size());
  cols.insert(
      cols.end(),
      {{"step", true, kNumWidth}, {"binding", false, binding}, {"utilization", true, 11}, {"throughput", true, 17}});
  // The first epoch with its start, and the whole run, beside the steady state.
  if (layout.worst_epoch) cols.push_back({"epoch 1", true, 7});
  if (layout.run) cols.push_back({"run", true, 6});
  if (layout.cost) cols.insert(cols.end(), {{"cost/epoch", true, 10}, {"samples/USD", true, 11}});
  if (layout.cost && layout.run) cols.push_back({"cost/run", true, 10});
  if (layout.simulated)
    cols.insert(cols.end(), {{"sim util", true, 9}, {"sim throughput", true, 17}, {"sim wait p95", true, 12}});
  if (layout.verdict) cols.push_back({"verdict", false, 10});
  cols.push_back({"", false, 0});
  return TextTable(std::move(cols), md);
}

void text_sweep_row(Out& o, const TextTable& table, const SweepLayout& layout, const SweepPoint& p, bool first) {
  const Scenario& s = p.scenario;
  const Result& r = p.result;
  std::vector<std::string> cells;
  for (Field f : layout.inputs) cells.push_back(format_value(spec(f), s.get(f), s.dim(f)));
  const std::string none = "-";
  // The workers that add throughput, in single-worker rates ("7.15"), when cores or scaling cap them.
  if (layout.effective_workers)
    cells.push_back(p.invalid.empty() && r.effective_workers > 0
                        ? format_compact(std::round(r.effective_workers * 100) / 100, Dim::Number)
                        : none);
  if (!p.invalid.empty()) {
    // A point the model refuses: its inputs, no figures, and why.
    for (std::size_t i = 0; i < layout.stages.size(); ++i) cells.push_back(none);
    cells.insert(cells.end(), {none, "invalid", none, none});
    if (layout.worst_epoch) cells.push_back(none);
    if (layout.run) cells.push_back(none);
    if (layout.cost) cells.insert(cells.end(), {none, none});
    if (layout.cost && layout.run) cells.push_back(none);
    if (layout.simulated) cells.insert(cells.end(), {none, none, none});
    if (layout.verdict) cells.push_back(none);
    cells.push_back(fmt::format("<- invalid: {}", p.invalid));
    if (first) table.header(o);
    table.line(o, cells);
    return;
  }
  for (Stage st : layout.stages) cells.push_back(stage_cell(r, st));
  // A batch that does not fit in accelerator memory does not run: no step, no throughput.
  cells.push_back(r.fits ? dur(r.step_s) : none);
  cells.push_back(r.fits ? binding_text(r) : std::string("no fit"));
  cells.push_back(r.fits ? percent(r.utilization) : none);
  cells.push_back(r.fits ? samples(r.throughput) : none);
  if (layout.worst_epoch) cells.push_back(r.fits && r.worst_epoch ? percent(r.worst_epoch->utilization) : none);
  if (layout.run) cells.push_back(r.fits && r.run_utilization ? percent(*r.run_utilization) : none);
  if (layout.cost) {
    cells.push_back(r.cost_per_epoch && r.fits ? format_human(*r.cost_per_epoch, Dim::Money) : none);
    cells.push_back(r.fits ? format_number(*r.samples_per_usd) : none);
  }
  if (layout.cost && layout.run) cells.push_back(r.run_cost && r.fits ? format_human(*r.run_cost, Dim::Money) : none);
  if (layout.simulated) {
    const Simulation* m = p.simulated;
    cells.push_back(m ? percent(m->utilization) : none);
    cells.push_back(m ? samples(m->throughput) : none);
    cells.push_back(m ? dur(m->wait.p95) : none);
  }
  if (layout.verdict) cells.push_back(p.outcome ? std::string(verdict_word(p.outcome->verdict)) : none);
  std::vector<std::string> notes;
  if (!r.fits)
    notes.push_back(
        fmt::format("does not fit: needs {} of accelerator memory", format_human(*r.memory_needed, Dim::Size)));
  else if (p.crossed_from)
    notes.push_back(fmt::format("crossover ({} -> {})", walls_text(*p.crossed_from), binding_text(r)));
  if (p.outcome && p.outcome->verdict != Verdict::Pass) notes.push_back(unmet_text(*p.outcome));
  std::string note;
  for (const std::string& n : notes) note += (note.empty() ? "<- " : "; ") + n;
  cells.push_back(note);
  if (first) table.header(o);
  table.line(o, cells);
}

void text_sweep_end(Out& o, const SweepLayout& layout, const SweepSummary& summary) {
  if (!layout.verdict) return;
  const std::size_t judged = summary.passed + summary.failed + summary.unverified;
  std::string line = fmt::format("\n{} of {} {} the plan's requirements", count(static_cast<double>(summary.passed)),
                                 count(static_cast<double>(judged)), judged == 1 ? "point passes" : "points pass");
  std::string others;
  if (summary.failed > 0)
    others = fmt::format("{} {}", count(static_cast<double>(summary.failed)), summary.failed == 1 ? "fails" : "fail");
  if (summary.unverified > 0)
    others +=
        fmt::format("{}{} not verified", others.empty() ? "" : ", ", count(static_cast<double>(summary.unverified)));
  if (!others.empty()) line += " (" + others + ")";
  if (const auto& p = summary.pick) {
    line += fmt::format("; the {} that passes: {} ({}; utilization {}", rank_word(p->rank), p->point,
                        rank_text(p->rank), percent(p->utilization));
    if (p->run_utilization) line += fmt::format(", {} over the run", percent(*p->run_utilization));
    line += ")";
  }
  o.print("{}\n", line);
}

namespace {

// The defaults a plan rests on, under its check table or its line in a comparison.
void plan_assumptions(Out& o, const PlanReport& p, bool md, std::size_t columns) {
  if (p.assumptions.empty()) return;
  o.print("{}assumed (set the key to replace one):\n", md ? "\n" : "  ");
  if (md) o.write("\n");
  for (const Assumption& a : p.assumptions)
    o.print("{}\n", md ? "- " + a.text : columns > 0 ? wrap_hanging("    - ", a.text, columns) : "    - " + a.text);
}

// The keys the plan set that change nothing (its verdict or its line in a comparison does not rest
// on them): no requirement passes, and no plan compares, on one silently.
void plan_unused(Out& o, const PlanReport& p, bool md, std::size_t columns) {
  if (p.unused.empty()) return;
  o.print("{}unused (keys the plan sets that change nothing judged here):\n", md ? "\n" : "  ");
  if (md) o.write("\n");
  for (const UnusedKey& u : p.unused) {
    const std::string line = fmt::format("{}: {}", unused_key_name(u), u.reason);
    o.print("{}\n", md ? "- " + line : columns > 0 ? wrap_hanging("    - ", line, columns) : "    - " + line);
  }
}

}  // namespace

void text_check(Out& o, const std::vector<PlanReport>& plans, bool md, std::size_t columns) {
  std::size_t failed = 0, unverified = 0, errors = 0;
  for (const auto& p : plans) {
    if (p.error)
      ++errors;
    else if (p.outcome.verdict == Verdict::Fail)
      ++failed;
    else if (p.outcome.verdict == Verdict::Unverified)
      ++unverified;
  }
  for (const auto& p : plans) {
    if (p.error) {
      o.print("{}{}: ERROR\n{}", md ? "### " : "", shown(p.label, md), md ? "\n" : "");
      // Indented deeper than the table's rows, so that no file name in an error ("PASS  min_...")
      // can start a line that reads, or is coloured, as a requirement's row.
      std::string lines = p.error->line();
      if (!md)
        for (std::size_t at = lines.find('\n'); at != std::string::npos; at = lines.find('\n', at + 5))
          lines.replace(at, 1, "\n    ");
      o.print("{}{}{}\n", md ? "```\n" : "    ", lines, md ? "\n```" : "");
      o.print("{}verdict: ERROR (the plan could not be evaluated){}\n\n", md ? "\n**" : "  ", md ? "**" : "");
      continue;
    }
    const bool ranged = p.loaded->plan.batch_sizes.has_value();
    std::string scope = fmt::format(", at batch {}", count(p.loaded->scenario.get(Field::BatchSize)));
    if (ranged) {
      const Range& r = *p.loaded->plan.batch_sizes;
      scope = fmt::format(", at every batch size from {} to {} ({} points)", count(r.at(0)), count(r.at(r.size() - 1)),
                          r.size());
    }
    o.print("{}{}: {}{}\n", md ? "### " : "", shown(p.label, md), shown(p.loaded->name, md), scope);
    if (md) o.write("\n");
    TextTable table({{md ? "result" : "", false, 0},
                     {md ? "requirement" : "", false, 0},
                     {md ? "reached" : "", true, 0},
                     {md ? "required" : "", false, 0},
                     {"", false, 0}},
                    md, "  ");
    for (const auto& oc : p.outcome.outcomes) {
      const OutcomeLine l = outcome_line(oc, ranged);
      table.add({std::string(verdict_word(oc.verdict)), l.key, l.reached, l.required, l.where});
    }
    table.render(o);
    plan_assumptions(o, p, md, columns);
    plan_unused(o, p, md, columns);
    o.print("{}verdict: {}\n\n", md ? "\n**" : "  ", verdict(p.outcome) + (md ? "**" : ""));
  }
  if (plans.size() > 1)
    o.print("{} plans: {} passed, {} failed{}{}\n", plans.size(), plans.size() - failed - unverified - errors, failed,
            unverified ? fmt::format(", {} unverified", unverified) : "",
            errors ? fmt::format(", {} could not be evaluated", errors) : "");
}

void text_compare(Out& o, const std::vector<PlanReport>& plans, const std::vector<CompareRow>& rows, bool md,
                  std::size_t columns) {
  std::vector<Column> cols{{"", false, 0}};
  for (const auto& p : plans) cols.push_back({shown(p.label, md), true, 0});
  TextTable table(std::move(cols), md);
  // A value and its mark (" *" for the best, " (0.5x)" for a ratio to it): within a column the
  // marks are padded to the widest, so that the right-aligned values line up.
  const auto value = [&](const CompareRow& row, std::size_t j) {
    return row.values[j] ? compare_value_text(row.metric, *row.values[j]) : std::string("-");
  };
  const auto mark = [&](const CompareRow& row, std::size_t j) {
    return !row.values[j] ? std::string()
           : row.best[j]  ? std::string(" *")
           : row.ratio[j] ? fmt::format(" ({})", ratio_text(*row.ratio[j]))
                          : std::string();
  };
  std::vector<std::size_t> mark_width(plans.size(), 0);
  for (const auto& row : rows)
    if (row.any)
      for (std::size_t j = 0; j < plans.size(); ++j) mark_width[j] = std::max(mark_width[j], mark(row, j).size());
  // Each plan's verdict on its own requirements, first, where any plan has them.
  bool judged = false, some_pass = false;
  for (const auto& p : plans) {
    judged = judged || p.outcome.judged();
    some_pass = some_pass || p.outcome.verdict != Verdict::Fail;
  }
  if (judged) {
    std::vector<std::string> cells{"verdict"};
    for (const auto& p : plans)
      cells.push_back(p.outcome.judged() ? std::string(verdict_word(p.outcome.verdict)) : std::string("-"));
    table.add(std::move(cells));
  }
  for (const auto& row : rows) {
    if (row.any) {
      std::vector<std::string> cells{std::string(compare_name(row.metric))};
      for (std::size_t j = 0; j < plans.size(); ++j)
        cells.push_back(fmt::format("{}{:<{}}", value(row, j), mark(row, j), mark_width[j]));
      table.add(std::move(cells));
    }
    if (row.metric == CompareMetric::RunUtilization) {  // after the utilizations
      std::vector<std::string> wall{"binding wall"}, compute{"compute from"};
      for (const auto& p : plans) {
        wall.push_back(binding_text(p.result));
        compute.push_back(compute_source(p.loaded->scenario, p.result));
      }
      table.add(std::move(wall));
      table.add(std::move(compute));
    }
  }
  table.render(o);
  o.print("\n* best in its row{}; (0.5x) a value over the best one\n",
          !judged     ? ""
          : some_pass ? " among the plans that do not fail their requirements"
                      : " (every plan fails its requirements)");
  for (const auto& p : plans) {
    // A composition of presets is its own name and source: said once.
    const bool self_named = p.loaded->name == p.loaded->source.label() && p.loaded->name == p.label;
    o.print("{}{}{}{}\n", md ? "\n" : "", md ? "**" : "", shown(p.label, md) + (md ? "**" : ""),
            self_named ? std::string()
                       : fmt::format(": {} ({})", shown(p.loaded->name, md), shown(p.loaded->source.label(), md)));
    if (p.outcome.judged()) {
      const std::string line = fmt::format("{}{}", verdict(p.outcome),
                                           p.outcome.verdict == Verdict::Pass ? "" : ": " + unmet_text(p.outcome));
      o.print("{}{}\n", md ? "\n" : "",
              md            ? "verdict: " + line
              : columns > 0 ? wrap_hanging("  verdict: ", line, columns)
                            : "  verdict: " + line);
    }
    plan_assumptions(o, p, md, columns);
    plan_unused(o, p, md, columns);
  }
}

}  // namespace pipesim

namespace pipesim {

namespace {

// What held the loop up, cause by cause, with the share of steps and of the wait.
std::string held_up_by(const Simulation& s) {
  std::string held;
  for (std::size_t c = 0; c < kCauseCount; ++c) {
    if (c == 0 || s.cause_steps[c] <= 0) continue;
    held += fmt::format("{}{} {} of steps ({} of the wait)", held.empty() ? "" : "; ",
                        cause_words(static_cast<Cause>(c)), percent(s.cause_steps[c]), percent(s.cause_wait[c]));
  }
  held +=
      fmt::format("{}{} {} of steps", held.empty() ? "" : "; ", cause_words(Cause::None), percent(s.cause_steps[0]));
  return held;
}

// How busy each resource was over the run.
std::string busy_line(const Simulation& s) {
  std::string busy = fmt::format("accelerator {}", percent(s.busy.accelerator));
  if (s.inputs.workers >= 1) busy += fmt::format(", workers {}", percent(s.busy.workers));
  if (s.busy.cores) busy += fmt::format(", cores {}", percent(*s.busy.cores));
  if (s.busy.storage) busy += fmt::format(", storage {}", percent(*s.busy.storage));
  if (s.busy.decoder) busy += fmt::format(", decoder {}", percent(*s.busy.decoder));
  if (s.busy.pin_thread) busy += fmt::format(", pin thread {}", percent(*s.busy.pin_thread));
  if (s.busy.interpreter_lock) busy += fmt::format(", interpreter lock {}", percent(*s.busy.interpreter_lock));
  if (s.busy.link) busy += fmt::format(", link {}", percent(*s.busy.link));
  return busy;
}

// The epochs simulated, or why none were.
std::string epochs_line(const Simulation& s) {
  switch (s.epoch_skip) {
    case EpochSkip::None: {
      std::string times, firsts;
      for (std::size_t e = 0; e < s.epoch_s.size(); ++e) {
        times += fmt::format("{}{}", e ? ", " : "", dur(s.epoch_s[e]));
        firsts += fmt::format("{}{}", e ? ", " : "", dur(s.first_batch_s[e]));
      }
      return fmt::format("{} of {} steps: {}{}; first step done after {}{}", count(static_cast<double>(s.epochs)),
                         count(static_cast<double>(s.steps_per_epoch)), times, s.epochs > 1 ? " each" : "", firsts,
                         s.epochs > 1 ? " (epoch utilization: the epochs after the first)" : "");
    }
    case EpochSkip::NoDataset:
      return "not simulated (set workload.dataset_samples)";
    case EpochSkip::TooFewSamples:
      return "not simulated: the dataset is smaller than one step of the cluster";
    case EpochSkip::TooLong:
      return fmt::format("not simulated: {} of {} steps {} too many to simulate ({}a smaller workload.dataset_samples)",
                         plural(static_cast<double>(s.epochs), "epoch", "epochs"),
                         count(static_cast<double>(s.steps_per_epoch)), s.epochs == 1 ? "is" : "are",
                         s.epochs_that_fit >= 1
                             ? fmt::format("use --epochs {} or ", count(static_cast<double>(s.epochs_that_fit)))
                             : std::string("use "));
  }
  return {};  // every EpochSkip is handled above
}

}  // namespace

void text_simulation(Out& o, const LoadedScenario& loaded, const Simulation& s, bool md) {
  const Result& a = s.analytic;
  const Inputs& in = s.inputs;
  o.print("{}{}\n", md ? "## " : "", shown(loaded.name, md));
  std::string head = fmt::format(
      "simulated: batch {} | {} | {} per sample | {}", count(in.batch), plural(in.workers, "worker", "workers"),
      format_significant(in.sample_bytes, Dim::Size, 4), plural(in.accelerators, "accelerator", "accelerators"));
  if (in.workers >= 1)
    head += fmt::format(" | prefetch {} per worker, {}", count(in.prefetch_factor),
                        in.in_order ? "in order" : "out of order");
  head += fmt::format(" | seed {}", s.seed);
  o.print("{}\n\n", head);

  TextTable t({{"", false, 20}, {"simulated", true, 18}, {"analytic", true, 18}}, md);
  t.add({"utilization", percent(s.utilization), percent(a.utilization)});
  t.add({"throughput", samples(s.throughput), samples(a.throughput)});
  t.add({"step", dur(s.step_s), dur(a.step_s)});
  if (s.epoch_utilization) {
    t.add(
        {"epoch utilization", percent(*s.epoch_utilization), a.epoch_utilization ? percent(*a.epoch_utilization) : ""});
    t.add({"first step done", dur(s.first_batch_s.back()), a.first_batch_s ? dur(*a.first_batch_s) : ""});
  }
  t.render(o);
  o.write("\n");
  const auto kv = [&](std::string_view k, const std::string& v) { key_value(o, md, k, v); };
  if (s.sample_times > 0)
    kv("sample times",
       fmt::format("{} per-sample times from {}, mean {} (workload.transform_cost for both columns), drawn at random",
                   count(static_cast<double>(s.sample_times)), shown(s.sample_times_label, md),
                   dur(s.sample_times_mean)));
  kv("steady state", fmt::format("the last {} of {} steps (the steps before fill the pipeline)",
                                 count(static_cast<double>(s.window_steps)), count(static_cast<double>(s.steps))));
  kv("wait per step",
     fmt::format("mean {}, p50 {}, p95 {}, p99 {}, max {} (the loop waiting for its batch)", dur(s.wait.mean),
                 dur(s.wait.p50), dur(s.wait.p95), dur(s.wait.p99), dur(s.wait.max)));
  kv("held up by", held_up_by(s));
  kv("busy", busy_line(s) + " of the run");
  kv("epochs", epochs_line(s));
  if (a.upper_bound())
    kv("upper bound", fmt::format("both columns are upper bounds: {} not modelled, and each could bind (pipesim "
                                  "diagnose names the key that models it)",
                                  unmodelled_list(a)));
}

// The two formats for people: aligned plain text, and markdown (for issues, pull requests and
// wikis), the same layout with markdown's markup.
// What both write: the results laid out by TextRenderer, and the presets.
template <bool Markdown>
std::vector<Writer> text_writers() {
  using R = TextRenderer<Markdown>;
  return {
      writer<DiagnosisReport>([](Out& o, const DiagnosisReport& r, std::size_t columns) {
        R(columns).diagnosis(o, r.loaded, r.diagnosis);
      }),
      writer<CheckReport>([](Out& o, const CheckReport& r, std::size_t columns) { R(columns).check(o, r.plans); }),
      writer<CompareReport>(
          [](Out& o, const CompareReport& r, std::size_t columns) { R(columns).compare(o, r.plans, r.rows); }),
      writer<SimulationReport>([](Out& o, const SimulationReport& r, std::size_t columns) {
        R(columns).simulation(o, r.loaded, r.simulation);
      }),
      writer<PresetListReport>(
          [](Out& o, const PresetListReport& r, std::size_t) { text_presets(o, r.presets, Markdown); }),
      writer<KeysReport>([](Out& o, const KeysReport& r, std::size_t) { text_keys(o, Markdown, r.filter); }),
      // One preset: its TOML as it is.
      writer<PresetReport>([](Out& o, const PresetReport& r, std::size_t) { o.write(r.toml); }),
  };
}

std::vector<Writer> table_writers() {
  std::vector<Writer> w = text_writers<false>();
  // attribute's results are written for people in the table format only.
  w.push_back(writer<AttributionReport>(
      [](Out& o, const AttributionReport& r, std::size_t) { o.write(attribution_table(r.attribution)); }));
  w.push_back(writer<SolutionReport>(
      [](Out& o, const SolutionReport& r, std::size_t) { o.write(solution_table(r.loaded, r.solution)); }));
  w.push_back(writer<StepLogReport>(
      [](Out& o, const StepLogReport& r, std::size_t) { o.write(step_log_table(r.path, r.log, r.summary)); }));
  w.push_back(writer<TraceReport>([](Out& o, const TraceReport& r, std::size_t) { o.write(trace_table(r.summary)); }));
  return w;
}
std::vector<Writer> markdown_writers() { return text_writers<true>(); }
std::unique_ptr<SweepRenderer> table_sweep() { return std::make_unique<TextRenderer<false>>(); }
std::unique_ptr<SweepRenderer> markdown_sweep() { return std::make_unique<TextRenderer<true>>(); }

}  // namespace pipesim
