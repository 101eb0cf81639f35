#include "report/diagnosis_words.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/compile.h>

#include <fmt/format.h>

namespace pipesim {

bool has_fix(const Diagnosis& d, FixKind k) {
  for (const auto& f : d.fixes)
    if (f.kind == k) return true;
  return false;
}

namespace {

// "18.3% -> 100.0%": the utilization now and after the fix, appended.
void append_utilization_change(std::string& out, const Diagnosis& d, const Result& after) {
  append_percent(out, d.result.utilization);
  out.append(std::string_view(" -> "));
  append_percent(out, after.utilization);
}

// "utilization 10.5% -> 52.3%, throughput 5,000 samples/s (then the hardware decode binds)", appended.
void append_gain(std::string& out, const Diagnosis& d, const Result& after) {
  const auto put = [&](std::string_view text) { out.append(text); };  // a literal's length is known
  put("utilization ");
  append_utilization_change(out, d, after);
  put(", throughput ");
  append_samples(out, after.throughput);
  if (!after.compute_bound()) {
    put(" (then the ");
    bool first = true;
    for (Stage s : kStages)
      if (after.binds(s)) {
        if (!first) put(" and the ");
        out.append(stage_name(s, after.transform_at));
        first = false;
      }
    put(" binds)");
  }
  if (!after.fits) put(" (but the batch does not fit in accelerator memory)");
}

// "8 workers", "6.5 workers" (cores shared between accelerators can give a fraction).
std::string workers_text(double w) {
  return fmt::format("{} {}", format_compact(w, Dim::Number), w == 1 ? "worker" : "workers");
}

}  // namespace
namespace {

std::string_view loss_name(LossKind k) {
  switch (k) {
    case LossKind::LoopTime:
      return "the training loop's own time";
    case LossKind::BatchAssembly:
      return "batch assembly";
    case LossKind::Contention:
      return "workers contending";
    case LossKind::TimeSlicing:
      return "time slicing";
    case LossKind::LoopCpu:
      return "the training process's CPU share";
    case LossKind::Lock:
      return "the interpreter lock";
    case LossKind::Crowded:
      return "the loop waiting for a CPU";
    case LossKind::Variance:
      return "variance";
    case LossKind::StepSpread:
      return "the step's spread";
    case LossKind::EpochStart:
      return "the epoch's start";
  }
  return "";
}

// What recovers a loss, and why it happens.
std::string loss_remedy(const Diagnosis& d, LossKind k) {
  const Inputs& in = d.inputs;
  switch (k) {
    case LossKind::LoopTime:
      return "it runs in turn with compute every step (receiving the batch, launching work, logging); a larger "
             "batch spreads its fixed part over more samples";
    case LossKind::BatchAssembly:
      return "workers copy every batch into new shared memory (and the pin thread copies it again); fewer bytes "
             "per sample on the device (uint8 until the accelerator converts) copy faster";
    case LossKind::Contention:
      return "workers slow each other down (cpu.scaling_*); a cheaper transform per sample, or decoding on the "
             "accelerator, needs fewer of them";
    case LossKind::TimeSlicing:
      return has_fix(d, FixKind::FewerWorkers)
                 ? "more tasks than CPUs take turns (cpu.oversubscription_cost); fewer workers recover it (above)"
                 : "more tasks than CPUs take turns (cpu.oversubscription_cost); no more workers than CPUs "
                   "recovers it";
    case LossKind::LoopCpu:
      return "the training process holds a core while the accelerator computes (pipeline.loop_cpu_share); a loop "
             "that sleeps until the accelerator is done (a blocking synchronize) leaves it to the workers";
    case LossKind::Lock:
      return std::string(
                 "the loop's launch and the pin thread's work take turns on the training process's interpreter "
                 "lock (pipeline.launch_time, pipeline.pin_lock_share); ") +
             (has_fix(d, FixKind::Uint8Samples) ? "uint8 samples shorten the pin thread's part (above)"
                                                : "fewer bytes per sample on the device (uint8 until the "
                                                  "accelerator converts) shorten the pin thread's part");
    case LossKind::Crowded:
      return "woken with most CPUs busy (the workers building, the pin thread), the training loop waits to be run "
             "(pipeline.crowded_loop_time); fewer workers, or fewer CPU seconds per batch, leave it a CPU";
    case LossKind::Variance:
      return fmt::format(
          "slow batches stall {} delivery (transform.cv); more prefetch{} or more workers recover "
          "part",
          in.in_order ? "in-order" : "the", in.in_order ? ", pipeline.in_order = false" : "");
    case LossKind::StepSpread:
      return in.accelerators * in.nodes > 1
                 ? fmt::format(
                       "the {} accelerators step together and wait every step for the slowest of them "
                       "(model.step_cv); steadier steps (inputs of one length, no straggling accelerator) "
                       "recover it",
                       count(in.accelerators * in.nodes))
                 : std::string(
                       "a quick step finds no batch ready after a slow one (model.step_cv); more prefetch "
                       "recovers part");
    case LossKind::EpochStart: {
      const auto start = std::find_if(d.losses.begin(), d.losses.end(),
                                      [](const FidelityLoss& l) { return l.kind == LossKind::EpochStart; });
      if (start != d.losses.end() && start->persistent)
        return fmt::format(
            "every epoch starts its workers again and waits for one worker's whole batch; persistent workers "
            "(pipeline.persistent_workers = true) skip the start-up: {} -> {} over the epoch",
            percent(*d.result.epoch_utilization), percent(*start->persistent));
      return "every epoch waits for one worker's whole batch before its first step (workers that persist refill "
             "it too); longer epochs spread it";
    }
  }
  return "";
}

}  // namespace

std::string losses_sentence(const Diagnosis& d) {
  std::string list;
  for (const FidelityLoss& l : d.losses) {
    if (!list.empty()) list += ", ";
    list += fmt::format("{} {:.1f} points ({} {} without it)", loss_name(l.kind), 100 * l.loss,
                        l.kind == LossKind::EpochStart ? "steady" : "utilization", percent(l.without));
  }
  const FidelityLoss& top = d.losses.front();
  return fmt::format("Loader losses against the ideal loader: {}. The largest, {}: {}.", list, loss_name(top.kind),
                     loss_remedy(d, top.kind));
}

std::string knee_sentence(const Diagnosis& d) {
  const CoreNeeds& c = *d.cores;
  const TransformInputs& t = d.inputs.transform;
  std::string out =
      fmt::format("Knee: {} per accelerator deliver 95% of {}", plural(c.knee_workers, "worker", "workers"),
                  !c.reachable         ? "the most workers can (cpu.scaling_*)"
                  : c.full_within_node ? "what compute needs"
                                       : "the most any count delivers");
  if (c.peak_workers > 0)
    out += fmt::format("; past {} more deliver less (cpu.scaling_coherency)", count(c.peak_workers));
  if (t.cores_per_accelerator)
    out +=
        fmt::format(" on the node's {} per accelerator for workers", plural(*t.cores_per_accelerator, "CPU", "CPUs"));
  return out + ".";
}

std::string beside_training_sentence(const Diagnosis& d) {
  if (!d.cores || !d.cores->workers_beside_training) return "";
  const CoreNeeds& c = *d.cores;
  const TransformInputs& t = d.inputs.transform;
  if (c.spare_cpus >= 1) return "";
  return fmt::format(
      "Near the CPUs: {} per accelerator and the training process's {:.2f} busy CPUs {} {} for workers; "
      "{}. The loader hands batches over in order, so each round waits for its "
      "slowest worker: one that shares its CPU can make the round 1.3 to 2.5 times as long (seen on real "
      "16-CPU nodes at a quarter of such counts, never with a CPU to spare); the figures above share the "
      "CPUs evenly.",
      plural(d.inputs.workers, "worker", "workers"), c.training_cpus,
      c.spare_cpus < 0 ? std::string("outnumber the") : fmt::format("leave {:.2f} of the", c.spare_cpus),
      plural(*t.cores_per_accelerator, "CPU", "CPUs"),
      c.workers_with_spare >= 1 ? fmt::format("{} leave a CPU to spare", count(c.workers_with_spare))
                                : std::string("no count of workers leaves a CPU to spare"));
}

namespace {

// ", its threads getting 72.7% of a CPU each beside 14.2 busy workers on 16 CPUs" when the
// CPUs shared by time slow the training process's threads; empty otherwise.
std::string thread_share_text(const Result& r) {
  if (r.thread_rate >= 1) return "";
  return fmt::format(" (its threads get {} of a CPU each beside {} busy workers on {})", percent(r.thread_rate),
                     format_number(r.busy_workers), plural(r.shared_cores, "CPU", "CPUs"));
}

}  // namespace

namespace {

// The storage fetch as the binding wall: what limits it, what it delivers and what compute wants.
std::string storage_wall(const Result& r) {
  const StageResult& st = r.stage(Stage::Storage);
  const char* limit = st.limit == Limit::Iops            ? "IOPS"
                      : st.limit == Limit::Latency       ? "latency x queue depth"
                      : st.limit == Limit::Network       ? "the node's network bandwidth"
                      : st.limit == Limit::NodeBandwidth ? "the per-node client bandwidth"
                                                         : "bandwidth";
  return fmt::format("storage fetch, limited by {}: it delivers {} per accelerator, compute would consume {}", limit,
                     rate(st.bytes_per_s), rate(st.demand_bytes_per_s));
}

// The transform as the binding wall, by what limits it.
std::string transform_wall(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  const StageResult& compute = r.stage(Stage::Compute);
  const StageResult& st = r.stage(Stage::Transform);
  if (st.limit == Limit::Decoder)
    return fmt::format("hardware decode: the decoder delivers {} per accelerator, compute would take {}",
                       samples(st.samples_per_s), samples(compute.samples_per_s));
  if (st.limit == Limit::Variance)
    return fmt::format(
        "{}, limited by variance: one worker's batch varies by {} (transform.cv), and with {} delivering {} with "
        "prefetch {} the loop receives a batch every {} where it would every {} with none; more prefetch{} or "
        "more workers recover part (pipesim simulate shows the waits)",
        stage_name(Stage::Transform, r.transform_at), percent(r.batch_cv), workers_text(in.workers),
        in.in_order ? "in order" : "out of order", format_compact(in.prefetch_factor, Dim::Number), dur(st.time_s),
        dur(r.step_without_variance_s), in.in_order ? ", pipeline.in_order = false" : "");
  if (st.limit == Limit::SharedCores)
    return fmt::format(
        "{}, limited by the CPUs it shares with the training process: {} of CPU per step (workers, training "
        "process{}) on {} per accelerator",
        stage_name(Stage::Transform, r.transform_at), dur(r.shared_cpu_s),
        in.transfer.modelled && in.transfer.pinned && in.transform.memcpy_bandwidth ? ", pin thread" : "",
        plural(r.shared_cores, "CPU", "CPUs"));
  return fmt::format(
      "{}: {} x {} = {} per accelerator, compute would consume {}{}", stage_name(Stage::Transform, r.transform_at),
      r.serial ? std::string("the main process") : workers_text(r.effective_workers),
      format_human(r.worker_bytes_per_s, Dim::Rate), rate(st.bytes_per_s), rate(r.data_demand),
      r.worker_slicing > 1
          ? fmt::format(" ({} take turns on {}: time slicing costs their work {} more CPU, "
                        "cpu.oversubscription_cost)",
                        workers_text(in.workers), plural(*in.transform.cores_per_accelerator, "CPU", "CPUs"),
                        percent(r.worker_slicing - 1))
          : std::string());
}

// The host-to-device transfer as the binding wall, by what limits it.
std::string transfer_wall(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  const StageResult& st = r.stage(Stage::Transfer);
  if (r.transfer_serialised)
    return fmt::format("host-to-device transfer: pageable copies ({} per batch) wait for compute and add to it",
                       dur(st.time_s));
  if (st.limit == Limit::PinThread)
    return fmt::format(
        "host-to-device transfer, limited by the training process's pin thread: it takes "
        "{} per batch of {} at {}{}",
        dur(st.time_s), format_human(st.bytes_per_batch, Dim::Size), rate(*in.transform.pin_bandwidth),
        thread_share_text(r));
  if (st.limit == Limit::InterpreterLock)
    return fmt::format(
        "host-to-device transfer, limited by the training process: its loop launches the step's work for {} and "
        "its pin thread holds the interpreter lock for {} of each batch, in turn, {} per step{}",
        dur(in.launch_time), dur(r.lock_s - in.launch_time), dur(st.time_s), thread_share_text(r));
  return fmt::format(
      "host-to-device transfer: {} per accelerator carries {} per sample, "
      "compute would take {}",
      rate(in.transfer.bandwidth), format_significant(in.transfer.device_bytes, Dim::Size, 4),
      rate(st.demand_bytes_per_s));
}

// Compute as the binding wall, with what the training process loses beside busy workers.
std::string compute_wall(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const Result& r = d.result;
  // Data-parallel accelerators wait every step for the slowest of them.
  const std::string slowest =
      r.sync_wait_s > 0 ? fmt::format(
                              " (the {} accelerators step together: each step waits {} for the slowest, whose "
                              "compute varies by {}, model.step_cv)",
                              count(in.accelerators * in.nodes), dur(r.sync_wait_s), percent(in.step_cv))
                        : std::string();
  if (r.serial) return "accelerator compute (the largest part of a serial step)" + slowest;
  std::string out = r.upper_bound()
                        ? "accelerator compute: the modelled stages keep up (" + unmodelled_list(r) + " not modelled)"
                        : "accelerator compute: the input pipeline keeps up";
  if (r.shared_wait_s > 0) {
    const std::string crowded =
        r.crowded_s > 0 ? fmt::format(", {} of it waiting for a CPU (pipeline.crowded_loop_time)", dur(r.crowded_s))
                        : "";
    out += fmt::format(
        " (the training process takes {} longer per step{}: its own time runs beside {} busy workers as it "
        "receives{}, on {})",
        dur(r.shared_wait_s), crowded, format_number(r.receive_busy_workers),
        in.loop_cpu_share && *in.loop_cpu_share > 0
            ? fmt::format(", its CPU share beside {} on average", format_number(r.busy_workers))
            : "",
        plural(*in.transform.cores_per_accelerator, "CPU", "CPUs"));
  }
  return out + slowest;
}

}  // namespace

std::string wall_sentence(const Diagnosis& d) {
  const Result& r = d.result;
  std::vector<std::string> parts;
  if (r.binds(Stage::Storage)) parts.push_back(storage_wall(r));
  if (r.binds(Stage::Transform)) parts.push_back(transform_wall(d));
  if (r.binds(Stage::Transfer)) parts.push_back(transfer_wall(d));
  if (r.binds(Stage::Compute)) parts.push_back(compute_wall(d));
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += "; and ";
    out += p;
  }
  return out;
}

