// Statistics of a simulation's figures: means, nearest-rank percentiles and a histogram of the
// loop's waits. Pure functions over plain vectors.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace pipesim {

// A distribution's mean and percentiles (nearest rank).
struct Spread {
  double mean = 0, p50 = 0, p95 = 0, p99 = 0, max = 0;
};
Spread spread(std::vector<double> values);
// The same, sorting the values where they are (a simulation's waits: no copy of millions).
Spread spread_sorting(std::span<double> values);
// The mean (0 when empty).
double mean(std::span<const double> values);

// The loop's waits as a histogram: `no_wait` values that are 0 (the batch was ready: the same
// test that counts a step as not held up), the rest in `counts`, bin k holding (k, k+1] x bin_s.
// The bin width is a round number (1, 2 or 5 times a power of ten) giving at most `bins` bins.
struct WaitHistogram {
  double bin_s = 0;  // 0 when nothing waited
  std::size_t no_wait = 0;
  std::size_t total = 0;
  std::vector<std::size_t> counts;
};
WaitHistogram wait_histogram(std::span<const double> waits, std::size_t bins);

}  // namespace pipesim
