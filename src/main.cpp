// pipesim: will the input pipeline keep the accelerators fed? Front end only.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cli/common.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"

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
    Command{"init", pipesim::setup_init},           Command{"completions", pipesim::setup_completions},
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

// The deepest subcommand the command line chose (the app itself when none).
const CLI::App* chosen(const CLI::App& app) {
  const CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return at;
}

// "pipesim diagnose": the command line that names a subcommand, for a pointer to its help.
std::string command_path(const CLI::App* sub) {
  std::string path;
  for (; sub != nullptr; sub = sub->get_parent()) path = sub->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

// A usage error in one line: an option the command does not have is named with the nearest
// one it has; every error points at that command's --help.
std::string usage_message(const CLI::App& app, const CLI::ParseError& e, const std::vector<std::string>& args) {
  const CLI::App* sub = chosen(app);
  const std::string path = command_path(sub);
  const std::string help = fmt::format("see {} --help", path);
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    std::vector<std::string> names;
    for (const CLI::Option* opt : sub->get_options())
      for (const std::string& n : opt->get_lnames()) names.push_back("--" + n);
    std::vector<std::string_view> views(names.begin(), names.end());
    for (const std::string& arg : args) {
      if (arg == "--") break;
      if (arg.size() < 2 || arg.front() != '-') continue;
      const std::string name = arg.substr(0, arg.find('='));
      if (sub->get_option_no_throw(name) != nullptr) continue;
      return fmt::format("pipesim: error: unknown option '{}'{} ({})", pipesim::echo(name),
                         pipesim::did_you_mean(name, views), help);
    }
  }
  // A positional argument the command needs and did not get: say what it takes, as --help
  // describes it, rather than CLI11's "plans is required".
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && sub != &app) {
    for (const CLI::Option* opt : sub->get_options()) {
      if (!opt->get_positional() || !opt->get_required() || opt->count() > 0) continue;
      std::string what = opt->get_description();
      if (!what.empty()) what.front() = static_cast<char>(std::tolower(static_cast<unsigned char>(what.front())));
      return fmt::format("pipesim: error: {} needs {} ({})", path.substr(app.get_name().size() + 1), what, help);
    }
  }
  return fmt::format("pipesim: error: {} ({})", e.what(), help);
}

}  // namespace

int main(int argc, char** argv) {
  if (!standard_streams_ready()) return pipesim::kExitUsage;
  CLI::App app{"pipesim: bottleneck calculator for ML training input pipelines", "pipesim"};
  app.set_version_flag("--version", std::string("pipesim ") + PIPESIM_VERSION);
  app.require_subcommand(1);
  // Building a subcommand's options is most of start-up: when the first argument names one,
  // only that one is built (help, version and unknown commands see them all).
  // `pipesim help [COMMAND...]` is `pipesim [COMMAND...] --help`.
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args.front() == "help") {
    args.erase(args.begin());
    args.emplace_back("--help");
  }
  pipesim::attribute_old_spelling(args);
  // Bare `pipesim` is a question about what it does: the overview, not an error.
  if (args.empty()) args.emplace_back("--help");
  const std::string first = args.empty() ? std::string() : args.front();
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
  // A completion script describes every command, so `completions` builds them all.
  const bool all = !named || first == "completions";
  for (const auto& c : kCommands)
    if (all || c.name == first) c.setup(app);
  // Help and completion read the value names: tidied only for them (walking every option's
  // validators costs more than a diagnosis).
  bool help = first == "completions";
  for (const auto& a : args) help |= a == "--help" || a == "-h";
  if (help) pipesim::plain_help(app);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return finish(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return finish(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return finish(app.exit(e));
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "{}\n", usage_message(app, e, args));
    return pipesim::kExitUsage;
  } catch (const pipesim::ExitCode& e) {
    return finish(e.code);
  } catch (const pipesim::Error& e) {
    fmt::print(stderr, "{}\n", e.line());
    return pipesim::kExitUsage;
  } catch (const std::bad_alloc&) {
    // A limit on memory (ulimit -v, a container's), not a bug: said as an error of the input.
    fmt::print(stderr,
               "pipesim: error: out of memory (a limit on this process's memory, or the input asks for too much)\n");
    return pipesim::kExitUsage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "pipesim: internal error: {}\n", e.what());
    return pipesim::kExitInternal;
  }
  return finish(pipesim::kExitOk);
}