namespace {

// "12.58 GB/s read bandwidth (now 4.00 GB/s)" or "12 TiB of capacity (now 4 TiB), 12.00 GB/s".
std::string aggregate_change(const Diagnosis& d, const Change& c) {
  const Inputs& in = d.inputs;
  const std::string now = in.storage.read_bandwidth ? rate(*in.storage.read_bandwidth) : std::string("no limit");
  if (c.field == Field::StorageCapacity)
    return fmt::format("{} TiB of capacity for {} read bandwidth (now {})", count(c.value.value / kTiB),
                       rate(d.storage_needed.bandwidth), now);
  return fmt::format("{} read bandwidth (now {})", rate(c.value.value), now);
}

}  // namespace

std::string warm_epochs(const Result& r) {
  if (!r.warmup) return "after the first epoch";
  return fmt::format("once each node's page cache is warm (within 1% from epoch {})", count(r.warmup->near_epoch));
}

std::string storage_needs_text(const Diagnosis& d, const StorageNeeds& n) {
  std::vector<std::string> parts{rate(n.bandwidth) + " read bandwidth"};
  if (n.node_bandwidth)
    parts.push_back(fmt::format(
        "{} for each node ({})", rate(*n.node_bandwidth),
        d.inputs.storage.node_cap_limit == Limit::Network ? "node.network_bandwidth" : "storage.node_bandwidth"));
  if (n.iops) parts.push_back(count(*n.iops) + " IOPS");
  if (n.queue_depth)
    parts.push_back(fmt::format("{} in flight (storage.queue_depth)", plural(*n.queue_depth, "request", "requests")));
  return spoken_list(parts, [](const std::string& p) { return p; });
}

