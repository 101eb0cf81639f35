// `pipesim presets [NAME]`: list or print the embedded presets; --keys lists every field.
#include <memory>

#include "cli/common.hpp"
#include "config/presets.hpp"
#include "core/error.hpp"
#include "core/fields.hpp"
#include "core/text.hpp"
#include "report/text_report.hpp"

namespace pipesim {

namespace {

struct PresetsOptions {
  std::string name;
  bool keys = false;
  std::string format = "table";
};

}  // namespace

void setup_presets(CLI::App& app) {
  auto opts = std::make_shared<PresetsOptions>();
  auto* cmd = app.add_subcommand("presets", "List the embedded presets, or print one");
  cmd->add_option("name", opts->name, "Preset to print");
  cmd->add_flag("--keys", opts->keys, "List every scenario field with its kind, default and meaning");
  cmd->add_option("--format", opts->format, "Output format: table or markdown")->capture_default_str();
  cmd->callback([opts] {
    if (opts->format != "table" && opts->format != "markdown")
      throw Error(Origin{"--format " + opts->format}, "presets lists as table or markdown");
    const bool md = opts->format == "markdown";
    std::string text;
    if (opts->keys || opts->name.empty()) {
      {
        Out o(text);
        if (opts->keys)
          text_keys(o, md);
        else
          text_presets(o, md);
      }
      return write_stdout(text);
    }
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
