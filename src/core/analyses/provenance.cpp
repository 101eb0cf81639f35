#include "core/analyses/provenance.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

namespace pipesim {

namespace {

// A figure set in the scenario as its preset set it (the loader drops an entry whose figure a
// later layer sets): the step stands while it is measured at all.
bool standing(Field figure, const Scenario& s) {
  return figure == Field::MeasuredPerSample ? s.step_measured() : s.has(figure);
}

// The figure acts on this scenario's answer: the transform's figures where that transform runs.
bool acts(Field figure, const Inputs& in) {
  switch (figure) {
    case Field::DecoderRate:
    case Field::DecoderEngines:
    case Field::DecoderFrameRate:
      return in.transform.at == TransformAt::Decoder;
    case Field::GpuTime:
      return in.transform.at == TransformAt::Gpu || in.transform.at == TransformAt::Decoder;
    case Field::HostCost:
      return in.transform.at != TransformAt::Cpu;
    case Field::WorkerSampleRate:
    case Field::WorkerThroughput:
    case Field::TransformCost:
    case Field::FrameCost:
      return in.transform.at == TransformAt::Cpu;
    case Field::ActivationBytes:
      return in.compute.memory_capacity.has_value();
    default:
      return true;
  }
}

// The scenario's value of a context field differs from the one measured for: another
// accelerator, a model more than 1% apart, a sample a tenth or ten times the size, another shape.
bool changed(Field f, double measured, double now) {
  switch (f) {
    case Field::SampleSize:
      return now >= 10 * measured || now * 10 <= measured;
    case Field::Parameters:
    case Field::FlopsPerSample:
      return std::abs(now - measured) > 0.01 * measured;
    default:
      return now != measured;
  }
}

}  // namespace

bool context_field(Field f) {
  switch (f) {
    case Field::Parameters:
    case Field::FlopsPerSample:
    case Field::AcceleratorType:
    case Field::SampleSize:
    case Field::DeviceShape:
    case Field::TransformDevice:
      return true;
    default:
      return false;
  }
}

bool memory_figure(Field f) { return f == Field::ActivationBytes; }

std::vector<ForeignFigure> foreign_figures(const Scenario& s, const Inputs& in, const std::vector<MeasuredFor>& all) {
  std::vector<ForeignFigure> out;
  for (const MeasuredFor& m : all) {
    if (!standing(m.figure, s) || !acts(m.figure, in)) continue;
    ForeignFigure f{&m, {}};
    for (const auto& [field, measured] : m.context)
      if (s.has(field) && changed(field, measured, s.get(field))) f.changed.emplace_back(field, s.get(field));
    if (!f.changed.empty()) out.push_back(std::move(f));
  }
  return out;
}

namespace {

// A context field's value as a scenario file writes it.
std::string context_value(Field f, double v) {
  const FieldSpec& s = spec(f);
  return format_value(s, v, first_dim(s));
}

}  // namespace

std::string foreign_text(const ForeignFigure& f) {
  std::string measured, here;
  for (std::size_t i = 0; i < f.changed.size(); ++i) {
    const Field field = f.changed[i].first;
    const char* sep = i == 0 ? "" : i + 1 == f.changed.size() ? " and " : ", ";
    const auto it =
        std::find_if(f.entry->context.begin(), f.entry->context.end(), [&](const auto& c) { return c.first == field; });
    measured += fmt::format("{}{} {}", sep, spec(field).key, context_value(field, it->second));
    here += fmt::format("{}{}", sep, context_value(field, f.changed[i].second));
  }
  const std::string_view figure =
      f.entry->figure == Field::MeasuredPerSample ? "the compute step" : spec(f.entry->figure).key;
  return fmt::format("{} is {}'s, measured for {}; here {}", figure, f.entry->preset, measured, here);
}

std::vector<Assumption> foreign_assumptions(const Scenario& s, const Inputs& in, const std::vector<MeasuredFor>& all) {
  std::vector<Assumption> out;
  for (const ForeignFigure& f : foreign_figures(s, in, all))
    out.push_back({f.entry->figure,
                   fmt::format("{}: it is used as it is (set {} measured for this scenario)", foreign_text(f),
                               f.entry->figure == Field::MeasuredPerSample ? std::string_view("model.measured_steps")
                                                                           : spec(f.entry->figure).key)});
  return out;
}

}  // namespace pipesim
