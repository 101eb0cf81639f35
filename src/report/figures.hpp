// The figure registry: one row per figure of an operating point, as kFields is one row per
// input. JSON's point members, a CSV sweep's figure columns and the checks of the table's
// figures loop over it, so adding a figure is one row in figures.cpp. A row reads a value the
// core computed (or leaves it out); it computes nothing.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "core/stages/model.hpp"

namespace pipesim {

// What a figure's number is, which decides how it is written: JSON and CSV write numbers in SI
// base units (flags as true/false, walls as stage keys), people read it through figure_text.
enum class FigureUnit : std::uint8_t {
  Seconds,
  Fraction,    // 0..1, shown as a percentage
  SampleRate,  // samples per second
  ByteRate,    // bytes per second
  Bytes,
  Count,
  Factor,      // a ratio such as step / compute ("1.06x")
  Usd,         // US dollars
  UsdPerHour,  // US dollars per hour
  SamplesPerUsd,
  Flag,   // 1 or 0: true or false
  Walls,  // a set of stages (bit per Stage)
  Limit,  // a stage's Limit
};

// Where JSON writes a figure: among the point's members, or inside its "first_epoch" object.
enum class FigureGroup : std::uint8_t { Point, FirstEpoch };

// When a CSV sweep has the figure's column: never, at every grid, or when some point of the grid
// has the part (SweepLayout's effective_workers, first_epoch, worst_epoch, run, cost).
enum class CsvPart : std::uint8_t { None, Always, EffectiveWorkers, FirstEpoch, WorstEpoch, Run, Cost };

// What a figure is read from: an operating point's result and, in a sweep's row, whether the
// binding wall changed from the row before.
struct FigureSource {
  const Result& result;
  std::optional<bool> crossed;  // a sweep's row only
};

struct PointFigure {
  std::string_view key;  // JSON member (within "first_epoch" for that group): stable
  FigureGroup group;
  FigureUnit unit;
  std::string_view label;  // for people
  std::string_view csv;    // the CSV sweep's column, when csv_part is not None: stable
  CsvPart csv_part;
  bool table;                                           // the table's diagnosis shows it (wherever the point has it)
  std::optional<double> (*value)(const FigureSource&);  // nullopt: the point has no such figure
};

// A figure of each stage: JSON's "stages" members; `time_s` is also a CSV sweep's
// `<stage>_time_s` column and the table's "time/batch".
struct StageFigure {
  std::string_view key;
  FigureUnit unit;
  std::string_view label;
  bool csv;                                            // a CSV sweep's `<stage>_<key>` column
  bool table;                                          // the table's stage lines show it
  std::optional<double> (*value)(const StageResult&);  // nullopt: not modelled, or no such figure
};

// In the order JSON writes them and a CSV sweep's columns come (the CSV's in their own order).
std::span<const PointFigure> point_figures();
std::span<const StageFigure> stage_figures();

}  // namespace pipesim
