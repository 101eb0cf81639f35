// pipesim: will the input pipeline keep the accelerators fed? Front end only.
#include <cstdio>
#include <fmt/format.h>

#include "cli/common.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"pipesim: bottleneck calculator for ML training input pipelines", "pipesim"};
  app.set_version_flag("--version", std::string("pipesim ") + PIPESIM_VERSION);
  app.require_subcommand(1);
  pipesim::setup_diagnose(app);
  pipesim::setup_sweep(app);
  pipesim::setup_check(app);
  pipesim::setup_compare(app);
  pipesim::setup_presets(app);
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
    return 2;
  } catch (const pipesim::ExitCode& e) {
    return e.code;
  } catch (const pipesim::Error& e) {
    fmt::print(stderr, "{}\n", e.line());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "pipesim: internal error: {}\n", e.what());
    return 3;
  }
  return 0;
}
