#include "core/error.hpp"

#include <fmt/format.h>

namespace pipesim {

std::string Origin::str() const {
  if (source.empty()) return {};
  if (line <= 0) return source;
  return fmt::format("{}:{}:{}", source, line, column);
}

std::string Error::line() const {
  const std::string where = origin_.str();
  return fmt::format("{}: error: {}", where.empty() ? "pipesim" : where, what());
}

}  // namespace pipesim
