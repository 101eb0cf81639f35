#include "cli/common.hpp"

#include <cstdio>

namespace pipesim {

void add_common_options(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("scenario", o.scenario,
                 "Scenario TOML file or preset name (default: the embedded 'reference' case)");
  cmd.add_option("--set", o.sets, "Override a field, e.g. --set pipeline.batch_size=64 (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd.add_option("--format", o.format, "Output format: table, json, csv or markdown")
      ->capture_default_str();
}

LoadedScenario load_with_sets(const CommonOptions& o) {
  LoadedScenario s = load_scenario(o.scenario);
  for (const auto& a : o.sets) apply_assignment(s, a);
  return s;
}

void write_stdout(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

}  // namespace pipesim
