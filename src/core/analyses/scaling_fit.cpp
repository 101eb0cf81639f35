#include "core/analyses/scaling_fit.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/error.hpp"

namespace pipesim {

double usl_rate(const ScalingFit& f, double threads) {
  const double n = threads;
  return f.single * n / (1 + f.sigma * (n - 1) + f.kappa * n * (n - 1));
}

namespace {

// Least squares of y = a x (one parameter, through the origin), a >= 0.
double fit_one(const std::vector<double>& x, const std::vector<double>& y) {
  double xx = 0, xy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    xx += x[i] * x[i];
    xy += x[i] * y[i];
  }
  return xx > 0 ? std::max(0.0, xy / xx) : 0;
}

}  // namespace

ScalingFit fit_scaling(const std::vector<ScalingPoint>& points) {
  ScalingFit f;
  bool have_one = false;
  for (const auto& p : points) {
    if (!(p.rate > 0) || !std::isfinite(p.rate) || !(p.threads >= 1) || !std::isfinite(p.threads))
      throw Error("scaling fit: every measurement needs a thread count >= 1 and a rate > 0");
    if (p.threads == 1) {
      f.single = p.rate;
      have_one = true;
    }
  }
  if (!have_one) throw Error("scaling fit: needs a measurement at 1 thread");
  // The law's linear form: y = N / C(N) - 1 = sigma x1 + kappa x2, x1 = N - 1, x2 = N (N - 1).
  std::vector<double> x1, x2, y;
  for (const auto& p : points) {
    if (p.threads == 1) continue;
    const double n = p.threads;
    x1.push_back(n - 1);
    x2.push_back(n * (n - 1));
    y.push_back(n / (p.rate / f.single) - 1);
  }
  std::vector<double> counts;
  for (const auto& p : points)
    if (p.threads > 1 && std::find(counts.begin(), counts.end(), p.threads) == counts.end())
      counts.push_back(p.threads);
  f.sigma_fitted = !counts.empty();
  f.kappa_fitted = counts.size() >= 2;
  if (f.kappa_fitted) {
    // Normal equations of the two-parameter fit; when either comes out negative the law with
    // that term at 0 is the constrained optimum: fit the other alone.
    double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      s11 += x1[i] * x1[i];
      s12 += x1[i] * x2[i];
      s22 += x2[i] * x2[i];
      s1y += x1[i] * y[i];
      s2y += x2[i] * y[i];
    }
    const double det = s11 * s22 - s12 * s12;
    const double sigma = det != 0 ? (s1y * s22 - s2y * s12) / det : -1;
    const double kappa = det != 0 ? (s2y * s11 - s1y * s12) / det : -1;
    if (sigma >= 0 && kappa >= 0) {
      f.sigma = sigma;
      f.kappa = kappa;
    } else {
      // The better of the two one-term fits (by the squared error of the linear form).
      const auto sse = [&](double s, double k) {
        double e = 0;
        for (std::size_t i = 0; i < y.size(); ++i) e += std::pow(s * x1[i] + k * x2[i] - y[i], 2);
        return e;
      };
      const double only_sigma = fit_one(x1, y), only_kappa = fit_one(x2, y);
      if (sse(only_sigma, 0) <= sse(0, only_kappa))
        f.sigma = only_sigma;
      else
        f.kappa = only_kappa;
    }
  } else {
    f.sigma = fit_one(x1, y);
  }
  for (const auto& p : points) {
    const double r = (usl_rate(f, p.threads) - p.rate) / p.rate;
    f.residuals.push_back(r);
    f.max_abs_residual = std::max(f.max_abs_residual, std::abs(r));
  }
  return f;
}

std::optional<double> fit_oversubscription(const std::vector<SlicingPoint>& points, double logical) {
  std::optional<double> at_cores;
  bool above = false;
  for (const auto& p : points) {
    if (!(p.cpu_per_unit > 0) || !std::isfinite(p.cpu_per_unit) || !(p.threads >= 1) || !std::isfinite(p.threads))
      throw Error("time slicing fit: every measurement needs a thread count >= 1 and a CPU time > 0");
    if (p.threads == logical) at_cores = p.cpu_per_unit;
    above |= p.threads > logical;
  }
  if (!above) return std::nullopt;
  if (!at_cores) throw Error("time slicing fit: needs a measurement at as many threads as logical CPUs");
  std::vector<double> x, y;
  for (const auto& p : points) {
    if (p.threads <= logical) continue;
    x.push_back((p.threads - logical) / logical);
    y.push_back(p.cpu_per_unit / *at_cores - 1);
  }
  return fit_one(x, y);
}

}  // namespace pipesim
