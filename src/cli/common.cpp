#include "cli/common.hpp"

#include <cstdio>
#include <filesystem>

namespace pipesim {

void add_format_option(CLI::App& cmd, std::string& format, Output what) {
  cmd.add_option("--format", format, "Output format: " + format_names(what))->capture_default_str();
}

void add_common_options(CLI::App& cmd, CommonOptions& o, Output what) {
  cmd.add_option("scenario", o.scenario, "Scenario TOML file or preset name (default: the embedded 'reference' case)");
  cmd.add_option("--set", o.sets, "Override a field, e.g. --set pipeline.batch_size=64 (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  add_format_option(cmd, o.format, what);
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

std::string plan_label(const LoadedScenario& s) {
  const std::string& source = s.source.rfind("preset:", 0) == 0 ? s.source.substr(7) : s.source;
  if (source.empty()) return "reference";
  return std::filesystem::path(source).stem().string();
}

}  // namespace pipesim
