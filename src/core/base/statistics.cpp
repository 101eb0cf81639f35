#include "core/base/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace pipesim {

double mean(std::span<const double> v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

WaitHistogram wait_histogram(std::span<const double> waits, std::size_t bins) {
  WaitHistogram h;
  h.total = waits.size();
  double most = 0;
  for (double w : waits) {
    most = std::max(most, w);
    h.no_wait += w > 0 ? 0 : 1;
  }
  if (!(most > 0) || bins == 0) return h;
  // The smallest round width that covers the largest wait in `bins` bins.
  const double raw = most / static_cast<double>(bins);
  double width = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * width >= raw * (1 - 1e-12)) {
      width *= m;
      break;
    }
  h.bin_s = width;
  h.counts.assign(std::min(bins, static_cast<std::size_t>(std::ceil(most / width - 1e-9))), 0);
  if (h.counts.empty()) h.counts.resize(1);
  for (double w : waits) {
    if (!(w > 0)) continue;
    const auto k = static_cast<std::size_t>(std::max(0.0, std::ceil(w / width - 1e-9) - 1));
    ++h.counts[std::min(k, h.counts.size() - 1)];
  }
  return h;
}

Spread spread(std::vector<double> v) { return spread_sorting(v); }

Spread spread_sorting(std::span<double> v) {
  Spread s;
  if (v.empty()) return s;
  // Values of 0 (most of the waits of a pipeline that keeps up) need no sorting: when every value
  // is positive or +0 (no negative, no -0 whose place among the zeros the sort decides, no NaN)
  // the zeros go first, where the sort would put them, and only the rest is sorted.
  if (std::all_of(v.begin(), v.end(), [](double x) { return x > 0 || (x == 0 && !std::signbit(x)); }))
    std::sort(std::partition(v.begin(), v.end(), [](double x) { return !(x > 0); }), v.end());
  else
    std::sort(v.begin(), v.end());
  s.mean = mean(v);
  // Nearest rank: the smallest value with at least p of the values at or below it.
  const auto rank = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(k, 1, v.size()) - 1];
  };
  s.p50 = rank(0.50);
  s.p95 = rank(0.95);
  s.p99 = rank(0.99);
  s.max = v.back();
  return s;
}

}  // namespace pipesim
