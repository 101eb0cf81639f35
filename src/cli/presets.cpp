// `pipesim presets [NAME]`: list or print the embedded presets; --keys lists every field.
#include <memory>

#include "cli/common.hpp"
#include "config/presets.hpp"
#include "core/error.hpp"
#include "core/fields.hpp"
#include "core/text.hpp"

namespace pipesim {

namespace {

struct PresetsOptions {
  std::string name;
  bool keys = false;
  std::string format = "table";
};

std::string list_presets() {
  std::string out;
  for (const auto& p : embedded_presets()) {
    // The description is the TOML `description = "..."` line, shown as written.
    std::string desc;
    const auto pos = p.text.find("description = \"");
    if (pos != std::string_view::npos) {
      const auto start = pos + 15;
      desc = std::string(p.text.substr(start, p.text.find('"', start) - start));
    }
    out += fmt::format("{:<22} {:<44} {}\n", p.name, p.path, desc);
  }
  return out;
}

std::string list_keys(bool markdown) {
  std::string out;
  if (markdown) out += "| key | kind | default | meaning |\n|---|---|---|---|\n";
  for (const auto& f : all_fields()) {
    std::string kind = describe_dims(f.accepts);
    kind = kind.substr(0, kind.find(" (e.g."));
    if (markdown) {
      std::string help(f.help);
      for (std::size_t i = 0; (i = help.find('|', i)) != std::string::npos; i += 2) help.replace(i, 1, "\\|");
      out += fmt::format("| `{}` | {} | {} | {} |\n", f.key, kind,
                         f.default_text.empty() ? std::string("—") : std::string(f.default_text), help);
      continue;
    }
    out += fmt::format("{:<32} {:<30} {:<40} {}\n", f.key, kind,
                       f.default_text.empty() ? "-" : fmt::format("default {}", f.default_text), f.help);
  }
  return out;
}

}  // namespace

void setup_presets(CLI::App& app) {
  auto opts = std::make_shared<PresetsOptions>();
  auto* cmd = app.add_subcommand("presets", "List the embedded presets, or print one");
  cmd->add_option("name", opts->name, "Preset to print");
  cmd->add_flag("--keys", opts->keys, "List every scenario field with its kind, default and meaning");
  cmd->add_option("--format", opts->format, "With --keys: table or markdown")->capture_default_str();
  cmd->callback([opts] {
    if (opts->format != "table" && opts->format != "markdown")
      throw Error(Origin{"--format " + opts->format}, "presets lists as table or markdown");
    if (opts->keys) return write_stdout(list_keys(opts->format == "markdown"));
    if (opts->name.empty()) return write_stdout(list_presets());
    const auto* p = find_preset(opts->name);
    if (!p) {
      std::vector<std::string_view> names;
      for (const auto& e : embedded_presets()) names.push_back(e.name);
      const std::string hint = did_you_mean(opts->name, names);
      throw Error(fmt::format("no preset named '{}'{}", opts->name,
                              hint.empty() ? std::string(" (`pipesim presets` lists them)") : hint));
    }
    write_stdout(std::string(p->text));
  });
}

}  // namespace pipesim
