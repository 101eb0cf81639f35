// A simulation in words: why the loop waited.
#pragma once

#include <string>
#include <string_view>

#include "core/sim/simulate.hpp"
#include "report/words.hpp"

namespace pipesim {

// Why the loop waited, for people: "workers", "prefetch window", "ready (not held up)".
std::string_view cause_words(Cause c);

}  // namespace pipesim
