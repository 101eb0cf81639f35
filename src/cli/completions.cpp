// `pipesim completions SHELL`: a completion script for bash, zsh or fish, taken from the command
// line pipesim itself builds (every subcommand and option), the embedded presets and the field
// and requirement keys, so an installed script completes what this binary accepts.
#include <memory>

#include "cli/common.hpp"
#include "cli/completions.hpp"
#include "config/presets.hpp"
#include "core/analyses/check.hpp"
#include "core/base/error.hpp"
#include "core/base/fields.hpp"
#include "core/base/text.hpp"
#include "report/completions.hpp"

namespace pipesim {

namespace {

// The first sentence of a help text, for a completion menu.
std::string first_sentence(const std::string& help) {
  std::size_t end = help.size();
  for (const std::string_view stop : {". ", "; ", " (", ": one ", ", e.g."}) end = std::min(end, help.find(stop));
  return help.substr(0, end);
}

bool is_word(std::string_view w) {
  if (w.empty()) return false;
  for (char c : w)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  return true;
}

std::vector<std::string> split_words(std::string_view list) {
  std::vector<std::string> out;
  std::string w;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    if (i == list.size() || list[i] == ',' || list[i] == ' ') {
      if (!w.empty() && w != "or") out.push_back(w);
      w.clear();
    } else {
      w += list[i];
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> help_choices(const std::string& help) {
  const std::size_t colon = help.rfind(": ");
  if (colon == std::string::npos) return {};
  std::string list;
  int depth = 0;
  for (char c : help.substr(colon + 2)) {
    if (c == '(') ++depth;
    if (depth == 0) list += c;
    if (c == ')' && depth > 0) --depth;
  }
  auto words = split_words(list);
  for (const auto& w : words)
    if (!is_word(w)) return {};
  if (words.size() < 2) return {};
  return words;
}

CommandCompletion command_completion(const CLI::App& app) {
  CommandCompletion c;
  c.name = app.get_name();
  c.help = first_sentence(app.get_description());
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional()) {
      const std::string& name = opt->get_name(true);
      c.positional_many = opt->get_items_expected_max() > 1;
      if (name == "scenario" || name == "plans")
        c.positional = Completes::Scenario;
      else if (name == "name" || name == "presets")
        c.positional = Completes::Preset;
      else if (name == "folder")
        c.positional = Completes::Dir;
      else if (name == "shell") {
        c.positional = Completes::Choice;
        for (auto s : completion_shells()) c.positional_choices.emplace_back(s);
      } else
        c.positional = Completes::Text;
      continue;
    }
    OptionCompletion o;
    for (const auto& n : opt->get_snames()) o.names.push_back("-" + n);
    for (const auto& n : opt->get_lnames()) o.names.push_back("--" + n);
    o.help = first_sentence(opt->get_description());
    o.repeatable = opt->get_expected_max() > 1;
    const std::string type = opt->get_type_name();
    if (opt->get_expected_max() == 0)
      o.value = Completes::Nothing;
    else if (type == "FILE")
      o.value = Completes::File;
    else if (type == "DIR")
      o.value = Completes::Dir;
    else if (type == "KEY=VALUE" || type == "KEY=RANGE")
      o.value = opt->check_lname("require") ? Completes::Requirement : Completes::KeyAssign;
    else if (type == "KEY")
      o.value = Completes::Key;
    else if ((type == "FORMAT" || type == "WAIT") && !(o.choices = help_choices(opt->get_description())).empty())
      o.value = Completes::Choice;
    else
      o.value = Completes::Text;
    c.options.push_back(std::move(o));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    c.subcommands.push_back(command_completion(*sub));
  return c;
}

CompletionData completion_data(const CLI::App& root) {
  CompletionData d;
  d.version = PIPESIM_VERSION;
  d.root = command_completion(root);
  d.root.name.clear();
  for (const auto& p : embedded_presets()) d.presets.emplace_back(p.name);
  for (const auto& f : all_fields()) d.field_keys.emplace_back(f.key);
  for (auto k : requirement_keys()) d.requirement_keys.emplace_back(k);
  return d;
}

void setup_completions(CLI::App& app) {
  auto shell = std::make_shared<std::string>();
  auto* cmd =
      app.add_subcommand("completions", "Print a completion script for bash, zsh or fish (what this binary accepts)");
  cmd->add_option("shell", *shell, "The shell: bash, zsh or fish")->required();
  cmd->footer(
      "Installed by `cmake --install` and the .deb. To try one in the shell you are in:\n"
      "  source <(pipesim completions bash)      (bash)\n"
      "  source <(pipesim completions zsh)       (zsh, after compinit)\n"
      "  pipesim completions fish | source       (fish)");
  cmd->callback([cmd, shell] {
    const std::string script = completion_script(*shell, completion_data(*cmd->get_parent()));
    if (script.empty()) {
      std::vector<std::string_view> shells = completion_shells();
      throw Error(Origin::argument("completions " + *shell),
                  fmt::format("no completions for shell '{}'{} (bash, zsh or fish)", echo(*shell),
                              did_you_mean(*shell, shells)));
    }
    write_stdout(script);
  });
}

}  // namespace pipesim
