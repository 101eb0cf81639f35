// `pipesim compare A B ...`: plans side by side, the best in each row marked.
#include <memory>

#include "cli/plans.hpp"
#include "core/compare.hpp"
#include "core/error.hpp"

namespace pipesim {

void setup_compare(CLI::App& app) {
  auto opts = std::make_shared<PlanOptions>();
  auto* cmd = app.add_subcommand(
      "compare", "Plans side by side: throughput, utilization, binding wall, epoch time and cost; best marked");
  add_plan_options(*cmd, *opts, "Plan or scenario files, or preset names (two or more)", Output::Compare);
  cmd->callback([opts] {
    const auto renderer = make_renderer(opts->format, Output::Compare);
    if (opts->plans.size() < 2) throw Error("compare needs at least two plans or scenarios");
    const std::vector<LoadedScenario> loaded = load_plans(*opts);
    std::vector<PlanReport> reports;
    std::vector<Result> results;
    for (const auto& s : loaded) {
      PlanReport r = plan_report(s);
      results.push_back(r.result);
      reports.push_back(std::move(r));
    }
    std::string text;
    {
      Out out(text);
      renderer->compare(out, reports, compare(results));
    }
    write_stdout(text);
  });
}

}  // namespace pipesim
