// Fitting the Universal Scalability Law (docs/model.md, "What real loaders do") to measured rates: what
// `calibrate decode` reports as cpu.scaling_contention and cpu.scaling_coherency.
#pragma once

#include <optional>
#include <vector>

namespace pipesim {

// One measurement: `threads` running at once delivered `rate` in all (any unit, the same
// for every point).
struct ScalingPoint {
  double threads = 1;
  double rate = 0;
};

struct ScalingFit {
  double single = 0;          // the rate of one thread (the measurement at 1)
  double sigma = 0;           // contention, >= 0
  double kappa = 0;           // coherency, >= 0
  bool sigma_fitted = false;  // false: no thread count above 1, so sigma is not measured (held at 0)
  bool kappa_fitted = false;  // false: fewer than two thread counts above 1, kappa held at 0
  // Per point, in input order: (fitted - measured) / measured.
  std::vector<double> residuals;
  double max_abs_residual = 0;
};

// The law's rate at `threads`: single * N / (1 + sigma (N-1) + kappa N (N-1)).
double usl_rate(const ScalingFit& f, double threads);

// Least squares of N / C(N) - 1 = sigma (N-1) + kappa N (N-1) over the points above one
// thread, where C(N) = rate(N) / rate(1) (the linear form of the law), with sigma and kappa
// kept >= 0. Needs a point at 1 thread and every rate > 0; throws Error otherwise. With one
// thread count above 1, kappa is held at 0 (kappa_fitted false).
ScalingFit fit_scaling(const std::vector<ScalingPoint>& points);

// Time slicing (cpu.oversubscription_cost): `threads` at once spent `cpu_per_unit` CPU
// seconds on each unit of work (the mean over the threads).
struct SlicingPoint {
  double threads = 1;
  double cpu_per_unit = 0;
};
// The least squares o >= 0 of cpu(N) / cpu(C) - 1 = o (N - C) / C over the points above
// C = `logical` CPUs, against the point at C. nullopt when no point is above C; throws Error
// when one is but none is at C, or a figure is not positive and finite.
std::optional<double> fit_oversubscription(const std::vector<SlicingPoint>& points, double logical);

}  // namespace pipesim
