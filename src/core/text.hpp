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

// "; did you mean 'x'?" for a suggestion, or "" for none: the one place this text is made.
std::string did_you_mean(std::string_view suggestion);
// The same for the candidate closest to `word` (see closest()).
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace pipesim
