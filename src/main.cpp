// pipesim: will the input pipeline keep the accelerators fed? Front end only.
#include <fmt/format.h>
#include <array>
#include <cstdio>
#include <string_view>

#include "cli/common.hpp"
#include "core/error.hpp"

namespace {

struct Command {
  std::string_view name;
  void (*setup)(CLI::App&);
};

// Every subcommand, in the order `pipesim --help` lists them.
constexpr std::array kCommands = {
    Command{"diagnose", pipesim::setup_diagnose}, Command{"sweep", pipesim::setup_sweep},
    Command{"check", pipesim::setup_check},       Command{"compare", pipesim::setup_compare},
    Command{"presets", pipesim::setup_presets},
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pipesim: bottleneck calculator for ML training input pipelines", "pipesim"};
  app.set_version_flag("--version", std::string("pipesim ") + PIPESIM_VERSION);
  app.require_subcommand(1);
  // Building a subcommand's options is most of start-up: when the first argument names one,
  // only that one is built (help, version and unknown commands see them all).
  const std::string_view first = argc > 1 ? argv[1] : "";
  bool named = false;
  for (const auto& c : kCommands) named |= c.name == first;
  for (const auto& c : kCommands)
    if (!named || c.name == first) c.setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "pipesim: error: {} (see pipesim --help)\n", e.what());
    return pipesim::kExitUsage;
  } catch (const pipesim::ExitCode& e) {
    return e.code;
  } catch (const pipesim::Error& e) {
    fmt::print(stderr, "{}\n", e.line());
    return pipesim::kExitUsage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "pipesim: internal error: {}\n", e.what());
    return pipesim::kExitInternal;
  }
  return pipesim::kExitOk;
}
