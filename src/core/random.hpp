// The simulation's random draws: a generator that gives the same numbers on every platform,
// and the lognormal it draws times and sizes from.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace pipesim {

// xoshiro256** seeded by splitmix64: the same draws on every platform (the standard
// distributions are not specified bit for bit).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& v : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      v = z ^ (z >> 31);
    }
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double normal() {                                                           // Box-Muller, one of the pair
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_{};
};

// Lognormal with a given mean and coefficient of variation; the mean itself when cv = 0.
class Lognormal {
 public:
  Lognormal(double mean, double cv) : mean_(mean) {
    if (cv > 0 && mean > 0) {
      sigma_ = std::sqrt(std::log1p(cv * cv));
      mu_ = std::log(mean) - sigma_ * sigma_ / 2;
    }
  }
  double draw(Rng& rng) const { return sigma_ > 0 ? std::exp(mu_ + sigma_ * rng.normal()) : mean_; }
  [[nodiscard]] bool constant() const { return sigma_ == 0; }

 private:
  double mean_ = 0, mu_ = 0, sigma_ = 0;
};

}  // namespace pipesim
