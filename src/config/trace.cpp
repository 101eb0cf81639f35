#include "config/trace.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <fmt/format.h>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/text.hpp"

namespace pipesim {

namespace {

// The file's bytes, decompressed where they are gzip (zlib reads plain files as they are), one
// at a time, with the line and column reached and a guard on a string's length: the parser
// keeps a whole string, so one longer than kMaxTraceString is refused before it is kept.
class Source {
 public:
  explicit Source(std::string path) : path_(std::move(path)) {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw Error(Origin::file(path_), fmt::format("cannot read the trace: {}", std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw Error(Origin::file(path_), "not a regular file: name the trace file torch.profiler wrote");
    }
    if (static_cast<std::size_t>(st.st_size) > kMaxTraceFileBytes) {
      ::close(fd);
      throw Error(Origin::file(path_),
                  fmt::format("{:.1f} GB, more than the {} GiB pipesim reads: record fewer steps "
                              "(torch.profiler.schedule(active=N)) or fewer events (record_shapes=False, "
                              "with_stack=False)",
                              static_cast<double>(st.st_size) / 1e9, kMaxTraceFileBytes >> 30));
    }
    file_ = gzdopen(fd, "rb");
    if (file_ == nullptr) {
      ::close(fd);
      throw Error(Origin::file(path_), "cannot read the trace");
    }
    gzbuffer(file_, 1 << 18);
  }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;
  ~Source() { gzclose(file_); }

  [[nodiscard]] Origin here() const { return Origin::file(path_, line_, column_); }
  [[nodiscard]] const std::string& path() const { return path_; }

  bool at_end() {
    if (pos_ < len_) return false;
    fill();
    return pos_ >= len_;
  }
  [[nodiscard]] char peek() const { return buf_[pos_]; }
  void advance() {
    const char c = buf_[pos_++];
    if (c == '\n') {
      ++line_;
      column_ = 0;
    }
    ++column_;
    if (in_string_) {
      if (c == '"' && !escaped_) {
        in_string_ = false;
      } else if (++string_ > kMaxTraceString) {
        throw Error(here(), fmt::format("a string of more than {} MiB: not a profiler trace", kMaxTraceString >> 20));
      }
      escaped_ = c == '\\' && !escaped_;
    } else if (c == '"') {
      in_string_ = true;
      escaped_ = false;
      string_ = 0;
    }
  }

 private:
  void fill() {
    const int n = gzread(file_, buf_.data(), static_cast<unsigned>(buf_.size()));
    if (n < 0) {
      int code = 0;
      const char* message = gzerror(file_, &code);
      throw Error(here(), fmt::format("cannot read the trace: {}", code == Z_ERRNO ? std::strerror(errno) : message));
    }
    pos_ = 0;
    len_ = static_cast<std::size_t>(n);
    total_ += len_;
    if (total_ > kMaxTraceBytes)
      throw Error(here(), fmt::format("decompresses to more than the {} GiB pipesim reads: record fewer steps",
                                      kMaxTraceBytes >> 30));
  }

  std::string path_;
  gzFile file_ = nullptr;
  std::vector<char> buf_ = std::vector<char>(std::size_t{1} << 18);
  std::size_t pos_ = 0, len_ = 0, total_ = 0;
  int line_ = 1, column_ = 1;
  bool in_string_ = false, escaped_ = false;
  std::size_t string_ = 0;
};

// The source as the parser reads it: an input iterator, and the null one as its end.
struct Cursor {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;

  Source* source = nullptr;

  char operator*() const { return source->peek(); }
  Cursor& operator++() {
    source->advance();
    return *this;
  }
  bool operator==(const Cursor& other) const {
    const bool done = source == nullptr || source->at_end();
    const bool other_done = other.source == nullptr || other.source->at_end();
    return done == other_done && (done || source == other.source);
  }
  bool operator!=(const Cursor& other) const { return !(*this == other); }
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The SAX handler: keeps the events that matter, each as it ends.
class Events final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit Events(Source& source) : source_(source) { trace_.path = source.path(); }

  RankTrace take() {
    if (!seen_events_)
      throw Error(Origin::file(source_.path()),
                  "not a profiler trace: no traceEvents (torch.profiler's export_chrome_trace and "
                  "tensorboard_trace_handler write an object with traceEvents, or an array of events)");
    return std::move(trace_);
  }

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
  bool number_float(number_float_t v, const string_t&) override { return number(v); }
  bool binary(binary_t&) override { return true; }
  bool string(string_t& v) override {
    if (in_event() && depth() == event_depth_ + 1) {
      if (key_ == "name") name_ = v;
      if (key_ == "ph") ph_ = v;
      if (key_ == "cat") cat_ = v;
    }
    return true;
  }
  bool key(string_t& k) override {
    if (depth() == 1 || (in_event() && (depth() == event_depth_ + 1 || in_args()))) key_ = k;
    return true;
  }
  bool start_object(std::size_t) override {
    if (events_ && depth() == event_depth_) {
      name_.clear(), ph_.clear(), cat_.clear();
      ts_ = dur_ = bytes_ = NAN;
      ++events_seen_;
    }
    if (in_event() && depth() == event_depth_ + 1 && key_ == "args") args_depth_ = depth() + 1;
    return push('{');
  }
  bool end_object() override {
    if (in_args() && depth() == args_depth_) args_depth_ = 0;
    stack_.pop_back();
    if (events_ && depth() == event_depth_) add();
    key_.clear();
    return true;
  }
  bool start_array(std::size_t) override {
    // The events: the root array, or the root object's traceEvents.
    if (!events_ && !seen_events_ && (depth() == 0 || (depth() == 1 && stack_[0] == '{' && key_ == "traceEvents"))) {
      events_ = true;
      seen_events_ = true;
      event_depth_ = depth() + 1;
    }
    return push('[');
  }
  bool end_array() override {
    stack_.pop_back();
    if (events_ && depth() + 1 == event_depth_) events_ = false;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
    std::string_view what = ex.what();
    if (const std::size_t colon = what.find(": "); colon != std::string_view::npos) what.remove_prefix(colon + 2);
    throw Error(source_.here(), fmt::format("not a profiler trace: {}", printable(what)));
  }

