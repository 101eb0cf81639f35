// Sweep ranges: "32..1024" doubles, "1..16:+1" steps, "32..1024:x4" multiplies, "8,16,32" lists.
#pragma once

#include <cmath>
#include <cstddef>
#include <string_view>
#include <vector>

#include "core/base/fields.hpp"

namespace pipesim {

// A validated range of values for one field. Linear ranges are computed on demand so
// that a long range costs no memory.
class Range {
 public:
  [[nodiscard]] std::size_t size() const { return linear_ ? count_ : values_.size(); }
  [[nodiscard]] double at(std::size_t i) const {
    if (!linear_) return values_[i];
    const double v = start_ + static_cast<double>(i) * step_;
    // Back onto the decimal grid of start and step: 0.1..0.7:+0.1 gives 0.3 and 0.7, not
    // 0.30000000000000004 and 0.7000000000000001 (an integer over a power of ten is the
    // double nearest the decimal, as division rounds correctly).
    return grid_ > 0 ? std::round(v * grid_) / grid_ : v;
  }
  [[nodiscard]] Dim dim() const { return dim_; }

  static Range list(std::vector<double> values, Dim dim);
  // Values start + i * step; when start and step have few decimals (0.1, 2.5e-3) each
  // value is the decimal it stands for.
  static Range linear(double start, double step, std::size_t count, Dim dim);

 private:
  std::vector<double> values_;
  double start_ = 0, step_ = 0;
  double grid_ = 0;  // 10^decimals of start and step, or 0 when values are not rounded
  std::size_t count_ = 0;
  bool linear_ = false;
  Dim dim_ = Dim::Number;
};

// Most values one range may hold.
constexpr std::size_t kMaxRangeValues = 10'000'000;

// Parses a range for a field; every value is checked against the field's kind and
// constraint. Throws Error (no origin).
Range parse_range(std::string_view text, const FieldSpec& field);

}  // namespace pipesim
