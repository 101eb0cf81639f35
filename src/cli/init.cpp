// `pipesim init [PRESETS...]`: a commented starting scenario that uses the presets named, with
// every key the user should decide; to stdout, or to a file it will not overwrite.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/common.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "report/init_toml.hpp"

namespace pipesim {

namespace {

struct InitOptions {
  std::vector<std::string> presets;
  std::string output;
};

}  // namespace

void setup_init(CLI::App& app) {
  auto opts = std::make_shared<InitOptions>();
  auto* cmd = app.add_subcommand(
      "init", "Write a commented starting scenario that uses the presets named, with every key to decide");
  cmd->add_option("presets", opts->presets,
                  "Presets to start from (e.g. p4d-24xlarge nvme-gen4 resnet50-imagenet-amp)");
  cmd->add_option("-o,--output", opts->output, "Write to FILE (refused when it exists) instead of standard output")
      ->type_name("FILE");
  cmd->callback([opts] {
    for (const auto& p : opts->presets)
      if (p.find('/') != std::string::npos || p.ends_with(".toml") || p == "-" || p.find('+') != std::string::npos)
        throw Error(Origin::argument(p),
                    "init takes preset names (the file it writes can `use` files): see pipesim presets");
    // Loading the composition checks every name (with a suggestion for a typo).
    std::string composed;
    for (const auto& p : opts->presets) composed += (composed.empty() ? "" : "+") + p;
    LoadedScenario loaded;
    if (!composed.empty()) loaded = load_scenario(composed);
    for (const UnusedKey& u : with_unused_uses(loaded, {})) fmt::print(stderr, "pipesim: note: use: {}\n", u.reason);
    const std::string text = init_toml(opts->presets, loaded);
    if (opts->output.empty() || opts->output == "-") return write_stdout(text);
    std::error_code ec;
    if (std::filesystem::exists(opts->output, ec))
      throw Error(Origin::argument("-o " + opts->output),
                  fmt::format("{} exists: init does not overwrite a file", echo(opts->output)));
    write_file(opts->output, text, "-o");
  });
}

}  // namespace pipesim
