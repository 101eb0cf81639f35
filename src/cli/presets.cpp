// `pipesim presets [NAME]`: list or print the embedded presets; --keys lists every field; --schema
// prints a JSON Schema of the scenario TOML.
#include <algorithm>
#include <memory>
#include <vector>

#include "cli/common.hpp"
#include "config/presets.hpp"
#include "core/base/error.hpp"
#include "core/base/fields.hpp"
#include "core/base/text.hpp"
#include "core/stages/model.hpp"
#include "report/presets.hpp"
#include "report/schema.hpp"

namespace pipesim {

namespace {

struct PresetsOptions {
  std::string name;
  bool keys = false;
  bool schema = false;
  Format format = Format::Table;
};

// The kind of a preset, from its folder: configs/accelerators/a100.toml is an accelerator.
std::string preset_kind(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const std::size_t start = path.rfind('/', slash - 1);
  const std::string_view folder = slash == std::string_view::npos || start == std::string_view::npos
                                      ? std::string_view()
                                      : path.substr(start + 1, slash - start - 1);
  if (folder == "accelerators") return "accelerator";
  if (folder == "nodes") return "node";
  if (folder == "storage") return "storage";
  if (folder == "workloads") return "workload";
  if (folder == "loaders") return "loader";
  if (folder == "plans") return "plan";
  return "scenario";
}

PresetEntry entry(const EmbeddedPreset& p) {
  PresetEntry e{std::string(p.name), std::string(p.path), preset_kind(p.path), std::string(preset_description(p)),
                false};
  // Complete: it loads and the model resolves it with nothing added.
  try {
    (void)resolve(load_scenario(p.name).scenario);
    e.complete = true;
  } catch (const Error&) {
  }
  return e;
}

}  // namespace

void setup_presets(CLI::App& app) {
  auto opts = std::make_shared<PresetsOptions>();
  auto* cmd = app.add_subcommand("presets", "List the embedded presets, or print one");
  cmd->add_option("name", opts->name, "Preset to print (with --keys: only the keys that contain it)");
  cmd->add_flag("--keys", opts->keys, "List every scenario field with its kind, default and meaning");
  cmd->add_flag("--schema", opts->schema,
                "Print a JSON Schema of scenario files, for editors that complete and check TOML (e.g. Taplo)");
  add_format_option(*cmd, opts->format, Output::PresetList);
  cmd->callback([opts] {
    if (opts->schema && (opts->keys || !opts->name.empty()))
      throw Error("--schema describes every key: it takes no NAME and no --keys");
    const Destinations to{opts->format, {}, {}, {}, {}};
    if (opts->schema) {
      // Whatever the format: a JSON Schema is JSON.
      std::string text;
      {
        Out o(text);
        json_schema(o);
      }
      return write_stdout(text);
    }
    if (opts->keys) {
      const auto fields = all_fields();
      if (std::none_of(fields.begin(), fields.end(), [&](const FieldSpec& f) { return key_matches(f, opts->name); })) {
        std::vector<std::string_view> keys;
        for (const auto& f : fields) keys.push_back(f.key);
        throw Error(fmt::format("no key contains '{}'{}", echo(opts->name), did_you_mean(opts->name, keys)));
      }
      emit(to, KeysReport{opts->name});
    } else if (opts->name.empty()) {
      std::vector<PresetEntry> entries;
      for (const auto& p : embedded_presets()) entries.push_back(entry(p));
      emit(to, PresetListReport{entries});
    } else {
      const auto* p = find_preset(opts->name);
      if (!p) {
        std::vector<std::string_view> names;
        for (const auto& e : embedded_presets()) names.push_back(e.name);
        const std::string hint = did_you_mean(opts->name, names);
        throw Error(fmt::format("no preset named '{}'{}", echo(opts->name),
                                hint.empty() ? std::string(" (`pipesim presets` lists them)") : hint));
      }
      emit(to, PresetReport{entry(*p), load_scenario(p->name), p->text});
    }
  });
}

}  // namespace pipesim
