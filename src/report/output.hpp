// The one way a result is written: a Report is any whole output, and the table in formats.cpp
// gives each (output, format) its writer. A format is one file that lists what it writes
// (`<name>_writers()`) and one row in that table.
// Writers compute nothing: every number they print is a member of a core result.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "report/attribution.hpp"
#include "report/calibration.hpp"
#include "report/format.hpp"
#include "report/presets.hpp"
#include "report/renderer.hpp"

namespace pipesim {

// What each whole output is made from (references: a Report lives as long as the statement
// that writes it).
struct DiagnosisReport {
  static constexpr Output kind = Output::Diagnosis;
  const LoadedScenario& loaded;
  const Diagnosis& diagnosis;
};
struct CheckReport {
  static constexpr Output kind = Output::Check;
  const std::vector<PlanReport>& plans;
};
struct CompareReport {
  static constexpr Output kind = Output::Compare;
  const std::vector<PlanReport>& plans;
  const std::vector<CompareRow>& rows;
};
struct SimulationReport {
  static constexpr Output kind = Output::Simulation;
  const LoadedScenario& loaded;
  const Simulation& simulation;
};
struct AttributionReport {
  static constexpr Output kind = Output::Attribution;
  const Attribution& attribution;
};
struct SolutionReport {
  static constexpr Output kind = Output::Solution;
  const LoadedScenario& loaded;
  const JointSolution& solution;
};
struct StepLogReport {
  static constexpr Output kind = Output::StepLog;
  const std::string& path;
  const StepLog& log;
  const StepLogSummary& summary;
};
struct TraceReport {
  static constexpr Output kind = Output::Trace;
  const TraceSummary& summary;
  // --format toml: the scenario that reproduces the trace, solved for its worker rate.
  const LoadedScenario* loaded = nullptr;
  const JointSolution* solution = nullptr;
};
struct DecodeReport {
  static constexpr Output kind = Output::Decode;
  const DecodeCalibration& calibration;
};
struct StorageReport {
  static constexpr Output kind = Output::Storage;
  const StorageCalibration& calibration;
};
struct MemoryReport {
  static constexpr Output kind = Output::Memory;
  const MemoryCalibration& calibration;
};
struct LoopReport {
  static constexpr Output kind = Output::Loop;
  const LoopCalibration& calibration;
};
struct PresetListReport {
  static constexpr Output kind = Output::PresetList;
  const std::vector<PresetEntry>& presets;
};
struct KeysReport {
  static constexpr Output kind = Output::Keys;
  std::string_view filter;  // only the keys that contain it
};
struct PresetReport {
  static constexpr Output kind = Output::Preset;
  const PresetEntry& entry;
  const LoadedScenario& loaded;  // the preset composed
  std::string_view toml;         // its text
};
// A sweep is written row by row as its points are computed (SweepRenderer), not whole.
using Report = std::variant<DiagnosisReport, CheckReport, CompareReport, SimulationReport, AttributionReport,
                            SolutionReport, StepLogReport, TraceReport, DecodeReport, StorageReport, MemoryReport,
                            LoopReport, PresetListReport, KeysReport, PresetReport>;

Output output_of(const Report& r);

// One output in one format: `columns` is the width a text format wraps prose to (0: one line
// per sentence); the others ignore it.
struct Writer {
  Output output;
  std::function<void(Out& o, const Report& r, std::size_t columns)> write;
};
// The writer of report kind R from a function of R itself.
template <class R, class Fn>
Writer writer(Fn fn) {
  return {R::kind, [fn](Out& o, const Report& r, std::size_t columns) { fn(o, std::get<R>(r), columns); }};
}

// `r` in `format`, whole, as a string (nothing is written when something fails). The format was
// parsed for r's output (parse_format), so it writes it.
std::string render(Format format, const Report& r, std::size_t columns = 0);
// The renderer of a sweep in `format`, which was parsed for sweeps.
std::unique_ptr<SweepRenderer> sweep_renderer(Format format);

}  // namespace pipesim
