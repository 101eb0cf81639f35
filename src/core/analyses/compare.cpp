#include "core/analyses/compare.hpp"

namespace pipesim {

namespace {
// +1: larger is better; -1: smaller is better.
int better(CompareMetric m) {
  switch (m) {
    case CompareMetric::Throughput:
    case CompareMetric::ThroughputPerAccelerator:
    case CompareMetric::Utilization:
    case CompareMetric::WorstEpochUtilization:
    case CompareMetric::RunUtilization:
    case CompareMetric::SamplesPerUsd:
      return 1;
    default:
      return -1;
  }
}
}  // namespace

std::string_view compare_key(CompareMetric m) {
  switch (m) {
    case CompareMetric::Throughput:
      return "throughput_samples_per_s";
    case CompareMetric::ThroughputPerAccelerator:
      return "throughput_per_accelerator_samples_per_s";
    case CompareMetric::Utilization:
      return "utilization";
    case CompareMetric::WorstEpochUtilization:
      return "worst_epoch_utilization";
    case CompareMetric::RunUtilization:
      return "run_utilization";
    case CompareMetric::EpochTime:
      return "epoch_time_s";
    case CompareMetric::RunTime:
      return "run_time_s";
    case CompareMetric::RunCost:
      return "run_cost_usd";
    case CompareMetric::PricePerHour:
      return "price_per_hour_usd";
    case CompareMetric::CostPerEpoch:
      return "cost_per_epoch_usd";
    case CompareMetric::IdleCostPerEpoch:
      return "idle_cost_per_epoch_usd";
    case CompareMetric::SamplesPerUsd:
      return "samples_per_usd";
  }
  return "";
}

std::string_view compare_name(CompareMetric m) {
  switch (m) {
    case CompareMetric::Throughput:
      return "throughput";
    case CompareMetric::ThroughputPerAccelerator:
      return "per accelerator";
    case CompareMetric::Utilization:
      return "utilization";
    case CompareMetric::WorstEpochUtilization:
      return "first epoch";
    case CompareMetric::RunUtilization:
      return "over the run";
    case CompareMetric::EpochTime:
      return "epoch time";
    case CompareMetric::RunTime:
      return "run time";
    case CompareMetric::RunCost:
      return "cost of the run";
    case CompareMetric::PricePerHour:
      return "cost per hour";
    case CompareMetric::CostPerEpoch:
      return "cost per epoch";
    case CompareMetric::IdleCostPerEpoch:
      return "idle cost per epoch";
    case CompareMetric::SamplesPerUsd:
      return "samples per USD";
  }
  return "";
}

std::optional<double> compare_value(CompareMetric m, const Result& r) {
  switch (m) {
    case CompareMetric::Throughput:
      return r.throughput;
    case CompareMetric::ThroughputPerAccelerator:
      return r.throughput_per_accelerator;
    case CompareMetric::Utilization:
      return r.utilization;
    case CompareMetric::WorstEpochUtilization:
      return r.worst_epoch ? std::optional<double>(r.worst_epoch->utilization) : std::nullopt;
    case CompareMetric::RunUtilization:
      return r.run_utilization;
    case CompareMetric::EpochTime:
      return r.epoch_s;
    case CompareMetric::RunTime:
      return r.run_s;
    case CompareMetric::RunCost:
      return r.run_cost;
    case CompareMetric::PricePerHour:
      return r.price_per_hour;
    case CompareMetric::CostPerEpoch:
      return r.cost_per_epoch;
    case CompareMetric::IdleCostPerEpoch:
      return r.idle_cost_per_epoch;
    case CompareMetric::SamplesPerUsd:
      return r.samples_per_usd;
  }
  return std::nullopt;
}

std::vector<CompareRow> compare(const std::vector<Result>& results, const std::vector<bool>& fails) {
  // The best among the plans that do not fail their own requirements (among all when every one fails).
  const auto failing = [&](std::size_t j) { return j < fails.size() && fails[j]; };
  bool some_pass = false;
  for (std::size_t j = 0; j < results.size(); ++j) some_pass = some_pass || !failing(j);
  const auto excluded = [&](std::size_t j) { return some_pass && failing(j); };
  std::vector<CompareRow> rows;
  for (CompareMetric m : kCompareMetrics) {
    CompareRow row{
        m, {}, std::vector<bool>(results.size(), false), std::vector<std::optional<double>>(results.size()), false};
    bool all = true;
    for (const auto& r : results) {
      const auto v = compare_value(m, r);
      row.values.push_back(v);
      row.any |= v.has_value();
      all = all && v.has_value();
    }
    std::optional<double> top;
    for (std::size_t j = 0; all && j < results.size(); ++j) {
      if (excluded(j)) continue;
      const double v = *row.values[j];
      if (!top || (better(m) > 0 ? v > *top : v < *top)) top = v;
    }
    bool differ = false;
    if (all && results.size() >= 2)
      for (const auto& v : row.values) differ |= *v != *top;
    if (differ)
      for (std::size_t j = 0; j < results.size(); ++j) {
        row.best[j] = *row.values[j] == *top && !excluded(j);
        if (*top != 0) row.ratio[j] = *row.values[j] / *top;
      }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace pipesim
