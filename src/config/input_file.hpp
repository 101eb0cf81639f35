// Reading a file the user names as input (a scenario, a per-step log, per-sample times).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/error.hpp"

namespace pipesim {

// The file at `path`, whole. Only a regular file is read: a device or a pipe could never end
// (/dev/zero) or block until a writer comes (a FIFO), and is refused without waiting. At most
// max_bytes: the size is checked first, then the file is read to its end (files under /proc
// and /sys report 0 bytes and hold more; one byte past the limit tells). Errors are one line
// at `path` that call the file `what` ("the file", "the log"); `too_large_hint` follows the
// error for a file over the limit. A UTF-8 byte-order mark at the start is dropped (both).
std::string read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what,
                            std::string_view too_large_hint = "");

// An open descriptor (standard input: a pipe, a file, a terminal) read to its end, at most
// max_bytes; errors at `source`, calling it `what`.
std::string read_input_fd(int fd, const Origin& where, std::size_t max_bytes, std::string_view what,
                          std::string_view too_large_hint = "");

}  // namespace pipesim
