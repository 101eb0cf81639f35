#include "core/stages/variance.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pipesim {

namespace {

// Reflected Brownian motion on [0, K] with drift theta and variance s2 per unit time: the rate
// at which it pushes at 0 (here, batches per second the loop would have taken but found none).
double starved_rate(double theta, double K, double s2) {
  const double x = 2 * theta * K / s2;
  if (std::abs(x) < 1e-9) return s2 / (2 * K);
  if (x > 700) return 0;
  return theta / std::expm1(x);
}

}  // namespace

// Acklam's rational approximation.
double normal_quantile(double p) {
  constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                          1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
                          -1.328068155288572e+01};
  constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                          -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double low = 0.02425;
  if (p < low) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) return -normal_quantile(1 - p);
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double expected_max_normal(double n) {
  if (n <= 1) return 0;
  return normal_quantile((n - 0.375) / (n + 0.25));
}

Slowest slowest_of(double n, double cv) {
  if (n <= 1 || cv <= 0) return {1, n <= 1 ? std::max(cv, 0.0) : 0};
  // The largest of n draws exp(mu + sigma z) has the density n phi(z) Phi(z)^(n-1) in z; its
  // first two moments by Simpson's rule over z in [-9, 9], far past where that density is not
  // negligible for any n a cluster has (the upper tail beyond 9 weighs n x 1e-19).
  const double sigma = std::sqrt(std::log1p(cv * cv)), mu = -sigma * sigma / 2;
  constexpr int kSteps = 720;
  constexpr double kFrom = -9, kTo = 9, kH = (kTo - kFrom) / kSteps;
  double m0 = 0, m1 = 0, m2 = 0;  // m0, the density's own integral, takes out the rule's error
  for (int i = 0; i <= kSteps; ++i) {
    const double z = kFrom + kH * i;
    const double upper = 0.5 * std::erfc(z / std::numbers::sqrt2);  // P(Z > z), exact in the tail
    const double density =
        n * std::exp(-z * z / 2) / std::sqrt(2 * std::numbers::pi) * std::exp((n - 1) * std::log1p(-upper));
    const double weight = (i == 0 || i == kSteps ? 1 : i % 2 == 1 ? 4 : 2) * kH / 3;
    const double x = std::exp(mu + sigma * z);
    m0 += weight * density;
    m1 += weight * density * x;
    m2 += weight * density * x * x;
  }
  m1 /= m0;
  m2 /= m0;
  return {m1, std::sqrt(std::max(0.0, m2 - m1 * m1))};
}

double padded_length(double batch, double cv, double buckets) {
  if (batch <= 1 || cv <= 0) return 1;
  // Lengths exp(mu + sigma z), z standard normal; bucket j holds z between the quantiles of
  // (j - 1) / k and j / k. Within it z has the density phi / (1 / k) and the distribution
  // G = k (Phi - (j - 1) / k); the longest of B draws, the density B g G^(B-1). Its mean by
  // Simpson's rule over the bucket (cut to [-9, 9], where the density's weight ends for any
  // batch), over the density's own integral to take out the rule's error.
  const double sigma = std::sqrt(std::log1p(cv * cv)), mu = -sigma * sigma / 2;
  const int k = static_cast<int>(buckets);
  const int steps = 2 * std::max(100, 720 / k);  // even, and at least 200 over any bucket
  double sum = 0;
  for (int j = 1; j <= k; ++j) {
    const double lo = j == 1 ? -9 : std::clamp(normal_quantile(static_cast<double>(j - 1) / k), -9.0, 9.0);
    const double hi = j == k ? 9 : std::clamp(normal_quantile(static_cast<double>(j) / k), -9.0, 9.0);
    const double h = (hi - lo) / steps;
    const double below = static_cast<double>(j - 1) / k;
    double m0 = 0, m1 = 0;
    for (int i = 0; i <= steps; ++i) {
      const double z = lo + h * i;
      const double phi = 0.5 * std::erfc(-z / std::numbers::sqrt2);
      const double g = std::clamp(k * (phi - below), 0.0, 1.0);
      const double density = std::exp(-z * z / 2) * (g > 0 ? std::exp((batch - 1) * std::log(g)) : 0);
      const double weight = (i == 0 || i == steps ? 1 : i % 2 == 1 ? 4 : 2);
      m0 += weight * density;
      m1 += weight * density * std::exp(mu + sigma * z);
    }
    sum += m0 > 0 ? m1 / m0 : std::exp(mu + sigma * hi);
  }
  return sum / k;
}

double delivered_rate(const VarianceInputs& in) {
  const double ideal = std::min(in.worker_rate, in.loop_rate);
  if (in.batch_cv <= 0 && in.loop_cv <= 0) return ideal;
  const VarianceFit& f = kVarianceFit;
  const double sync = (in.in_order ? f.sync_in_order * expected_max_normal(in.workers) : 0) + f.sync_any;
  // Workers wait for the loop only near the balance point: far on their side the loop waits.
  const double rho = in.loop_rate / in.worker_rate;  // the workers' time per batch over the loop's
  const double near = 1 + f.balance_decay * std::max(0.0, rho - 1);
  const double producer =
      in.worker_rate / (1 + sync * in.batch_cv / std::pow(in.prefetch, f.prefetch_power) / (near * near));
  const double s2 = producer * in.batch_cv * in.batch_cv + in.loop_rate * in.loop_cv * in.loop_cv;
  const double rate = in.loop_rate - starved_rate(producer - in.loop_rate, in.prefetch * in.workers, s2);
  // Far outside where it was fitted (variation large against the buffer) the Brownian form can
  // fall to nothing; the loop still receives something: never below 1% of the slower side.
  return std::clamp(rate, 0.01 * ideal, ideal);
}

}  // namespace pipesim
