#include "core/analyses/unused.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/analyses/diagnosis.hpp"
#include "core/base/error.hpp"

namespace pipesim {

namespace {

// What a diagnosis says: its figures in a fixed order (an absent one as a value no figure
// takes) and its assumptions' words.
struct Said {
  std::vector<double> figures;
  std::vector<std::string> words;
  bool operator==(const Said&) const = default;
};

// Every figure of a result that an output prints: a figure left out here would let a key that
// moves it be called unused.
void add_result(const Result& r, const auto& add) {
  add(r.step_s);
  add(r.utilization);
  add(r.throughput);
  add(r.throughput_per_node);
  add(r.data_demand);
  add(r.data_demand_per_cluster);
  for (const StageResult& st : r.stages) {
    add(st.modelled ? st.time_s : -1);
    add(static_cast<double>(st.limit));
    add(st.bytes_per_batch);
    add(st.demand_bytes_per_s);
  }
  add(static_cast<double>(r.binding));
  add(r.effective_workers);
  add(r.worker_slicing);
  add(r.worker_bytes_per_s);
  add(r.memory_needed);
  add(r.epoch_s);
  add(r.idle_per_epoch_s);
  add(r.epoch_start_s);
  add(r.first_batch_s);
  add(r.workers_start_s);
  add(r.epoch_utilization);
  add(r.run_s);
  add(r.run_utilization);
  add(r.loop_overhead_s);
  add(r.sync_wait_s);
  // The CPUs shared by time are printed where the workers share them (figures.cpp).
  if (r.shared_cores > 0) {
    add(r.shared_cpu_s);
    add(r.shared_cores);
    add(r.shared_wait_s);
    add(r.busy_workers);
    add(r.thread_rate);
    add(r.receive_busy_workers);
    add(r.crowded_s);
  }
  add(r.lock_s);
  // One worker's batch variance is printed where it limits the binding transform.
  if (r.binds(Stage::Transform) && r.stage(Stage::Transform).limit == Limit::Variance) {
    add(r.batch_cv);
    add(r.step_without_variance_s);
  }
  add(r.price_per_hour);
  add(r.cost_per_epoch);
  add(r.idle_cost_per_epoch);
  add(r.samples_per_usd);
  add(r.run_cost);
  if (r.worst_epoch) {
    add(r.worst_epoch->utilization);
    add(r.worst_epoch->epoch_s);
  }
  if (r.cold) {
    add(r.cold->cache_hit);
    add(r.cold->storage_s);
    add(r.cold->step_s);
    add(r.cold->utilization);
    add(static_cast<double>(r.cold->binding));
    add(r.cold->epoch_s);
  }
  if (r.warmup) {
    add(r.warmup->shards);
    for (double h : r.warmup->hits) add(h);
  }
  add(r.cache_hit);
}

Said said(const Diagnosis& d) {
  Said out_said;
  std::vector<double>& out = out_said.figures;
  // An absent figure as a value no figure takes.
  const auto add = [&](std::optional<double> v) { out.push_back(v.value_or(-1e300)); };
  add_result(d.result, add);
  add(d.workers_needed);
  const auto add_storage = [&](const std::optional<StorageNeeds>& n) {
    add(n ? std::optional(n->bandwidth) : std::nullopt);
    add(n ? n->iops : std::nullopt);
    add(n ? n->queue_depth : std::nullopt);
    add(n ? n->node_bandwidth : std::nullopt);
  };
  add_storage(d.storage_needed);
  add_storage(d.first_epoch_storage_needed);
  add(d.link_bandwidth_needed);
  add(d.max_batch);
  if (d.cores) {
    add(d.cores->workers_full);
    add(d.cores->workers_target);
    add(d.cores->node_full);
    add(d.cores->node_target);
  }
  add(d.storage_bandwidth_needed_per_accelerator);
  if (d.inputs.storage.cache_from_page_cache) {
    add(d.inputs.dataset_bytes);
    add(d.inputs.storage.page_cache_bytes);
  }
  if (const auto& c = d.storage_capacity) {
    add(c->target);
    add(c->demand);
    add(c->have);
    add(c->request_time);
    add(c->by_bandwidth);
    add(c->by_iops);
    add(c->per_node);
    add(c->latency_ok ? 1.0 : 0.0);
    add(c->accelerators);
  }
  // A fix as it is printed: what it changes, and what the model then reaches.
  for (const Fix& f : d.fixes) {
    add(static_cast<double>(f.kind));
    for (const auto& change : f.changes) add(change.value.value);
    if (f.kind == FixKind::Predecoded && d.inputs.dataset_samples) add(f.dataset_bytes);  // "the dataset grows to"
    add(f.result.utilization);
    add(f.result.throughput);
    add(static_cast<double>(f.result.binding));
  }
  for (const FidelityLoss& l : d.losses) {
    add(static_cast<double>(l.kind));
    add(l.loss);
  }
  for (const Crossover& c : d.crossovers) add(c.batch);
  if (d.result.memory_needed) add(d.inputs.compute.memory_capacity);  // printed beside what is needed
  for (const Assumption& a : d.assumptions) out_said.words.push_back(a.text);
  return out_said;
}

// The scenario with f changed each way it is tried: a flag flipped, another choice, a number
// doubled and halved (a share halved and doubled, or taken halfway to 1 where doubling passes it;
// 0 made 1 of its unit).
std::vector<Scenario> changed(const Scenario& s, Field f) {
  const FieldSpec& sp = spec(f);
  const double v = s.get(f);
  const Dim dim = s.dim(f);
  std::vector<double> values;
  if (dim == Dim::Bool) {
    values = {v != 0 ? 0.0 : 1.0};
  } else if (dim == Dim::Choice) {
    for (std::size_t i = 0; i < sp.choices.size(); ++i)
      if (static_cast<double>(i) != v) values.push_back(static_cast<double>(i));
  } else {
    const bool share = sp.constraint == Constraint::UnitInterval || sp.constraint == Constraint::Share ||
                       sp.constraint == Constraint::HitRatio;
    values = v == 0  ? std::vector<double>{share ? 0.5 : 1.0}
             : share ? std::vector<double>{v / 2, 2 * v <= 1 ? 2 * v : (v + 1) / 2}
                     : std::vector<double>{v * 2, v / 2};
    for (double& w : values)
      if (sp.integer) w = std::max(1.0, std::round(w));
  }
  std::vector<Scenario> out;
  for (double w : values) {
    if (w == v) continue;
    Scenario t = s;
    t.set(f, Quantity{w, dim});
    out.push_back(std::move(t));
  }
  return out;
}

bool among(Field f, std::initializer_list<Field> fields) {
  return std::find(fields.begin(), fields.end(), f) != fields.end();
}

std::string reason(const Scenario& s, const Diagnosis& d, Field f) {
  if (s.step_measured() && roofline_input(f))
    return "the compute time is measured (model.measured_per_sample): the roofline's inputs act on nothing";
  if (f == Field::NetworkBandwidth && s.value(Field::StorageScope) == 0)
    return "storage is per node (storage.scope = \"node\"): no read crosses the network; set storage.scope = "
           "\"cluster\" for storage the nodes share";
  if (f == Field::LoopWait && s.has(Field::LoopCpuShare))
    return "pipeline.loop_cpu_share gives the training process's share of the CPUs: pipeline.loop_wait only sets "
           "its default";
  if (f == Field::PageableBandwidth && s.value(Field::LinkPinned) != 0)
    return "the copy is pinned (link.pinned = true): the pageable rate applies with link.pinned = false";
  const auto at = static_cast<TransformAt>(s.value(Field::TransformDevice));
  if (among(f, {Field::DecoderRate, Field::GpuTime, Field::DecoderEngines, Field::DecoderFrameRate}) &&
      at == TransformAt::Cpu)
    return "the transform runs on the CPU (transform.device = \"cpu\")";
  if (among(f, {Field::DecoderRate, Field::DecoderEngines, Field::DecoderFrameRate}) && at != TransformAt::Decoder)
    return "the hardware decoder is not used (transform.device = \"decoder\" uses it)";
  if (f == Field::DecoderRate && s.has(Field::DecoderFrameRate))
    return "accelerator.decoder_fps is set: the decoder's rate follows from it, its engines and the frames per "
           "sample";
  if (among(f, {Field::FramesPerSample, Field::DecoderEngines}) && !s.has(Field::FrameCost) &&
      !(at == TransformAt::Decoder && s.has(Field::DecoderFrameRate)))
    return "no figure is per frame (workload.frame_cost, accelerator.decoder_fps): the work per sample is "
           "measured whole";
  if (f == Field::LengthBuckets && s.value(Field::Padding) == 0)
    return "samples are not padded (workload.padding = \"none\"): there is nothing to bucket";
  if (among(f, {Field::Padding, Field::LengthBuckets}) && s.value(Field::SampleSizeCv) == 0)
    return "every sample has one length (workload.sample_size_cv = 0): padding adds nothing";
  if (f == Field::MemcpyBandwidth && s.has(Field::CollateBandwidth) && s.has(Field::PinBandwidth))
    return "cpu.collate_bandwidth and cpu.pin_bandwidth are set: the copy rate stands in for neither";
  const auto stage_off = [&](std::string_view table, Stage stage) {
    return spec(f).key.starts_with(table) && !d.result.stage(stage).modelled;
  };
  if (stage_off("storage.", Stage::Storage) || (stage_off("node.", Stage::Storage) && f != Field::NetworkBandwidth))
    return "storage is not modelled (storage.read_bandwidth): what a node caches or reads acts on nothing";
  if (stage_off("link.", Stage::Transfer)) return "the host-to-device copy is not modelled (link.bandwidth)";
  if (f == Field::SamplesPerShard && !d.result.stage(Stage::Storage).modelled)
    return "storage is not modelled (storage.read_bandwidth): the shards change only its requests";
  if (among(f, {Field::SamplesPerShard, Field::RequestSize}) && !d.inputs.storage.iops && !d.inputs.storage.latency)
    return "the storage has no request limit (storage.iops, storage.latency): requests of any size read at its "
           "bandwidth";
  if (f == Field::ShuffleBuffer && !d.result.stage(Stage::Storage).modelled)
    return "storage is not modelled (storage.read_bandwidth): nothing fills the buffers";
  if (f == Field::ShuffleBuffer && !d.inputs.dataset_samples)
    return "the dataset's size is not known (workload.dataset_samples): no epoch start, no page cache for the "
           "buffers to take from";
  if (f == Field::LocalCache && s.has(Field::CacheHit))
    return "storage.cache_hit is set: it holds for every epoch, whatever caches the data";
  if (f == Field::LocalCache && d.inputs.dataset_bytes <= 0)
    return "the dataset's size is not known (workload.dataset_samples): nor is what a cache holds of it";
  return "changes no figure of this diagnosis (it may act in pipesim simulate, or with other keys set)";
}

}  // namespace

std::vector<UnusedKey> unused_keys(const Scenario& s, std::span<const Field> set_by_user) {
  Diagnosis d;
  try {
    d = diagnose_with_assumptions(s);
  } catch (const Error&) {
    return {};
  }
  return unused_keys(s, d, set_by_user);
}

std::vector<UnusedKey> unused_keys(const Scenario& s, const Diagnosis& d, std::span<const Field> set_by_user) {
  std::vector<UnusedKey> out;
  const Said base = said(d);
  for (Field f : set_by_user) {
    if (!s.has(f)) continue;
    const std::vector<Scenario> tried = changed(s, f);
    const bool acts = std::any_of(tried.begin(), tried.end(), [&](const Scenario& t) {
      try {
        return said(diagnose_with_assumptions(t)) != base;
      } catch (const Error&) {
        return true;  // the model refuses the changed value: the key bears on it
      }
    });
    if (!tried.empty() && !acts) out.push_back({f, reason(s, d, f), {}, {}});
  }
  return out;
}

std::string_view unused_key_name(const UnusedKey& u) { return u.key.empty() ? spec(u.field).key : u.key; }

}  // namespace pipesim
