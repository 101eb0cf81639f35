// Counts found by running the model: the fewest whole value (workers, CPUs) for which the model,
// run at it, gives what an answer says. A closed form may give the first guess; the model decides.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>

namespace pipesim {

// The fewest whole n in [lo, hi] with ok(n), where ok is false below some n and true from it on
// (up to hi); nullopt when ok(hi) is false. The search starts at `guess`: at the answer it costs
// two runs of ok, further off a gallop away from the guess and a bisection.
template <class Ok>
std::optional<double> fewest(double lo, double hi, double guess, Ok&& ok) {
  lo = std::ceil(lo);
  hi = std::floor(hi);
  if (!(lo <= hi)) return std::nullopt;
  const double start = std::clamp(std::round(guess), lo, hi);
  double yes = 0, no = lo - 1;  // ok(yes); not ok(no), or no below lo
  if (ok(start)) {
    yes = start;
    for (double step = 1; yes > lo; step *= 2) {
      const double t = std::max(lo, yes - step);
      if (!ok(t)) {
        no = t;
        break;
      }
      yes = t;
    }
  } else {
    no = start;
    for (double step = 1;; step *= 2) {
      if (no >= hi) return std::nullopt;
      const double t = std::min(hi, no + step);
      if (ok(t)) {
        yes = t;
        break;
      }
      no = t;
    }
  }
  while (yes - no > 1) {
    const double mid = std::floor(0.5 * (yes + no));
    if (mid <= no || mid >= yes) break;  // past 2^53 neighbours: no whole number between
    (ok(mid) ? yes : no) = mid;
  }
  return yes;
}

}  // namespace pipesim