std::string storage_has_text(const Diagnosis& d, const StorageNeeds& n) {
  const StorageInputs& st = d.inputs.storage;
  std::string has = st.read_bandwidth ? rate(*st.read_bandwidth) : std::string("no aggregate limit");
  if (n.node_bandwidth) has += fmt::format(", {} for each node", rate(*st.node_cap));
  if (n.iops) has += fmt::format(", {} IOPS", count(*st.iops_total));
  if (n.queue_depth) has += fmt::format(", {} in flight", format_compact(st.queue_depth, Dim::Number));
  return has;
}

std::string storage_capacity_text(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const StorageCapacity& c = *d.storage_capacity;
  if (c.demand <= 0)
    return fmt::format("Storage: {} every read is a page-cache hit, so storage limits no accelerator count",
                       warm_epochs(d.result));
  std::string limits = c.by_bandwidth
                           ? fmt::format("{} feeds {}", rate(*in.storage.read_bandwidth), count(*c.by_bandwidth))
                           : std::string("no aggregate bandwidth limit");
  if (c.by_iops)
    limits += fmt::format(", {} IOPS at {} per request feed {}", count(*in.storage.iops_total),
                          format_significant(in.storage.request_bytes, Dim::Size, 4), count(*c.by_iops));
  if (!c.latency_ok)
    limits += fmt::format(", but {} outstanding requests of {} taking {} each deliver less than one accelerator reads",
                          format_compact(in.storage.queue_depth, Dim::Number),
                          format_significant(in.storage.request_bytes, Dim::Size, 4),
                          format_human(c.request_time, Dim::Duration));
  std::string fed = c.accelerators ? plural(*c.accelerators, "accelerator", "accelerators")
                                   : std::string("any number of accelerators");
  if (c.accelerators && *c.accelerators == 0) fed = "not even one accelerator";
  std::string out =
      fmt::format("Storage: each accelerator reads {} at {} utilization; the storage feeds {} ({}){}; this {} has {}",
                  rate(c.demand), percent(c.target), fed, limits,
                  c.per_node ? fmt::format("; one node's {} of {} feeds {} of its own",
                                           in.storage.node_cap_limit == Limit::Network ? "network" : "client limit",
                                           rate(*in.storage.node_cap), count(*c.per_node))
                             : std::string(),
                  in.storage.scope == StorageScope::Cluster ? "cluster" : "node", count(c.have));
  return out;
}

