// Fuzzes --set: each input line is one KEY=VALUE applied to the default scenario, then
// every command's core and renderer runs on the result.
#include <cstdint>

#include "exercise.hpp"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const LoadedScenario base = load_scenario("");
  LoadedScenario s = base;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (int n = 0; n < 16 && !text.empty(); ++n) {
      const auto nl = text.find('\n');
      const std::string_view line = text.substr(0, nl);
      if (line.rfind("require ", 0) == 0)
        apply_requirement(s, line.substr(8));
      else
        apply_assignment(s, line);
      if (nl == std::string_view::npos) break;
      text.remove_prefix(nl + 1);
    }
  } catch (const Error&) {
    return 0;
  }
  fuzz::exercise(s);
  return 0;
}
