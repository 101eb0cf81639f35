#include "core/sim/steplog.hpp"

#include <fmt/format.h>

#include "core/base/error.hpp"

namespace pipesim {

StepLogSummary summarise_step_log(const std::vector<StepRecord>& records, std::size_t skip,
                                  std::optional<double> batch) {
  if (records.size() <= skip)
    throw Error(
        fmt::format("the log has {} record{} with data_time and time, and the first {} {} left out: "
                    "nothing is left to summarise (--skip 0 keeps them)",
                    records.size(), records.size() == 1 ? "" : "s", skip, skip == 1 ? "is" : "are"));
  StepLogSummary s;
  s.left_out = skip;
  std::vector<double> waits;
  std::vector<double> times;
  double loop = 0;
  for (std::size_t i = skip; i < records.size(); ++i) {
    waits.push_back(records[i].data_time_s);
    times.push_back(records[i].time_s);
    loop += records[i].time_s - records[i].data_time_s;
  }
  s.records = times.size();
  const double n = static_cast<double>(s.records);
  s.wait = spread(waits);
  s.time = spread(times);
  s.mean_data_time_s = s.wait.mean;
  s.mean_time_s = s.time.mean;
  s.loop_step_s = loop / n;
  s.input_bound_fraction = s.mean_time_s > 0 ? s.mean_data_time_s / s.mean_time_s : 0;
  s.input_bound = s.input_bound_fraction >= kInputBound;
  if (s.mean_time_s > 0) s.loader_steps_per_s = 1 / s.mean_time_s;
  if (s.loop_step_s > 0) s.loop_steps_per_s = 1 / s.loop_step_s;
  if (batch) s.loader_samples_per_s = *batch * s.loader_steps_per_s;
  return s;
}

}  // namespace pipesim
