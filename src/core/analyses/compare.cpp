#include "core/analyses/compare.hpp"

namespace pipesim {

namespace {
// +1: larger is better; -1: smaller is better.
int better(CompareMetric m) {
  switch (m) {
    case CompareMetric::Throughput:
    case CompareMetric::ThroughputPerAccelerator:
    case CompareMetric::Utilization:
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
    case CompareMetric::EpochTime:
      return "epoch_time_s";
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
    case CompareMetric::EpochTime:
      return "epoch time";
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
    case CompareMetric::EpochTime:
      return r.epoch_s;
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

std::vector<CompareRow> compare(const std::vector<Result>& results) {
  std::vector<CompareRow> rows;
  for (CompareMetric m : kCompareMetrics) {
    CompareRow row{
        m, {}, std::vector<bool>(results.size(), false), std::vector<std::optional<double>>(results.size()), false};
    std::optional<double> top;
    bool all = true;
    for (const auto& r : results) {
      const auto v = compare_value(m, r);
      row.values.push_back(v);
      row.any |= v.has_value();
      if (!v)
        all = false;
      else if (!top || (better(m) > 0 ? *v > *top : *v < *top))
        top = v;
    }
    bool differ = false;
    if (all && results.size() >= 2)
      for (const auto& v : row.values) differ |= *v != *top;
    if (differ)
      for (std::size_t j = 0; j < results.size(); ++j) {
        row.best[j] = *row.values[j] == *top;
        if (*top != 0) row.ratio[j] = *row.values[j] / *top;
      }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace pipesim
