#include "core/unused.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/diagnosis.hpp"
#include "core/error.hpp"

namespace pipesim {

namespace {

// What a diagnosis says: its figures in a fixed order (an absent one as a value no figure
// takes) and its assumptions' words.
struct Said {
  std::vector<double> figures;
  std::vector<std::string> words;
  bool operator==(const Said&) const = default;
};

Said said(const Diagnosis& d) {
  Said out_said;
  std::vector<double>& out = out_said.figures;
  const auto add = [&](std::optional<double> v) { out.push_back(v.value_or(-1e300)); };
  const auto result = [&](const Result& r) {
    add(r.step_s);
    add(r.utilization);
    add(r.throughput);
    for (const StageResult& st : r.stages) {
      add(st.modelled ? st.time_s : -1);
      add(static_cast<double>(st.limit));
    }
    add(static_cast<double>(r.binding));
    add(r.memory_needed);
    add(r.epoch_s);
    add(r.epoch_start_s);
    add(r.epoch_utilization);
    add(r.run_utilization);
    add(r.cost_per_epoch);
    add(r.cold ? std::optional<double>(r.cold->step_s) : std::nullopt);
    add(r.cold ? std::optional<double>(r.cold->utilization) : std::nullopt);
    add(r.cache_hit);
  };
  result(d.result);
  add(d.workers_needed);
  add(d.storage_bandwidth_needed);
  add(d.first_epoch_storage_bandwidth_needed);
  add(d.link_bandwidth_needed);
  add(d.max_batch);
  if (d.cores) {
    add(d.cores->workers_full);
    add(d.cores->workers_target);
    add(d.cores->node_full);
    add(d.cores->node_target);
  }
  for (const Fix& f : d.fixes) {
    add(static_cast<double>(f.kind));
    result(f.result);
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
// doubled and halved (a share halved and taken halfway to 1; 0 made 1 of its unit).
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
             : share ? std::vector<double>{v / 2, (v + 1) / 2}
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
  if (s.has(Field::MeasuredPerSample) &&
      among(f, {Field::FlopsPerSample, Field::Efficiency, Field::PeakFlops, Field::PeakFlopsFp32, Field::PeakFlopsTf32,
                Field::PeakFlopsBf16, Field::PeakFlopsFp16, Field::PeakFlopsFp8, Field::DispatchOverhead,
                Field::LayerOverhead, Field::Layers, Field::Passes, Field::MemoryBandwidth}))
    return "the compute time is measured (model.measured_per_sample): the roofline's inputs act on nothing";
  if (f == Field::NetworkBandwidth && s.value(Field::StorageScope) == 0)
    return "storage is per node (storage.scope = \"node\"): no read crosses the network; set storage.scope = "
           "\"cluster\" for storage the nodes share";
  if (f == Field::PageableBandwidth && s.value(Field::LinkPinned) != 0)
    return "the copy is pinned (link.pinned = true): the pageable rate applies with link.pinned = false";
  if (among(f, {Field::DecoderRate, Field::GpuTime}) && s.value(Field::TransformDevice) == 0)
    return "the transform runs on the CPU (transform.device = \"cpu\")";
  if (f == Field::MemcpyBandwidth && s.has(Field::CollateBandwidth) && s.has(Field::PinBandwidth))
    return "cpu.collate_bandwidth and cpu.pin_bandwidth are set: the copy rate stands in for neither";
  const auto stage_off = [&](std::string_view table, Stage stage) {
    return spec(f).key.starts_with(table) && !d.result.stage(stage).modelled;
  };
  if (stage_off("storage.", Stage::Storage) || (stage_off("node.", Stage::Storage) && f != Field::NetworkBandwidth))
    return "storage is not modelled (storage.read_bandwidth): what a node caches or reads acts on nothing";
  if (stage_off("link.", Stage::Transfer)) return "the host-to-device copy is not modelled (link.bandwidth)";
  return "changes no figure of this diagnosis (it may act in pipesim simulate, or with other keys set)";
}

}  // namespace

std::vector<UnusedKey> unused_keys(const Scenario& s, std::span<const Field> set_by_user) {
  std::vector<UnusedKey> out;
  Diagnosis d;
  try {
    d = diagnose_with_assumptions(s);
  } catch (const Error&) {
    return out;
  }
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
    if (!tried.empty() && !acts) out.push_back({f, reason(s, d, f)});
  }
  return out;
}

}  // namespace pipesim
