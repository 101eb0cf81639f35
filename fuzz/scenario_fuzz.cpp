// Fuzzes whole scenarios: TOML text loaded (with `use` of presets), evaluated, diagnosed,
// checked and rendered in every format.
#include <cstdint>

#include "exercise.hpp"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    // A base folder that does not exist: `use` of relative paths finds nothing on disk.
    const LoadedScenario s = load_scenario_text(text, Origin::file("fuzz.toml"), "/nonexistent-pipesim-fuzz");
    fuzz::exercise(s);
  } catch (const Error&) {
  }
  return 0;
}
