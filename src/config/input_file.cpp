#include "config/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "core/base/error.hpp"

namespace pipesim {

namespace {

// Closes a descriptor however the read ends.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string limit_text(std::size_t bytes) {
  return bytes % (std::size_t{1} << 20) == 0 ? fmt::format("{} MiB", bytes >> 20) : fmt::format("{} bytes", bytes);
}

Error too_large(const Origin& where, std::string_view what, std::size_t max_bytes, std::string_view hint) {
  return Error(where, fmt::format("{} is larger than {}{}", what, limit_text(max_bytes), hint));
}

}  // namespace

std::string read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what,
                            std::string_view too_large_hint) {
  const Origin where = Origin::file(path);
  // O_NONBLOCK: opening a FIFO with no writer returns at once (and is refused below) instead of
  // waiting for one; it changes nothing for a regular file.
  const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) {
    if (errno == ENOENT) throw Error(where, fmt::format("cannot read {}: it does not exist", what));
    throw Error(where, fmt::format("cannot read {}: {}", what, std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw Error(where, fmt::format("cannot read {}: {}", what, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw Error(where, fmt::format("cannot read {}: it is a directory", what));
  if (!S_ISREG(st.st_mode))
    throw Error(where,
                fmt::format("cannot read {}: it is not a regular file (a device or a pipe could be endless)", what));
  if (st.st_size < 0 || static_cast<std::size_t>(st.st_size) > max_bytes)
    throw too_large(where, what, max_bytes, too_large_hint);
  return read_input_fd(f.fd, where, max_bytes, what, too_large_hint);
}

std::string read_input_fd(int fd, const Origin& where, std::size_t max_bytes, std::string_view what,
                          std::string_view too_large_hint) {
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(where, fmt::format("cannot read {}: {}", what, std::strerror(errno)));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) throw too_large(where, what, max_bytes, too_large_hint);
  }
  // A UTF-8 byte-order mark (Windows editors, Excel's "CSV UTF-8") is not part of the text.
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  return text;
}

}  // namespace pipesim
