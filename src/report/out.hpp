// Output is buffered and written to a FILE* in large chunks, or collected in a string.
#pragma once

#include <fmt/compile.h>
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/base/units.hpp"

namespace pipesim {

// Throws Error "cannot write standard output: <reason>" (or "the output") after a failed write.
[[noreturn]] void fail_write(std::FILE* file);

class Out {
 public:
  // Buffered writes to a file, in chunks of about 64 KiB.
  explicit Out(std::FILE* f) : file_(f), buf_(&own_) { own_.reserve(kChunk + 4096); }
  // Appends to a string, directly.
  explicit Out(std::string& s) : buf_(&s) {}
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;
  // A write that failed before is reported by the next flush(); the destructor cannot report it
  // (the command's final flush did, or the error that unwound past it is reported instead).
  ~Out() {
    try {
      flush();
    } catch (...) {
    }
  }
  template <class... Args>
  void print(fmt::format_string<Args...> f, Args&&... args) {
    fmt::format_to(std::back_inserter(*buf_), f, std::forward<Args>(args)...);
    maybe_flush();
  }
  void write(std::string_view s) {
    // A piece larger than a chunk (a sweep's block of rows) goes to the file as it is: copying it
    // into the buffer first cost a second pass over every byte of a JSON sweep.
    if (file_ && s.size() >= kChunk) {
      flush();
      put_file(s);
      return;
    }
    // What is buffered goes first when the piece would not fit: the buffer never grows (a sweep's
    // 10 KB blocks of CSV rows had doubled it to 72 KiB).
    if (file_ && own_.size() + s.size() > own_.capacity()) flush();
    buf_->append(s);
    maybe_flush();
  }
  void put(char c) { buf_->push_back(c); }
  // A number in shortest round-trip form, exactly as fmt's "{}" writes it (the format string is
  // compiled: this is the hot path of every CSV and JSON sweep).
  void num(double v) {
    char digits[kNumberMax];
    buf_->append(digits, static_cast<std::size_t>(number(v, digits) - digits));
  }
  // The most characters number() writes (a shortest double takes at most 24).
  static constexpr std::size_t kNumberMax = 32;
  // Writes v as num() does at p and returns the end.
  static char* number(double v, char* p) {
    // Whole numbers below 1e15 (counts, bytes, most inputs) print as fmt prints them, all their
    // digits, without the search for the shortest decimal; -0 keeps its sign the slow way.
    if (plain_integer(v)) return fmt::format_to(p, FMT_COMPILE("{}"), static_cast<long long>(v));
    return fmt::format_to(p, FMT_COMPILE("{}"), v);
  }
  // Bytes written by a writer that gathered them on the stack (a JSON member in one piece).
  void append(const char* p, std::size_t n) { buf_->append(p, n); }
  // Writes what is buffered; throws Error ("cannot write standard output: No space left on
  // device") when the file refuses it, so a long sweep stops at its first lost byte.
  void flush() {
    if (!file_) return;
    if (!own_.empty()) put_file(own_);
    own_.clear();
    if (std::fflush(file_) != 0) fail_write(file_);
  }

 private:
  static constexpr std::size_t kChunk = 1u << 15;
  void put_file(std::string_view s) {
    if (std::fwrite(s.data(), 1, s.size(), file_) != s.size()) fail_write(file_);
  }
  void maybe_flush() {
    if (file_ && own_.size() > kChunk) flush();
  }
  std::FILE* file_ = nullptr;
  std::string own_;
  std::string* buf_;
};

}  // namespace pipesim
