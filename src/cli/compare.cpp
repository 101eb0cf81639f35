// `pipesim compare A B ...`: plans side by side, the best in each row marked.
#include <memory>

#include "cli/plans.hpp"
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
    const auto renderer = compare_renderer(opts->format, output_columns());
    if (opts->plans.size() < 2) throw Error("compare needs at least two plans or scenarios");
    const std::vector<LoadedScenario> loaded = load_plans(*opts);
    for (const auto& s : loaded) check_plot(*plot, s.files);
    std::vector<PlanReport> reports;
    std::vector<Result> results;
    const std::vector<std::string> plan_names = plan_labels(opts->plans);
    for (std::size_t i = 0; i < loaded.size(); ++i) {
      PlanReport r = plan_report(loaded[i], plan_names[i]);
      results.push_back(r.result);
      reports.push_back(std::move(r));
    }
    const std::vector<CompareRow> rows = compare(results);
    std::string text;
    {
      Out out(text);
      renderer->compare(out, reports, rows);
    }
    if (!plot->empty()) {
      std::vector<std::string> labels;
      std::vector<unsigned> walls;
      for (const PlanReport& r : reports) {
        labels.push_back(r.label);
        walls.push_back(r.result.binding);
      }
      const std::string svg = compare_svg(labels, rows, walls);
      write_figure(*plot, svg, [&] {
        return compare_html(
            reports,
            table_words(opts->format, text,
                        [&](Out& out) { compare_renderer(Format::Table)->compare(out, reports, rows); }),
            svg);
      });
    }
    write_stdout(text);
  });
}

}  // namespace pipesim
