#include "report/out.hpp"

#include <cerrno>
#include <cstring>

#include "core/base/error.hpp"

namespace pipesim {

void fail_write(std::FILE* file) {
  const int err = errno;
  throw Error(fmt::format("cannot write {}: {}", file == stdout ? "standard output" : "the output",
                          err ? std::strerror(err) : "the write failed"));
}

}  // namespace pipesim
