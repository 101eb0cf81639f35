// `pipesim init`: every line it writes is one a user may uncomment.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "config/loader.hpp"
#include "report/init_toml.hpp"

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

TEST_CASE("init offers the topology a plan needs, and nothing a preset already decides") {
  const std::string text =
      init_toml({"a100-40gb-sxm", "resnet50-imagenet-amp"}, load_scenario("a100-40gb-sxm+resnet50-imagenet-amp"));
  const auto has = [&](std::string_view start) { return text.find("\n" + std::string(start)) != std::string::npos; };
  // Defaults that decide a plan silently are decide lines, with the default they would take.
  CHECK(has("# count = 1                              # decide (default 1): "));
  CHECK(has("# nodes = 1                              # decide (default 1): "));
  CHECK(has("# threads_per_core = 1                   # decide (default 1): "));
  CHECK(has("# scope = \"node\"                         # decide (default node): "));
  // The A100 has no FP8: its preset sets the precisions it has, and init offers no other.
  CHECK(has("# peak_flops_bf16 = \"312 TFLOPS\""));
  CHECK_FALSE(has("# peak_flops_fp8"));
  // The compute time is measured: the roofline's inputs decide nothing.
  CHECK_FALSE(has("# flops_per_sample"));
  CHECK_FALSE(has("# efficiency"));
  // Without presets the roofline is offered whole.
  const std::string bare = init_toml({}, load_scenario(""));
  CHECK(bare.find("\n# efficiency = ") != std::string::npos);
}
