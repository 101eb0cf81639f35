#include "core/text.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <vector>

namespace pipesim {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest(std::string_view word, std::span<const std::string_view> candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (best.empty() || d < best_distance) {
      best = std::string(c);
      best_distance = d;
    }
  }
  // Plausible typo: at most a third of the word changed (and at least 2 edits allowed).
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  return best_distance <= limit ? best : std::string();
}

std::string did_you_mean(std::string_view suggestion) {
  return suggestion.empty() ? std::string() : fmt::format("; did you mean '{}'?", suggestion);
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  return did_you_mean(closest(word, candidates));
}

}  // namespace pipesim
