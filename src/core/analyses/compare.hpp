// Plans side by side: the figures compared, and which plan is best in each.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/stages/model.hpp"

namespace pipesim {

enum class CompareMetric : std::uint8_t {
  Throughput,                // the plan's: every accelerator of every node
  ThroughputPerAccelerator,  // beside it, so plans of different sizes compare
  Utilization,               // the steady state's
  WorstEpochUtilization,     // the first epoch with its start (and its cold page cache): the run's slowest
  RunUtilization,            // over the whole run
  EpochTime,
  RunTime,
  PricePerHour,
  CostPerEpoch,
  RunCost,
  IdleCostPerEpoch,
  SamplesPerUsd,
};
inline constexpr std::array kCompareMetrics = {CompareMetric::Throughput,       CompareMetric::ThroughputPerAccelerator,
                                               CompareMetric::Utilization,      CompareMetric::WorstEpochUtilization,
                                               CompareMetric::RunUtilization,   CompareMetric::EpochTime,
                                               CompareMetric::RunTime,          CompareMetric::PricePerHour,
                                               CompareMetric::CostPerEpoch,     CompareMetric::RunCost,
                                               CompareMetric::IdleCostPerEpoch, CompareMetric::SamplesPerUsd};
std::string_view compare_key(CompareMetric m);   // "throughput_samples_per_s", ... (JSON and CSV)
std::string_view compare_name(CompareMetric m);  // "throughput", ... (tables)
std::optional<double> compare_value(CompareMetric m, const Result& r);

struct CompareRow {
  CompareMetric metric;
  std::vector<std::optional<double>> values;  // one per plan
  std::vector<bool> best;                     // the best plan(s), when every plan has a value and not all are equal
  // Each plan's value over the best one ("0.27" of the best throughput, "3.67" times the best
  // epoch time), when the row has a best and it is not 0.
  std::vector<std::optional<double>> ratio;
  bool any = false;  // some plan has a value
};

// One row per metric, in kCompareMetrics order. `fails`, when given (one per plan): the plans that
// fail their own requirements, which a row's best is never given to while another plan has a
// value that does not fail.
std::vector<CompareRow> compare(const std::vector<Result>& results, const std::vector<bool>& fails = {});

}  // namespace pipesim
