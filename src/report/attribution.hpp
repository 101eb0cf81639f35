// What `pipesim attribute` prints: the stage costs of the caching experiments as a table with the
// binding stage in words, as the TOML fragment that reproduces every measured rate, or as JSON.
// Computes nothing.
#pragma once

#include <functional>
#include <string>

#include "config/loader.hpp"
#include "config/steplog.hpp"
#include "core/analyses/attribute.hpp"
#include "core/analyses/solve.hpp"
#include "core/analyses/trace.hpp"

namespace pipesim {

std::string attribution_table(const Attribution& a);
std::string attribution_toml(const Attribution& a);
std::string attribution_json(const Attribution& a);

// `attribute observed`: the solved field in words (with several observations, what each gives
// alone and how far apart), the model's figures after it, and the scenario with it filled in
// (every field with where it came from).
std::string solution_table(const LoadedScenario& loaded, const JointSolution& j);
std::string solution_toml(const LoadedScenario& loaded, const JointSolution& j);
// The same under another heading (a comment, wrapped).
std::string solved_toml(const LoadedScenario& loaded, const JointSolution& j, std::string_view heading);
std::string solution_json(const LoadedScenario& loaded, const JointSolution& j);

// `attribute log`: a per-step log's waits, the input-bound fraction and the loader's rate.
std::string step_log_table(const std::string& path, const StepLog& log, const StepLogSummary& s);
std::string step_log_json(const std::string& path, const StepLog& log, const StepLogSummary& s);
// attribute trace: a profiler trace's steps per rank and over them, for people and as JSON.
std::string trace_table(const TraceSummary& s);
std::string trace_json(const TraceSummary& s);
// The scenario that reproduces the trace: `loaded` with the trace's keys set, solved for its
// worker rate at the pace the trace kept.
std::string trace_toml(const TraceSummary& s, const LoadedScenario& loaded, const JointSolution& j);

// The fields set in `s` as TOML tables in registry order, each value with its unit, followed by
// `comment(field)` when that is not empty. A value has `digits(field)` significant digits, or
// every digit it needs to read back exactly when that is 0.
// A field's value as TOML: true/false, a choice's name, a plain number, or a quoted quantity
// with its unit (`digits` significant digits when > 0, else every digit needed).
std::string toml_value(const FieldSpec& f, double v, Dim dim, int digits = 0);
std::string scenario_toml(const Scenario& s, const std::function<std::string(Field)>& comment,
                          const std::function<int(Field)>& digits);

}  // namespace pipesim
