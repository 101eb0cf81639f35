// `pipesim compare A B ...`: plans side by side, the best in each row marked.
#include <memory>

#include "cli/plans.hpp"
#include "core/analyses/check.hpp"
#include "core/analyses/compare.hpp"
#include "core/base/error.hpp"
#include "report/html.hpp"
#include "report/plot.hpp"

namespace pipesim {

void setup_compare(CLI::App& app) {
  auto opts = std::make_shared<PlanOptions>();
  auto plot = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "compare", "Plans side by side: throughput, utilization, binding wall, epoch time and cost; best marked");
  add_plan_options(*cmd, *opts, "Plan or scenario files, or preset names (two or more)", Output::Compare);
  cmd->add_option("--plot", *plot,
                  "Also write the figure to FILE.svg (bars per figure compared, the best marked; FILE.png or "
                  "FILE.pdf through rsvg-convert), or FILE.html: "
                  "one page with the figure, the table, and each plan's inputs with their origins and assumptions")
      ->type_name("FILE");
  cmd->callback([opts, plot] {
    if (opts->plans.size() < 2) throw Error("compare needs at least two plans or scenarios");
    if (converted_plot(*plot) && opts->plans.size() > compare_raster_plans())
      throw Error(Origin::argument("--plot " + *plot),
                  fmt::format("a PNG or PDF figure holds at most {} plans (rsvg-convert draws at most 32,767 pixels "
                              "a side), not {}: name the file FILE.svg or FILE.html",
                              compare_raster_plans(), opts->plans.size()));
    const std::vector<LoadedScenario> loaded = load_plans(*opts);
    const Destinations to{opts->format, {}, *plot, {}, {}};
    for (const auto& s : loaded) check_destinations(to, s.files);
    std::vector<PlanReport> reports;
    std::vector<Result> results;
    const std::vector<std::string> plan_names = plan_labels(opts->plans);
    // A plan with requirements is judged by them, as check judges it; a row's best goes to one
    // that fails only when every plan fails.
    std::vector<bool> fails;
    for (std::size_t i = 0; i < loaded.size(); ++i) {
      PlanReport r = plan_report(loaded[i], plan_names[i]);
      if (!loaded[i].plan.requirements.empty())
        r.outcome = with_origins(loaded[i], [&] { return check_plan(loaded[i].scenario, loaded[i].plan); });
      fails.push_back(r.outcome.verdict == Verdict::Fail);
      results.push_back(r.result);
      reports.push_back(std::move(r));
    }
    const std::vector<CompareRow> rows = compare(results, fails);
    const auto figure = [&] {
      std::vector<ComparePlan> plans;
      for (const PlanReport& r : reports) {
        ComparePlan p{r.label, r.result.binding, {}, std::nullopt, r.loaded->plan.steady_only};
        if (r.outcome.judged()) p.verdict = r.outcome.verdict;
        for (const Requirement& q : r.loaded->plan.requirements)
          if (q.metric == Metric::Utilization) p.min_utilization = q.threshold;
        plans.push_back(std::move(p));
      }
      return compare_svg(plans, rows);
    };
    emit(to, CompareReport{reports, rows}, {.figure = {figure, [&](const std::string& svg, const std::string& words) {
                                                         return compare_html(reports, words, svg);
                                                       }}});
  });
}

}  // namespace pipesim
