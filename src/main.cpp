// pipesim: will the input pipeline keep the accelerators fed? Front end only.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "cli/common.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace {

struct Command {
  std::string_view name;
  void (*setup)(CLI::App&);
};

// Every subcommand, in the order `pipesim --help` lists them.
constexpr std::array kCommands = {
    Command{"diagnose", pipesim::setup_diagnose},   Command{"sweep", pipesim::setup_sweep},
    Command{"simulate", pipesim::setup_simulate},   Command{"check", pipesim::setup_check},
    Command{"compare", pipesim::setup_compare},     Command{"presets", pipesim::setup_presets},
    Command{"calibrate", pipesim::setup_calibrate}, Command{"attribute", pipesim::setup_attribute},
};

}  // namespace

namespace {

// Standard output that is closed (`>&-`) would lose every result, and a file pipesim opens
// would take its descriptor and receive them: refuse at once. A closed standard input or error
// is given /dev/null, so that no file opened later takes their place.
bool standard_streams_ready() {
  for (int fd : {0, 2})
    if (fcntl(fd, F_GETFD) == -1 && open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd) return false;
  if (fcntl(1, F_GETFD) == -1) {
    fmt::print(stderr, "pipesim: error: cannot write standard output: it is closed\n");
    return false;
  }
  return true;
}

// Everything written must have reached standard output: a full disk or a closed pipe found at
// the last flush is an error, not a success.
int finish(int code) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    const int err = errno;
    fmt::print(stderr, "pipesim: error: cannot write standard output: {}\n",
               err ? std::strerror(err) : "the write failed");
    return pipesim::kExitUsage;
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  if (!standard_streams_ready()) return pipesim::kExitUsage;
  CLI::App app{"pipesim: bottleneck calculator for ML training input pipelines", "pipesim"};
  app.set_version_flag("--version", std::string("pipesim ") + PIPESIM_VERSION);
  app.require_subcommand(1);
  // Building a subcommand's options is most of start-up: when the first argument names one,
  // only that one is built (help, version and unknown commands see them all).
  const std::string_view first = argc > 1 ? argv[1] : "";
  bool named = false;
  for (const auto& c : kCommands) named |= c.name == first;
  if (!named && !first.empty() && first.front() != '-') {
    std::array<std::string_view, kCommands.size()> names{};
    std::string list;
    for (std::size_t i = 0; i < kCommands.size(); ++i) {
      names[i] = kCommands[i].name;
      list += fmt::format("{}{}", i ? ", " : "", kCommands[i].name);
    }
    fmt::print(stderr, "pipesim: error: unknown command '{}'{} (commands: {}; see pipesim --help)\n",
               pipesim::echo(first), pipesim::did_you_mean(first, names), list);
    return pipesim::kExitUsage;
  }
  for (const auto& c : kCommands)
    if (!named || c.name == first) c.setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return finish(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return finish(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return finish(app.exit(e));
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "pipesim: error: {} (see pipesim --help)\n", e.what());
    return pipesim::kExitUsage;
  } catch (const pipesim::ExitCode& e) {
    return finish(e.code);
  } catch (const pipesim::Error& e) {
    fmt::print(stderr, "{}\n", e.line());
    return pipesim::kExitUsage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "pipesim: internal error: {}\n", e.what());
    return pipesim::kExitInternal;
  }
  return finish(pipesim::kExitOk);
}
