// `pipesim init`: every line it writes is one a user may uncomment.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "config/loader.hpp"
#include "report/presets.hpp"

using namespace pipesim;

TEST_CASE("every line init writes loads when uncommented") {
  for (const std::vector<std::string>& presets :
       {std::vector<std::string>{}, std::vector<std::string>{"a100-40gb-sxm", "pytorch-dataloader"}}) {
    std::string use;
    for (const auto& p : presets) use += (use.empty() ? "" : ", ") + ("\"" + p + "\"");
    const std::string text = init_toml(presets, load_scenario(""));
    std::istringstream lines(text);
    std::string line, table;
    int checked = 0;
    while (std::getline(lines, line)) {
      if (line.starts_with("[")) table = line;
      if (!line.starts_with("# ") || line.find(" = ") == std::string::npos || line.starts_with("# A ")) continue;
      // The line alone, uncommented, in its table: it must parse and hold a valid value.
      const std::string one = "use = [" + use + "]\n" + table + "\n" + line.substr(2) + "\n";
      CAPTURE(line);
      CHECK_NOTHROW(load_scenario_text(one, Origin::file("init.toml"), ""));
      ++checked;
    }
    CHECK(checked > 40);
  }
}