 private:
  static constexpr std::size_t kMaxDepth = 64;

  [[nodiscard]] std::size_t depth() const { return stack_.size(); }
  [[nodiscard]] bool in_event() const { return events_ && depth() > event_depth_; }
  [[nodiscard]] bool in_args() const { return args_depth_ != 0 && depth() >= args_depth_; }
  bool push(char c) {
    if (stack_.size() >= kMaxDepth)
      throw Error(source_.here(), fmt::format("nested more than {} deep: not a profiler trace", kMaxDepth));
    stack_.push_back(c);
    return true;
  }
  bool number(double v) {
    if (in_event() && depth() == event_depth_ + 1) {
      if (key_ == "ts") ts_ = v;
      if (key_ == "dur") dur_ = v;
    }
    if (in_args() && depth() == args_depth_ && key_ == "bytes") bytes_ = v;
    return true;
  }
  // The event that just ended: a complete event ("ph": "X") of a kind that matters.
  void add() {
    if (ph_ != "X") return;
    const std::string cat = lower(cat_);
    enum { Step, Loader, Copy, Kernel, Other } kind = Other;
    if (name_.starts_with("ProfilerStep#") && cat != "gpu_user_annotation")
      kind = Step;
    else if (name_.starts_with("enumerate(DataLoader)#") && name_.find("__next__") != std::string::npos)
      kind = Loader;
    else if (cat == "kernel")
      kind = Kernel;
    else if ((cat == "gpu_memcpy" || cat == "memcpy") && name_.find("HtoD") != std::string::npos)
      kind = Copy;
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "memcpy" || cat == "gpu_memset" || cat == "memset")
      trace_.device_events = true;
    if (kind == Other) return;
    // Kineto's ts counts microseconds since the Unix epoch (1.7e15 in 2024); the bounds refuse
    // only what no clock writes: a start past the year 5000, a span of more than 11 days.
    if (!std::isfinite(ts_) || !std::isfinite(dur_) || dur_ < 0 || std::fabs(ts_) > 1e17 || dur_ > 1e12)
      throw Error(source_.here(),
                  fmt::format("event {} ({}) has no valid ts and dur in microseconds", events_seen_, echo(name_)));
    if (++spans_ > kMaxTraceSpans)
      throw Error(source_.here(),
                  fmt::format("more than {} steps, loader spans, copies and kernels: record fewer steps "
                              "(torch.profiler.schedule(active=N))",
                              kMaxTraceSpans));
    // Seconds from the file's first span that matters: epoch microseconds taken to seconds as they
    // are would keep a quarter of a microsecond at best, a tenth of a short kernel.
    if (std::isnan(origin_)) origin_ = ts_;
    const double start = (ts_ - origin_) * 1e-6, end = (ts_ - origin_ + dur_) * 1e-6;
    switch (kind) {
      case Step:
        trace_.steps.push_back({start, end});
        break;
      case Loader:
        trace_.loader.push_back({start, end});
        break;
      case Copy:
        trace_.copies.push_back({start, end, std::isfinite(bytes_) && bytes_ > 0 ? bytes_ : 0});
        break;
      case Kernel:
        trace_.kernels.push_back({start, end});
        break;
      case Other:
        break;
    }
  }

  Source& source_;
  RankTrace trace_;
  std::vector<char> stack_;
  bool events_ = false, seen_events_ = false;
  std::size_t event_depth_ = 0, args_depth_ = 0, events_seen_ = 0, spans_ = 0;
  std::string key_, name_, ph_, cat_;
  double ts_ = NAN, dur_ = NAN, bytes_ = NAN;
  double origin_ = NAN;  // the first span's ts, microseconds
};

}  // namespace

RankTrace read_profiler_trace(const std::string& path) {
  Source source(path);
  Events events(source);
  Cursor first{&source}, last{};
  if (first == last) throw Error(Origin::file(path), "the trace is empty");
  nlohmann::json::sax_parse(first, last, &events);
  return events.take();
}

void set_from(LoadedScenario& s, std::string_view key, const std::string& value, const Origin& origin) {
  apply_assignment(s, fmt::format("{}={}", key, value));
  s.origins[static_cast<std::size_t>(find_field(key)->field)] = origin;
}

void set_trace_keys(LoadedScenario& s, const TraceKeys& k, double batch, const Origin& from) {
  set_from(s, "model.measured_per_sample", fmt::format("{:.9g} s", k.compute_s / batch), from);
  set_from(s, "model.measured_overhead", "0 s", from);
  set_from(s, "pipeline.loop_overhead", fmt::format("{:.9g} s", k.loop_overhead_s), from);
  set_from(s, "pipeline.receive_time", "0 s", from);
  set_from(s, "pipeline.receive_time_per_sample", "0 s", from);
  if (k.link_bytes_per_s && k.device_sample_bytes) {
    set_from(s, "workload.device_sample_size", fmt::format("{:.9g} B", *k.device_sample_bytes), from);
    set_from(s, "link.bandwidth", fmt::format("{:.9g} B/s", *k.link_bytes_per_s), from);
  }
}

}  // namespace pipesim
