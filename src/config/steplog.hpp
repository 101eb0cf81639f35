// Reading a training loop's per-step log of data_time and time for `pipesim attribute log`:
// JSON lines (mmcv's *.log.json, MMEngine's scalars.json), CSV with data_time and time columns
// (Lightning's CSVLogger, any script) or text lines with "data_time: 0.12" and "time: 0.35"
// (mmcv and MMEngine's console log). Records without both figures (validation, other metrics)
// are skipped; malformed input is an Error at file:line:col.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/sim/steplog.hpp"

namespace pipesim {

enum class StepLogFormat { Auto, JsonLines, Csv, Text };

// "auto", "jsonl", "csv", "text"; throws Error otherwise.
StepLogFormat parse_step_log_format(std::string_view name);

struct StepLog {
  std::vector<StepRecord> records;
  StepLogFormat format = StepLogFormat::Auto;  // the one used
  std::size_t skipped = 0;                     // records without both figures
};

// Reads `path`; `source` names it in errors.
StepLog read_step_log(const std::string& path, StepLogFormat format);
// The same from text already in memory.
StepLog parse_step_log(std::string_view text, const Origin& doc, StepLogFormat format);

}  // namespace pipesim
