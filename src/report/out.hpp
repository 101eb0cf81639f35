// Output is buffered and written to a FILE* in large chunks, or collected in a string.
#pragma once

#include <cstdio>
#include <fmt/format.h>
#include <string>
#include <string_view>

namespace pipesim {

class Out {
 public:
  explicit Out(std::FILE* f) : file_(f) {}
  explicit Out(std::string& s) : string_(&s) {}
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;
  ~Out() { flush(); }
  template <class... Args>
  void print(fmt::format_string<Args...> f, Args&&... args) {
    fmt::format_to(std::back_inserter(buf_), f, std::forward<Args>(args)...);
    if (buf_.size() > (1u << 16)) flush();
  }
  void write(std::string_view s) {
    buf_.append(s.data(), s.data() + s.size());
    if (buf_.size() > (1u << 16)) flush();
  }
  void put(char c) { buf_.push_back(c); }
  void flush() {
    if (string_) {
      string_->append(buf_.data(), buf_.size());
    } else if (buf_.size() > 0) {
      std::fwrite(buf_.data(), 1, buf_.size(), file_);
      std::fflush(file_);
    }
    buf_.clear();
  }

 private:
  std::FILE* file_ = nullptr;
  std::string* string_ = nullptr;
  fmt::memory_buffer buf_;
};

}  // namespace pipesim
