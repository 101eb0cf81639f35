#include "report/html.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "core/base/units.hpp"
#include "report/xml.hpp"

#ifndef PIPESIM_VERSION
#define PIPESIM_VERSION "dev"
#endif

namespace pipesim {

namespace {

constexpr std::string_view kStyle =
    "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;max-width:62em;margin:2em auto;padding:0 1em;"
    "color:#222;line-height:1.45}"
    "h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #ddd}"
    "pre{background:#f6f6f6;padding:1em;white-space:pre-wrap;font-size:.85em;line-height:1.35}"
    "table{border-collapse:collapse;font-size:.9em}td,th{padding:.2em .8em;border-bottom:1px solid #eee;"
    "text-align:left;vertical-align:top}th{background:#f0f0f0}td.v{font-variant-numeric:tabular-nums}"
    ".origin{color:#666}.note{color:#666;font-size:.9em}svg{max-width:100%;height:auto}";

// The figure's section: the SVG without its XML declaration, to sit inside the HTML.
std::string figure_section(const std::string& svg) {
  const std::size_t start = svg.find("<svg");
  return "<h2>Figure</h2>\n" + (start == std::string::npos ? std::string() : svg.substr(start)) + "\n";
}

// Where a scenario came from, for the page's footer.
std::string source_text(const LoadedScenario& loaded) {
  return loaded.source.empty() ? std::string("the default scenario") : loaded.source.label();
}

std::string value_text(const Scenario& s, const FieldSpec& f) {
  const double v = s.get(f.field);
  const Dim dim = s.dim(f.field);
  if (dim == Dim::Choice) return std::string(f.choices[static_cast<std::size_t>(v)]);
  return format_exact(v, dim);
}

// Every field the scenario sets, with the file and line (or preset, or --set) it came from; a
// swept field says so instead of showing the value the sweep replaces.
std::string scenario_table(const LoadedScenario& loaded, const std::vector<Axis>& swept, std::string_view after) {
  std::string t = "<table>\n<tr><th>key</th><th>value</th><th>from</th></tr>\n";
  for (const FieldSpec& f : all_fields()) {
    const bool is_swept = std::any_of(swept.begin(), swept.end(), [&](const Axis& a) { return a.field == f.field; });
    if (!loaded.scenario.has(f.field) && !is_swept) continue;
    const std::string where = loaded.origins[static_cast<std::size_t>(f.field)].str();
    t += fmt::format("<tr><td><code>{}</code></td><td class=\"v\">{}</td><td class=\"origin\">{}</td></tr>\n", f.key,
                     is_swept ? std::string("swept (see Axes)") : xml_escape(value_text(loaded.scenario, f)),
                     is_swept ? std::string("the sweep") : xml_escape(where.empty() ? "(set)" : where));
  }
  return t + fmt::format(
                 "</table>\n<p class=\"note\">Every other key is at its default (<code>pipesim presets "
                 "--keys</code> lists them){}.</p>\n",
                 after);
}

// The page around `body`: `title` as its heading, then `intro` (escaped; may be empty).
std::string page(std::string_view title, std::string_view intro, const std::string& body, std::string_view source) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n"
      "<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n{2}{3}<p class=\"note\">Written by pipesim {4} from {5}."
      "</p>\n</body>\n</html>\n",
      xml_escape(title), kStyle, intro.empty() ? "" : fmt::format("<p>{}</p>\n", xml_escape(intro)), body,
      PIPESIM_VERSION, xml_escape(source));
}

std::string page(const LoadedScenario& loaded, const std::string& body) {
  return page(loaded.name, loaded.description, body, source_text(loaded));
}

// The assumptions as a list, or a sentence saying there are none.
std::string assumption_list(const std::vector<Assumption>& assumptions) {
  if (assumptions.empty()) return "<p>None: every default that bears on this answer was replaced by a value.</p>\n";
  std::string out = "<ul>\n";
  for (const Assumption& a : assumptions) out += fmt::format("<li>{}</li>\n", xml_escape(a.text));
  return out + "</ul>\n";
}

