// `pipesim presets --schema`: a JSON Schema of the scenario TOML that editors use to complete and
// check files.
#pragma once

#include "report/out.hpp"

namespace pipesim {

// A JSON Schema (draft-07) of a scenario file: tables, keys, value forms, defaults, help.
void json_schema(Out& o);

}  // namespace pipesim
