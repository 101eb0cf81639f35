// Sweep ranges: "32..1024" doubles, "1..16:+1" steps, "32..1024:x4" multiplies, "8,16,32" lists.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/fields.hpp"

namespace pipesim {

// A validated range of values for one field. Linear ranges are computed on demand so
// that a long range costs no memory.
class Range {
 public:
  [[nodiscard]] std::size_t size() const { return linear_ ? count_ : values_.size(); }
  [[nodiscard]] double at(std::size_t i) const {
    return linear_ ? start_ + static_cast<double>(i) * step_ : values_[i];
  }
  [[nodiscard]] Dim dim() const { return dim_; }

  static Range list(std::vector<double> values, Dim dim);
  static Range linear(double start, double step, std::size_t count, Dim dim);

 private:
  std::vector<double> values_;
  double start_ = 0, step_ = 0;
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
