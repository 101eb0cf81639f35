#include "cli/common.hpp"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <unordered_map>

#include "core/base/text.hpp"

namespace pipesim {

void add_format_option(CLI::App& cmd, Format& format, Output what, std::string_view command, std::string_view note) {
  std::string help = "Output format: " + format_names(what);
  if (!note.empty()) help += fmt::format(" ({})", note);
  cmd.add_option_function<std::string>(
         "--format",
         [&format, what, name = std::string(command.empty() ? cmd.get_name() : command)](const std::string& text) {
           format = parse_format(text, what, name);
         },
         help)
      ->default_str(std::string(format_name(format)));
}

CLI::Validator key_value(std::string_view form, std::string_view example) {
  return CLI::Validator(
      [form = std::string(form), example = std::string(example)](std::string& text) -> std::string {
        if (text.find('=') != std::string::npos) return {};
        return fmt::format("takes {} in one argument, e.g. {}; got '{}' with no '=' (a space splits it in two)", form,
                           example, echo(text));
      },
      "");
}

void add_common_options(CLI::App& cmd, CommonOptions& o, Output what) {
  cmd.add_option("scenario", o.scenario, "Scenario TOML file or preset name (default: the embedded 'reference' case)");
  cmd.add_option("--set", o.sets, "Override a field, e.g. --set pipeline.batch_size=64 (repeatable)")
      ->type_name("KEY=VALUE")
      ->check(key_value("KEY=VALUE", "pipeline.batch_size=64"))
      ->allow_extra_args(false);
  add_format_option(cmd, o.format, what);
}

void plain_help(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    // CLI11 writes a validator's description into the value's name ("N:UINT in [1 - 256]"):
    // the range goes into the option's help, in words, and the name stays a name.
    std::string range;
    for (int i = 0;; ++i) {
      CLI::Validator* v = nullptr;
      try {
        v = opt->get_validator(i);
      } catch (const CLI::OptionNotFound&) {
        break;
      }
      if (v == nullptr) break;
      const std::string d = v->get_description();
      if (const std::size_t open = d.find('['), close = d.find(']'); open != std::string::npos && close > open) {
        std::string inside = d.substr(open + 1, close - open - 1);
        if (const std::size_t dash = inside.find(" - "); dash != std::string::npos) inside.replace(dash, 3, " to ");
        range = fmt::format("from {}", inside);
      }
      v->description("");
    }
    if (!range.empty()) opt->description(fmt::format("{} ({})", opt->get_description(), range));
    // CLI11's names of C++ types are not what a user types: a number is N, text is named by
    // what it is (SCENARIO, FORMAT, SHELL).
    const std::string type = opt->get_type_name();
    if (type == "UINT" || type == "INT" || type == "FLOAT" || type == "NUMBER") {
      opt->type_name("N");
    } else if (type == "TEXT") {
      std::string name = opt->get_lnames().empty() ? opt->get_name() : opt->get_lnames().front();
      if (name.ends_with("-format")) name = "format";
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      opt->type_name(name);
    }
  }
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) plain_help(*sub);
}

LoadedScenario load_with_sets(const CommonOptions& o) {
  LoadedScenario s = load_scenario(o.scenario);
  for (const auto& a : o.sets) apply_assignment(s, a);
  return s;
}

void add_plot_option(CLI::App& cmd, std::string& path) {
  cmd.add_option("--plot", path,
                 "Also write the figure to FILE.svg (or FILE.png, FILE.pdf through rsvg-convert), or FILE.html: one "
                 "self-contained page with the figure, the words, the scenario with where each input came from, "
                 "and the assumptions")
      ->type_name("FILE");
}

std::vector<Field> user_fields(const LoadedScenario& s) {
  std::vector<Field> out;
  for (std::size_t i = 0; i < kFieldCount; ++i) {
    const SourceKind k = s.origins[i].kind;
    if (s.scenario.has(static_cast<Field>(i)) &&
        (k == SourceKind::File || k == SourceKind::Stdin || k == SourceKind::Argument))
      out.push_back(static_cast<Field>(i));
  }
  return out;
}

std::vector<UnusedKey> with_unused_uses(const LoadedScenario& s, std::vector<UnusedKey> keys) {
  std::vector<UnusedKey> out;
  for (const ShadowedUse& u : s.shadowed) {
    std::string by;
    for (const std::string& name : u.by) by += fmt::format("{}{}", by.empty() ? ", by " : ", ", echo(name));
    out.push_back(
        {Field{},
         fmt::format("{} sets nothing that stays: every key it sets is set again after it{}", echo(u.name), by), "use",
         u.where});
  }
  out.insert(out.end(), std::make_move_iterator(keys.begin()), std::make_move_iterator(keys.end()));
  return out;
}

namespace {

// A plan's label from its argument alone: its file stem, "stdin", or the preset's name.
std::string plan_label(std::string_view argument) {
  if (argument == "-") return "stdin";
  if (argument.find('/') != std::string_view::npos || argument.ends_with(".toml"))
    return std::filesystem::path(argument).stem().string();
  return std::string(argument);
}

}  // namespace

std::vector<std::string> plan_labels(const std::vector<std::string>& arguments) {
  std::vector<std::string> labels;
  for (const auto& a : arguments) labels.push_back(plan_label(a));
  // A path's parts, the last without its extension ("runs/a/plan.toml": runs, a, plan).
  std::vector<std::vector<std::string>> paths;
  std::size_t deepest = 0;
  for (const auto& a : arguments) {
    std::vector<std::string> parts;
    for (const auto& part : std::filesystem::path(a).lexically_normal())
      if (!part.empty() && part != "/" && part != ".") parts.push_back(part.string());
    if (!parts.empty() && (a.find('/') != std::string::npos || a.ends_with(".toml")))
      parts.back() = std::filesystem::path(parts.back()).stem().string();
    deepest = std::max(deepest, parts.size());
    paths.push_back(std::move(parts));
  }
  // Labels counted in a map at each depth: 20,000 plans take a pass each, not one per pair.
  for (std::size_t depth = 2; depth <= deepest; ++depth) {
    std::unordered_map<std::string, std::size_t> uses;
    for (const auto& l : labels) ++uses[l];
    std::vector<std::size_t> again;
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (uses[labels[i]] > 1) again.push_back(i);
    if (again.empty()) break;
    for (std::size_t i : again) {
      const auto& p = paths[i];
      std::string label;
      for (std::size_t k = p.size() > depth ? p.size() - depth : 0; k < p.size(); ++k)
        label += (label.empty() ? "" : "/") + p[k];
      if (!label.empty()) labels[i] = label;
    }
  }
  // The same plan named more than once: the second and later by their place.
  std::vector<std::string> out = labels;
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (const std::size_t before = seen[labels[i]]++; before > 0) out[i] += fmt::format(" ({})", before + 1);
  return out;
}

}  // namespace pipesim
