// Small text helpers with no dependencies on the model.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace pipesim {

// Levenshtein distance between two strings.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if close enough to be a plausible typo; else empty.
std::string closest(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace pipesim
