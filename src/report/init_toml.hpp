// `pipesim init`: a commented starting scenario file.
#pragma once

#include <string>
#include <vector>

#include "config/loader.hpp"

namespace pipesim {

// `pipesim init [PRESETS...]`: a commented starting scenario that uses `presets` (composed in
// `loaded`). Under each table: what the presets set (commented, with the preset that set it), and
// every key without a default that nothing set yet, marked to decide (the required ones too).
std::string init_toml(const std::vector<std::string>& presets, const LoadedScenario& loaded);

}  // namespace pipesim
