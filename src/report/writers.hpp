// The outputs a command writes whole, one function per format: attribute's (the caching
// experiments, a solved scenario, a log's summary), calibrate's (decode, storage, memory, loop) and
// presets' (the list, the keys, one preset). formats.cpp's table gives each format its writers
// beside its renderers, and the formats a command accepts follow from which writers a format has.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/attribution.hpp"
#include "report/calibration.hpp"
#include "report/format.hpp"
#include "report/presets.hpp"

namespace pipesim {

struct TextWriters {
  std::string (*attribution)(const Attribution& a) = nullptr;
  std::string (*solution)(const LoadedScenario& loaded, const JointSolution& j) = nullptr;
  std::string (*step_log)(const std::string& path, const StepLog& log, const StepLogSummary& s) = nullptr;
  std::string (*decode)(const DecodeCalibration& c) = nullptr;
  std::string (*storage)(const StorageCalibration& c) = nullptr;
  std::string (*memory)(const MemoryCalibration& c) = nullptr;
  std::string (*loop)(const LoopCalibration& c) = nullptr;
  void (*preset_list)(Out& o, const std::vector<PresetEntry>& presets) = nullptr;
  void (*keys)(Out& o, std::string_view filter) = nullptr;
  // One preset: `loaded` is it composed, `toml` its text.
  void (*preset)(Out& o, const PresetEntry& p, const LoadedScenario& loaded, std::string_view toml) = nullptr;
};

// Format f's writers: null where f does not write that output. parse_format lets through only a
// format that has the writer its output needs (attribute's log summary has no TOML: the command
// refuses it first).
const TextWriters& text_writers(Format f);

}  // namespace pipesim
