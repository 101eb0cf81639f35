// GitHub Actions workflow commands for `check`: an `::error` annotation at the [require] line of
// every requirement that failed (`::warning` for one not verified), and at the input of every plan
// that could not be evaluated, and an `::notice` at every key the plan set that changes nothing, so
// the pull request shows them on the plan file; a plain line per plan for the log.
#include <fmt/format.h>

#include "config/loader.hpp"

#include "core/base/text.hpp"
#include "report/check_words.hpp"
#include "report/output.hpp"

namespace pipesim {

namespace {

// Escaping of a workflow command's message, and of its properties (which also end at ',' and ':').
std::string escape(std::string_view text, bool property) {
  std::string out;
  for (char c : text) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else if (property && c == ':')
      out += "%3A";
    else if (property && c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

// "file=plan.toml,line=12,col=3," for an origin in a file; nothing for a preset, standard input
// or an argument (no file in the repository to annotate).
std::string location(const Origin& at) {
  if (at.kind != SourceKind::File) return {};
  std::string out = fmt::format("file={},", escape(printable(at.source), true));
  if (at.line > 0) out += fmt::format("line={},col={},", at.line, at.column);
  return out;
}

void annotate(Out& o, const Origin& at, std::string_view title, std::string_view message,
              std::string_view level = "error") {
  // Names in them as printable text: a tab or an escape sequence in a file name is shown escaped.
  o.print("::{} {}title={}::{}\n", level, location(at), escape(printable(title), true),
          escape(printable(message), false));
}

class GithubRenderer final {
 public:
  void check(Out& o, const std::vector<PlanReport>& plans) const {
    for (const auto& p : plans) {
      if (p.error) {
        annotate(o, p.error->origin(), fmt::format("pipesim check {}: the plan could not be evaluated", p.label),
                 p.error->what());
        for (const Error& more : p.error->more())
          annotate(o, more.origin(), fmt::format("pipesim check {}: the plan could not be evaluated", p.label),
                   more.what());
        o.print("{}: ERROR (the plan could not be evaluated)\n", no_workflow_commands(printable(p.label)));
        continue;
      }
      const bool ranged = p.loaded->plan.batch_sizes.has_value();
      for (const auto& oc : p.outcome.outcomes) {
        if (oc.pass) continue;
        const OutcomeLine l = outcome_line(oc, ranged);
        // A requirement not verified warns: the plan is incomplete, not the hardware short.
        const bool failed = oc.verdict == Verdict::Fail;
        annotate(o, oc.requirement->origin,
                 fmt::format("pipesim check {}: {}{}", p.label, l.key, failed ? "" : " not verified"),
                 fmt::format("{}: reached {}, required {}{} ({})", l.key, l.reached, l.required,
                             l.where.empty() ? "" : " (" + l.where + ")", p.loaded->name),
                 failed ? "error" : "warning");
      }
      // A key the plan set that changes nothing: a notice at the line that set it, so that no verdict
      // rests on a key ignored in silence.
      for (const auto& u : p.unused)
        annotate(o, u.key.empty() ? origin_of(*p.loaded, u.field) : u.where,
                 fmt::format("pipesim check {}: {} changes nothing", p.label, unused_key_name(u)),
                 fmt::format("{} changes nothing here: {}", unused_key_name(u), u.reason),
                 p.outcome.unused_failures ? "error" : "notice");  // --strict: a failure
      // The plan's name as printable text that starts no workflow command: a file name holding a
      // line break, or starting with "::", would otherwise be read as one (::stop-commands:: and
      // the rest).
      o.print("{}: {}\n", no_workflow_commands(printable(p.label)), verdict(p.outcome));
    }
  }
};

}  // namespace

std::vector<Writer> github_writers() {
  return {writer<CheckReport>([](Out& o, const CheckReport& r, std::size_t) { GithubRenderer().check(o, r.plans); })};
}

}  // namespace pipesim
