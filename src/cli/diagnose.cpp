// `pipesim diagnose [SCENARIO]`: one operating point, every stage, and what moves the wall.
#include <memory>

#include "cli/common.hpp"
#include "report/html.hpp"
#include "report/plot.hpp"

namespace pipesim {

void setup_diagnose(CLI::App& app) {
  auto opts = std::make_shared<CommonOptions>();
  auto plot = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "diagnose", "One operating point: every stage, the binding wall, utilization, and what moves the wall");
  add_common_options(*cmd, *opts, Output::Diagnosis);
  add_plot_option(*cmd, *plot);
  cmd->callback([opts, plot] {
    const LoadedScenario loaded = load_with_sets(*opts);
    const Destinations to{opts->format, {}, *plot, {}, {}};
    check_destinations(to, loaded.files);
    Diagnosis d = with_origins(loaded, [&] { return diagnose_with_assumptions(loaded.scenario); });
    d.unused = with_unused_uses(loaded, unused_keys(loaded.scenario, d, user_fields(loaded)));
    // After the keys that change nothing, which compare the model's own assumptions.
    for (Assumption& a : foreign_assumptions(loaded.scenario, d.inputs, loaded.plan.measured_for))
      d.assumptions.push_back(std::move(a));
    emit(to, DiagnosisReport{loaded, d},
         {.figure = {[&] { return diagnosis_svg(loaded, d); },
                     [&](const std::string& svg, const std::string& words) {
                       return diagnosis_html(loaded, d, words, svg);
                     }}});
  });
}

}  // namespace pipesim