std::string cores_text(const Diagnosis& d) {
  const Inputs& in = d.inputs;
  const CoreNeeds& c = *d.cores;
  if (!c.reachable)
    return fmt::format(
        "CPUs: no number of workers keeps up with compute: with cpu.scaling_contention = {} and "
        "cpu.scaling_coherency = {}, workers deliver at most {} single-worker rates{}",
        format_compact(in.transform.sigma, Dim::Number), format_compact(in.transform.kappa, Dim::Number),
        format_human(c.most_rates, Dim::Number),
        in.transform.kappa > 0 ? fmt::format(" (at {})", plural(c.workers_full, "worker", "workers"))
                               : std::string(" (approached as workers are added)"));
  const bool threads = in.transform.threads_per_core > 1;
  std::string out;
  if (in.transform.node_cores && c.full_within_node)
    out = fmt::format("CPUs: on the node's {}, {} per accelerator keep up with compute ({} for {}); ",
                      plural(*in.transform.node_cores, "CPU", "CPUs"), plural(c.workers_full, "worker", "workers"),
                      count(c.workers_target), percent(in.target_utilization));
  else if (in.transform.node_cores)
    out = fmt::format("CPUs: no count of workers keeps up on the node's {}; ",
                      plural(*in.transform.node_cores, "CPU", "CPUs"));
  const double reserved = in.transform.reserved_cores / in.accelerators;
  out += fmt::format(
      "{}the fewest that keep up are {} per node, with {} per accelerator{} ({} for {}, with {}), {}",
      in.transform.node_cores ? "" : "CPUs: ", count(c.node_full), plural(c.workers_at_node_full, "worker", "workers"),
      threads ? fmt::format(" on {} hardware threads per core", count(in.transform.threads_per_core)) : std::string(),
      count(c.node_target), percent(in.target_utilization), count(c.workers_at_node_target),
      reserved > 0 ? fmt::format("{} reserved for each training process", format_compact(reserved, Dim::Number))
                   : std::string("the training process sharing them"));
  // Beside the training process on shared CPUs: the most workers that keep clear of the loader's
  // stalls measured on real nodes (the "Near the CPUs" bullet says what they are).
  if (c.workers_beside_training)
    out += c.workers_with_spare >= 1
               ? fmt::format(
                     "; up to {} per accelerator leave a CPU to spare beside the training process's {:.2f} busy CPUs, "
                     "the most to run here: past them a worker shares its CPU and the loader's rounds can stall",
                     plural(c.workers_with_spare, "worker", "workers"), c.training_cpus)
               : fmt::format(
                     "; no count of workers leaves a CPU to spare beside the training process's {:.2f} busy CPUs: "
                     "a worker shares its CPU and the loader's rounds can stall",
                     c.training_cpus);
  return out;
}

