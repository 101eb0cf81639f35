// What a preset's measured figures were measured for: a figure kept in a scenario that changed
// the model, the accelerator or the data it was measured for is another's figure.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/analyses/diagnosis.hpp"
#include "core/base/fields.hpp"
#include "core/stages/model.hpp"

namespace pipesim {

// One figure a preset sets as a measurement (`[measured_for."KEY"]`), with what it was measured
// for: the values of some of model.parameters, model.flops_per_sample, accelerator.type,
// workload.sample_size and workload.device_shape there. The compute step measured at several
// batch sizes is the figure model.measured_per_sample.
struct MeasuredFor {
  Field figure;
  std::string preset;  // who set it, as `use` names it
  std::vector<std::pair<Field, double>> context;
};

// The fields a figure may be measured for, and whether one may be.
bool context_field(Field f);

// Where the scenario differs from what a figure was measured for: a context field it sets to
// another accelerator, another model (parameters or FLOPs more than 1% apart), another kind of
// data (a sample a tenth or ten times the size, another shape on the device).
struct ForeignFigure {
  const MeasuredFor* entry = nullptr;
  std::vector<std::pair<Field, double>> changed;  // each context field changed, with the scenario's value
};
// The figures the scenario still takes from their preset (set, and the compute step still
// measured) whose context it changed, and which act on it (`in`): a decoder rate where the
// decoder decodes, a GPU decode time where the GPU does, a worker's rate where the CPU transforms.
std::vector<ForeignFigure> foreign_figures(const Scenario& s, const Inputs& in, const std::vector<MeasuredFor>& all);

// "transform.gpu_time is resnet50-imagenet-amp's, measured for accelerator.type a100-80gb-sxm;
// here h100-sxm": what the figure was measured for against the scenario, in words.
std::string foreign_text(const ForeignFigure& f);
// The same as assumptions, with the key that replaces each (the figure itself).
std::vector<Assumption> foreign_assumptions(const Scenario& s, const Inputs& in, const std::vector<MeasuredFor>& all);

// Whether a figure bears on accelerator memory (fits_in_memory) rather than on the step.
bool memory_figure(Field f);

}  // namespace pipesim
