// The two formats for people: plain aligned text (`table`) and markdown differ only in markup,
// so one helper lays out every report and the `markdown` flag picks headings, bullets and table
// syntax; text_report.cpp defines both formats' renderers.
#pragma once

#include "report/output.hpp"
#include "report/text_table.hpp"

namespace pipesim {

// `columns`: plain text wraps its prose (the key-value lines and the bullets) to this width,
// each continuation hanging under its text; 0 or markdown: one line per sentence.
void text_diagnosis(Out& o, const LoadedScenario& loaded, const Diagnosis& d, bool markdown, std::size_t columns = 0);
// A sweep's table is laid out once (sweep_table) and each row written as it comes.
TextTable sweep_table(const SweepLayout& layout, bool markdown);
void text_sweep_row(Out& o, const TextTable& table, const SweepLayout& layout, const SweepPoint& p, bool first);
// Under a sweep over a plan: how many points pass, and the one ranked first (the buyer's pick).
void text_sweep_end(Out& o, const SweepLayout& layout, const SweepSummary& summary);
// `columns`: plain text wraps each plan's assumptions to this width (0: not wrapped).
void text_check(Out& o, const std::vector<PlanReport>& plans, bool markdown, std::size_t columns = 0);
void text_compare(Out& o, const std::vector<PlanReport>& plans, const std::vector<CompareRow>& rows, bool markdown,
                  std::size_t columns = 0);
void text_simulation(Out& o, const LoadedScenario& loaded, const Simulation& s, bool markdown);

// The renderer of both: the table format's is TextRenderer<false>, markdown's TextRenderer<true>.
// `columns`: the width plain text wraps a diagnosis's prose, and a plan's assumptions, to.
template <bool Markdown>
class TextRenderer final : public SweepRenderer {
 public:
  explicit TextRenderer(std::size_t columns = 0) : columns_(columns) {}
  void diagnosis(Out& o, const LoadedScenario& loaded, const Diagnosis& d) const {
    text_diagnosis(o, loaded, d, Markdown, columns_);
  }
  void begin(const SweepLayout& layout) override {
    table_ = std::make_unique<TextTable>(sweep_table(layout, Markdown));
  }
  void row(Out& o, const SweepLayout& layout, const SweepPoint& p, bool first) const override {
    text_sweep_row(o, *table_, layout, p, first);
  }
  void end(Out& o, const SweepLayout& layout, const SweepSummary& summary) const override {
    text_sweep_end(o, layout, summary);
  }
  void check(Out& o, const std::vector<PlanReport>& plans) const { text_check(o, plans, Markdown, columns_); }
  void compare(Out& o, const std::vector<PlanReport>& plans, const std::vector<CompareRow>& rows) const {
    text_compare(o, plans, rows, Markdown, columns_);
  }
  void simulation(Out& o, const LoadedScenario& loaded, const Simulation& s) const {
    text_simulation(o, loaded, s, Markdown);
  }

 private:
  std::size_t columns_;
  std::unique_ptr<TextTable> table_;
};

}  // namespace pipesim
