#include "cli/emit.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "report/colour.hpp"

namespace pipesim {

bool colour_wanted() {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') return false;
  const char* force = std::getenv("CLICOLOR_FORCE");
  if (force != nullptr && *force != '\0' && std::string_view(force) != "0") return true;
  const char* term = std::getenv("TERM");
  return isatty(1) == 1 && !(term != nullptr && std::string_view(term) == "dumb");
}

std::size_t output_columns() {
  if (isatty(1) != 1) return 100;
  winsize size{};
  if (ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return std::max<std::size_t>(size.ws_col, 40);
  return 80;
}

namespace {

void put_stdout(std::string_view text) {
  Out out(stdout);
  out.write(text);
  out.flush();
}

}  // namespace

void write_table_stdout(const std::string& text, Format format) {
  // GitHub's format is workflow commands: its renderer keeps every other line from starting one.
  if (format == Format::Github) return put_stdout(text);
  const std::string safe = no_workflow_commands(text);
  put_stdout(format == Format::Table && colour_wanted() ? coloured(safe) : safe);
}

void write_stdout(const std::string& text) { put_stdout(no_workflow_commands(text)); }

namespace {

std::string standard_output_taken(std::string_view option) {
  return fmt::format("- would be standard output, which carries the command's own report: {} takes a file name",
                     option);
}

}  // namespace

void write_file(const std::string& path, const std::string& text, std::string_view option) {
  const Origin where = Origin::argument(fmt::format("{} {}", option, path));
  if (path == "-") throw Error(where, standard_output_taken(option));
  const auto fail = [&](std::string_view what) {
    const int err = errno;
    return Error(where, fmt::format("cannot write {}: {}: {}", echo(path), what, std::strerror(err)));
  };
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw Error(where, fmt::format("{} is a directory", echo(path)));
  const auto put = [&](std::FILE* f) {
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
    const bool closed = std::fclose(f) == 0;
    return ok && closed;
  };
  // A device or a pipe (/dev/stdout, /dev/full) is written in place: it cannot be renamed over.
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw fail("cannot open it");
    if (!put(f)) throw fail("the write failed");
    return;
  }
  // A file is written whole or not at all: a temporary file beside it, then renamed over it. A
  // symbolic link is written through, to the file it names (which keeps the link); an existing
  // file keeps its permissions. The temporary name is short: any name the folder takes fits.
  std::filesystem::path target(path);
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) {
    const std::filesystem::path resolved = std::filesystem::weakly_canonical(path, ec);
    if (ec) throw fail("cannot follow the link");
    target = resolved;
  }
  struct stat existing {};
  const bool had = ::stat(target.c_str(), &existing) == 0;
  std::string tmp = (target.parent_path() / ".pipesim-XXXXXX").string();
  const int fd = mkstemp(tmp.data());
  if (fd < 0) throw fail("cannot create a file beside it");
  std::FILE* f = fdopen(fd, "wb");
  if (!f) {
    close(fd);
    std::remove(tmp.c_str());
    throw fail("cannot open it");
  }
  if (!put(f)) {
    const Error e = fail("the write failed");
    std::remove(tmp.c_str());
    throw e;
  }
  // mkstemp makes the file private (0600); a new report is as readable as any file the user
  // writes, one written over keeps the permissions it had.
  const mode_t mask = umask(0);
  umask(mask);
  chmod(tmp.c_str(), had ? existing.st_mode & 07777 : 0666 & ~mask);
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const Error e = fail("cannot rename the finished file onto it");
    std::remove(tmp.c_str());
    throw e;
  }
}

void refuse_input_as_output(const std::string& path, const std::vector<std::string>& inputs, std::string_view option,
                            bool toml_output) {
  const Origin where = Origin::argument(fmt::format("{} {}", option, path));
  if (path == "-") throw Error(where, standard_output_taken(option));
  if (!toml_output && path.ends_with(".toml"))
    throw Error(where, fmt::format("{} names a TOML file: {} takes the report file to write (e.g. report.xml), "
                                   "not a plan",
                                   echo(path), option));
  std::error_code ec;
  for (const auto& in : inputs)
    if (std::filesystem::equivalent(path, in, ec))
      throw Error(where,
                  fmt::format("{} is one of the inputs ({}): write the report to another file", echo(path), echo(in)));
  // A file is written beside itself and renamed (write_file): its folder must be there and take a
  // new file, known before anything is printed (a sweep's rows, then a failed plot).
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw Error(where, fmt::format("{} is a directory", echo(path)));
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) return;  // a device or pipe
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  if (!std::filesystem::is_directory(folder, ec))
    throw Error(where, fmt::format("cannot write {}: there is no folder {}", echo(path), echo(folder)));
  if (access(folder.c_str(), W_OK) != 0)
    throw Error(where, fmt::format("cannot write {}: the folder {} is not writable: {}", echo(path), echo(folder),
                                   std::strerror(errno)));
}

std::filesystem::path resolved_path(const std::string& path) {
  std::error_code ec;
  return std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).lexically_normal();
}

void refuse_same_output(const std::string& a, std::string_view a_option, const std::string& b,
                        std::string_view b_option) {
  if (a.empty() || b.empty()) return;
  // Neither need exist yet: compared as absolute paths with their links resolved where they exist.
  std::error_code ec;
  if (resolved_path(a) == resolved_path(b) || std::filesystem::equivalent(a, b, ec))
    throw Error(Origin::argument(fmt::format("{} {}", b_option, b)),
                fmt::format("{} is also {}'s file: give each output a file of its own", echo(b), a_option));
}

// PNG and PDF are the SVG figure converted by librsvg's converter: a well-kept renderer of the
// same SVG a browser shows, run as a program so that pipesim stays one static binary.
bool converted_plot(const std::string& path) { return path.ends_with(".png") || path.ends_with(".pdf"); }