void append_fix(std::string& out, const Diagnosis& d, const Fix& fix) {
  const Inputs& in = d.inputs;
  const Result& after = fix.result;
  const auto value = [&](std::size_t i) { return fix.changes.at(i).value.value; };
  // The kinds a sweep's rows carry most (workers, decoding elsewhere, a smaller batch) are written
  // piece by piece; the rest through fmt. Every sentence but the smaller batch's ends in its gain.
  const auto to = [&] { return std::back_inserter(out); };
  const auto put = [&](std::string_view text) { out.append(text); };  // a literal's length is known
  // "12 per accelerator (now 4": the fix's workers and the scenario's.
  const auto workers_now = [&] {
    append_count(out, value(0));
    put(" per accelerator (now ");
    append_count(out, in.workers);
  };
  switch (fix.kind) {
    case FixKind::Overlap:
      fmt::format_to(
          to(), FMT_COMPILE("Use {} (now 0) so loading overlaps compute{}: "), plural(value(0), "worker", "workers"),
          fix.changes.size() > 1
              ? fmt::format(FMT_COMPILE(", with cpu.cores = {} so that they have CPUs of their own"), count(value(1)))
              : std::string());
      break;
    case FixKind::Workers:
      put("Workers: ");
      workers_now();
      put(") keep the transform under compute: ");
      break;
    case FixKind::WorkersWithinCores:
      put("Workers within the node's CPUs: ");
      workers_now();
      put("): ");
      append_gain(out, d, after);
      put("; keeping up needs more CPUs (below)");
      return;
    case FixKind::WorkersAndCores:
      fmt::format_to(to(),
                     FMT_COMPILE("CPU: no count of workers keeps up on the node's {} per accelerator for workers; {} "
                                 "for the node ({} reserved for training processes) with {} per accelerator: "),
                     cpus(*in.transform.cores_per_accelerator), plural(value(1), "CPU", "CPUs"),
                     format_compact(in.transform.reserved_cores, Dim::Number), plural(value(0), "worker", "workers"));
      break;
    case FixKind::DecodeOnDecoder:
      put("Decode on the accelerator's hardware decoder (");
      append_samples(out, d.scenario_decoder_rate);
      put(", transform.device = decoder): ");
      break;
    case FixKind::DecodeOnGpu:
      put("Decode on the GPU (DALI/nvJPEG, ");
      out.append(format_compact(d.scenario_gpu_time, Dim::Duration));
      put(" of accelerator time per sample, transform.device = gpu): ");
      break;
    case FixKind::Predecoded:
      fmt::format_to(to(),
                     FMT_COMPILE("Pre-decoded dataset: store {} per sample (now {}) that a worker transforms at {}: "),
                     format_significant(value(0), Dim::Size, 4), format_significant(in.sample_bytes, Dim::Size, 4),
                     format_compact(value(1), Dim::SampleRate));
      append_gain(out, d, after);
      if (in.dataset_samples)
        fmt::format_to(to(), FMT_COMPILE("; the dataset grows to {}"), format_human(fix.dataset_bytes, Dim::Size));
      return;
    case FixKind::FitMemory:
      fmt::format_to(to(), FMT_COMPILE("Batch size {} (now {}) is the largest that fits in {} of accelerator memory: "),
                     count(value(0)), count(in.batch), format_human(*in.compute.memory_capacity, Dim::Size));
      break;
    case FixKind::AllTogether:
      put("All of the above but the batch size, together: ");
      break;
    case FixKind::StorageBandwidth:
      if (fix.changes.at(0).field == Field::NetworkBandwidth || fix.changes.at(0).field == Field::NodeStorageBandwidth)
        fmt::format_to(
            to(), FMT_COMPILE("Storage: {} per node (now {}, {}){}: "), rate(value(0)), rate(*in.storage.node_cap),
            fix.changes.at(0).field == Field::NetworkBandwidth ? "the node's network" : "the per-node client limit",
            fix.changes.size() > 1 ? fmt::format(FMT_COMPILE(" and {}"), aggregate_change(d, fix.changes[1]))
                                   : std::string());
      else
        fmt::format_to(to(), FMT_COMPILE("Storage: {}: "), aggregate_change(d, fix.changes[0]));
      break;
    case FixKind::StorageIops:
      fmt::format_to(to(), FMT_COMPILE("Storage: {} IOPS (now {}): "), count(value(0)), count(*in.storage.iops_total));
      break;
    case FixKind::StorageQueueDepth:
      fmt::format_to(to(), FMT_COMPILE("Storage: {} outstanding requests per accelerator (now {}) to hide latency: "),
                     count(value(0)), format_compact(in.storage.queue_depth, Dim::Number));
      break;
    case FixKind::LocalCache:
      fmt::format_to(to(),
                     FMT_COMPILE("Storage: a local cache of {} per node (storage.local_cache, now {}) keeps what later "
                                 "epochs read: "),
                     format_human(value(0), Dim::Size),
                     in.storage.local_cache_bytes > 0 ? format_human(in.storage.local_cache_bytes, Dim::Size)
                                                      : std::string("none"));
      break;
    case FixKind::StorageRequestSize:
      if (fix.changes.at(0).field == Field::SamplesPerShard)
        fmt::format_to(to(),
                       FMT_COMPILE("Storage: samples stored {} to a shard (workload.samples_per_shard; now {}), each "
                                   "shard read whole, one {} request (now {}): "),
                       count(value(0)),
                       in.storage.shard_bytes ? count(*in.storage.shard_bytes / in.sample_bytes) : "a file each",
                       format_significant(value(0) * in.sample_bytes, Dim::Size, 4),
                       format_significant(in.storage.request_bytes, Dim::Size, 4));
      else
        fmt::format_to(
            to(), FMT_COMPILE("Storage: requests of {} (storage.request_size, now {}){}: "),
            format_significant(value(0), Dim::Size, 4), format_significant(in.storage.request_bytes, Dim::Size, 4),
            fix.changes.size() > 1
                ? fmt::format(FMT_COMPILE(" in shards of {} samples (workload.samples_per_shard)"), count(value(1)))
                : std::string());
      break;
    case FixKind::LinkBandwidth:
      fmt::format_to(to(), FMT_COMPILE("Link: {} host-to-device bandwidth (now {}): "), rate(value(0)),
                     rate(in.transfer.copy_bandwidth));
      break;
    case FixKind::PinMemory:
      put("Transfer: pinned memory with non-blocking copies, so the copy overlaps compute: ");
      break;
    case FixKind::Prefetch:
      fmt::format_to(to(), FMT_COMPILE("Prefetch: pipeline.prefetch_factor = {} (now {}) absorbs slow batches: "),
                     count(value(0)), count(in.prefetch_factor));
      break;
    case FixKind::OutOfOrder:
      put("Order: pipeline.in_order = false takes any ready batch, so one slow batch no longer stalls the loop: ");
      break;
    case FixKind::FewerWorkers:
      put("Fewer workers: ");
      workers_now();
      put("), ");
      if (in.transform.cores_per_accelerator) {
        put("so fewer tasks take turns on ");
        out.append(plural(*in.transform.cores_per_accelerator, "CPU", "CPUs"));
      } else {
        put("so they contend less");
      }
      put(": ");
      break;
    case FixKind::Uint8Samples:
      fmt::format_to(
          to(),
          FMT_COMPILE(
              "Samples: uint8 on the device (workload.device_dtype = uint8, converted and normalized there): {} per "
              "sample instead of {} for the workers to collate and the pin thread to copy: "),
          format_human(in.transfer.device_bytes / dtype_bytes(static_cast<Dtype>(d.scenario_dtype)), Dim::Size),
          format_human(in.transfer.device_bytes, Dim::Size));
      break;
    case FixKind::SmallerBatch:
      put("Batch size ");
      append_count(out, value(0));
      put(" (now ");
      append_count(out, in.batch);
      put("): the accelerator binds, utilization ");
      append_utilization_change(out, d, after);
      put(", but throughput ");
      append_samples(out, after.throughput);
      put(" (now ");
      append_samples(out, d.result.throughput);
      put("): a smaller batch hides the wall, it does not move it");
      return;
  }
  append_gain(out, d, after);
}

std::string describe_fix(const Diagnosis& d, const Fix& fix) {
  std::string out;
  append_fix(out, d, fix);
  return out;
}

}  // namespace pipesim
