// Renderers: the same results as a table for people, or JSON, CSV and markdown.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/diagnosis.hpp"
#include "core/sweep.hpp"
#include "report/format.hpp"

namespace pipesim {

// The whole `diagnose` output.
std::string render_diagnosis(const LoadedScenario& loaded, const Scenario& s, const Diagnosis& d,
                             Format format);

// One sentence per fix: what to change, and what it buys.
std::string describe_fix(const Diagnosis& d, const Fix& fix);

// The members (no braces) of one operating point's JSON object: inputs, stages, step,
// binding, utilization, ... and, given a diagnosis, its recommendations.
void json_point(Out& o, const Scenario& s, const Result& r, const Diagnosis* d);

// Binding stages joined with '+': "transform", "transform+compute".
std::string binding_text(const Result& r);

// Writes `sweep` rows as they are computed (nothing is held back).
class SweepWriter {
 public:
  // `cost`: add cost columns (the scenario must have a price).
  SweepWriter(std::FILE* out, Format format, const std::vector<Axis>& axes, const Result& first, bool cost);
  void row(const SweepPoint& p);
  void finish();

 private:
  Out out_;
  Format format_;
  std::vector<Field> inputs_;
  std::vector<Stage> stages_;  // modelled stages shown in tables
  std::size_t rows_ = 0;
  bool cost_ = false;
};

}  // namespace pipesim