// A report of one run: the figure, the words pipesim printed, the scenario, the assumptions.
std::string words_report(const LoadedScenario& loaded, std::string_view heading, const std::string& words,
                         const std::string& svg, const std::vector<Assumption>& assumptions) {
  std::string body = figure_section(svg);
  body += fmt::format("<h2>{}</h2>\n<pre>{}</pre>\n", heading, xml_escape(words));
  body += "<h2>Scenario</h2>\n" + scenario_table(loaded, {},
                                                 "; the assumptions below name the defaults that decide "
                                                 "this answer");
  body += "<h2>Assumptions</h2>\n" + assumption_list(assumptions);
  return page(loaded, body);
}

}  // namespace

std::string diagnosis_html(const LoadedScenario& loaded, const Diagnosis& d, const std::string& words,
                           const std::string& svg) {
  return words_report(loaded, "Diagnosis", words, svg, d.assumptions);
}

std::string simulation_html(const LoadedScenario& loaded, const std::string& words, const std::string& svg,
                            const std::vector<Assumption>& assumptions) {
  return words_report(loaded, "Simulation", words, svg, assumptions);
}

std::string sweep_html(const LoadedScenario& loaded, const std::vector<Axis>& axes, const std::string& svg,
                       const std::string& rows, const std::vector<Assumption>& assumptions,
                       const std::vector<UnusedKey>& unused) {
  std::string body =
      figure_section(svg) + "<h2>Rows</h2>\n<pre>\n" + xml_escape(rows) + "</pre>\n<h2>Axes</h2>\n<ul>\n";
  for (const Axis& a : axes)
    body += fmt::format("<li><code>{}</code>: {} values from {} to {}</li>\n", spec(a.field).key, a.range.size(),
                        xml_escape(format_compact(a.range.at(0), a.range.dim())),
                        xml_escape(format_compact(a.range.at(a.range.size() - 1), a.range.dim())));
  body +=
      "</ul>\n<p class=\"note\">The rows are what <code>pipesim sweep</code> prints as a table with the same "
      "arguments; <code>--format csv</code> or <code>json</code> gives them to scripts.</p>\n";
  body += "<h2>Assumptions at the first point</h2>\n" + assumption_list(assumptions);
  if (!unused.empty()) {
    body += "<h2>Unused at the first point</h2>\n<p>Keys you set that change nothing there:</p>\n<ul>\n";
    for (const UnusedKey& u : unused)
      body += fmt::format("<li><code>{}</code>: {}</li>\n", unused_key_name(u), xml_escape(u.reason));
    body += "</ul>\n";
  }
  body += "<h2>Scenario</h2>\n" +
          scenario_table(loaded, axes, "; pipesim diagnose of one point names the defaults that decide it");
  return page(loaded, body);
}

std::string compare_html(const std::vector<PlanReport>& plans, const std::string& words, const std::string& svg) {
  std::string title = "pipesim compare: ";
  std::string sources;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    title += (i ? " vs " : "") + plans[i].label;
    sources += (i ? ", " : "") + source_text(*plans[i].loaded);
  }
  std::string body = figure_section(svg);
  body += "<h2>Comparison</h2>\n<pre>" + xml_escape(words) + "</pre>\n";
  for (const PlanReport& p : plans) {
    const LoadedScenario& loaded = *p.loaded;
    body += fmt::format("<h2>{}: {}</h2>\n", xml_escape(p.label), xml_escape(loaded.name));
    if (!loaded.description.empty()) body += fmt::format("<p>{}</p>\n", xml_escape(loaded.description));
    body += scenario_table(loaded, {}, "; its assumptions follow");
    body += "<h3>Assumptions</h3>\n" + assumption_list(p.assumptions);
  }
  return page(title, "", body, sources);
}

}  // namespace pipesim
