// A plan's requirements from text: `[require]` values, --require and the `batch_sizes` range.
#pragma once

#include <string_view>

#include "core/analyses/check.hpp"
#include "core/base/error.hpp"

namespace pipesim {

// Parses a requirement's value from text ("90%", "20000 samples/s", "compute,transfer",
// "64..512") and stores it in the plan, replacing one with the same key; errors at `where`.
void set_requirement(Plan& plan, std::string_view key, std::string_view text, const Origin& where);

}  // namespace pipesim
