// `pipesim diagnose [SCENARIO]`: one operating point, every stage, and what moves the wall.
#include <memory>

#include "cli/common.hpp"

namespace pipesim {

void setup_diagnose(CLI::App& app) {
  auto opts = std::make_shared<CommonOptions>();
  auto* cmd = app.add_subcommand(
      "diagnose", "One operating point: every stage, the binding wall, utilization, and what moves the wall");
  add_common_options(*cmd, *opts, Output::Diagnosis);
  cmd->callback([opts] {
    make_renderer(opts->format, Output::Diagnosis);  // an unknown format fails before any work
    const LoadedScenario loaded = load_with_sets(*opts);
    const Diagnosis d = with_origins(loaded, [&] { return diagnose_with_assumptions(loaded.scenario); });
    write_stdout(render_diagnosis(opts->format, loaded, d));
  });
}

}  // namespace pipesim