namespace {

constexpr const char* kRasteriser = "rsvg-convert";

bool on_path(const char* program) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (true) {
    const std::size_t colon = dirs.find(':');
    const std::string dir(dirs.substr(0, colon));
    if (access(((dir.empty() ? "." : dir) + "/" + program).c_str(), X_OK) == 0) return true;
    if (colon == std::string_view::npos) return false;
    dirs.remove_prefix(colon + 1);
  }
}

// The folder for temporary files: $TMPDIR, else /tmp, as an absolute path (a TMPDIR of "-x"
// would otherwise reach rsvg-convert as an option).
std::string temporary_folder() {
  const char* dir = std::getenv("TMPDIR");
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::absolute(dir != nullptr && *dir != '\0' ? dir : "/tmp", ec);
  return ec ? std::string("/tmp") : folder.string();
}

// A temporary file holding `text` (empty text: an empty file to write into); its path.
std::string temporary(std::string_view text, const Error& fail) {
  std::string tmp = temporary_folder() + "/pipesim-plot-XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) throw fail;
  bool ok = true;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  close(fd);
  if (!ok) {
    std::remove(tmp.c_str());
    throw fail;
  }
  return tmp;
}

// The SVG figure as PNG (twice the SVG's pixels, on white) or PDF, by rsvg-convert.
std::string convert_svg(const std::string& path, const std::string& svg) {
  const Origin where = Origin::argument("--plot " + path);
  const bool png = path.ends_with(".png");
  const std::string input = temporary(svg, Error(where, "cannot write a temporary file for rsvg-convert"));
  std::string output;
  try {
    output = temporary("", Error(where, "cannot write a temporary file for rsvg-convert"));
  } catch (...) {
    std::remove(input.c_str());
    throw;
  }
  std::vector<std::string> args = {kRasteriser, "-f", png ? "png" : "pdf", "-b", "white"};
  if (png) args.insert(args.end(), {"-z", "2"});
  args.insert(args.end(), {"-o", output, input});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, kRasteriser, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  const bool ran = spawned == 0 && waitpid(pid, &status, 0) == pid;
  std::ifstream in(output, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(input.c_str());
  std::remove(output.c_str());
  if (!ran) throw Error(where, fmt::format("cannot run {}: {}", kRasteriser, std::strerror(spawned ? spawned : errno)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || bytes.empty())
    throw Error(where, fmt::format("{} could not convert the figure to {} (exit status {})", kRasteriser,
                                   png ? "PNG" : "PDF", WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  return bytes;
}

}  // namespace

void check_plot(const std::string& path, const std::vector<std::string>& inputs) {
  if (path.empty()) return;
  const Origin where = Origin::argument("--plot " + path);
  if (!path.ends_with(".svg") && !path.ends_with(".html") && !converted_plot(path))
    throw Error(where, "name the file FILE.svg, FILE.png or FILE.pdf (the figure), or FILE.html (the report)");
  if (converted_plot(path) && !on_path(kRasteriser))
    throw Error(where, fmt::format("a PNG or PDF figure is the SVG converted by {}, which is not installed "
                                   "(Debian: apt-get install librsvg2-bin); or name the file FILE.svg",
                                   kRasteriser));
  // The conversion's files are written in the temporary folder: known to be there before any work.
  if (const std::string tmp = temporary_folder(); converted_plot(path) && access(tmp.c_str(), W_OK | X_OK) != 0)
    throw Error(where, fmt::format("cannot write the conversion's temporary files in {} ({}): set TMPDIR to a "
                                   "folder you can write",
                                   echo(tmp), std::strerror(errno)));
  refuse_input_as_output(path, inputs, "--plot");
}

bool plot_is_html(const std::string& path) { return path.ends_with(".html"); }

void write_plot(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  write_file(path, converted_plot(path) ? convert_svg(path, text) : text, "--plot");
}

namespace {

bool to_stdout(const Destinations& d) { return d.output.empty() || d.output == "-"; }

}  // namespace

void check_destinations(const Destinations& d, const std::vector<std::string>& inputs) {
  // -o may name a TOML file (a fragment a scenario uses); the side files never.
  if (!to_stdout(d)) refuse_input_as_output(d.output, inputs, "--output", true);
  if (!d.junit.empty()) refuse_input_as_output(d.junit, inputs, "--junit");
  if (!d.trace.empty()) refuse_input_as_output(d.trace, inputs, "--trace");
  check_plot(d.plot, inputs);
  refuse_same_output(d.trace, "--trace", d.plot, "--plot");
}

void emit_plot(const Destinations& d, const Figure& figure, const std::string& words) {
  if (d.plot.empty()) return;
  const std::string svg = figure.svg();
  write_plot(d.plot, plot_is_html(d.plot) ? figure.page(svg, words) : svg);
}

void emit(const Destinations& d, const Report& r, const Extras& extras) {
  const std::size_t columns = output_columns();
  const std::string text = render(d.format, r, columns);
  if (!d.trace.empty()) write_file(d.trace, extras.trace(), "--trace");
  if (!d.plot.empty())
    // An HTML report's words are the table's: the text itself when that is the format.
    emit_plot(d, extras.figure, d.format == Format::Table ? text : render(Format::Table, r));
  if (!d.junit.empty()) write_file(d.junit, render(Format::Junit, r), "--junit");
  if (!to_stdout(d)) return write_file(d.output, text, "--output");
  const Output what = output_of(r);
  if (what == Output::Diagnosis || what == Output::Check)
    write_table_stdout(text, d.format);
  else
    write_stdout(text);
}

}  // namespace pipesim
