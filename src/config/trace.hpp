// Reading a PyTorch profiler trace for `pipesim attribute trace`: Chrome trace-event JSON as
// torch.profiler writes it (an object with `traceEvents`, as Kineto writes, or a bare array of
// events, as torch's CPU profiler of Debian's torch 1.13 writes), plain or gzip-compressed,
// read as a stream: only the steps, the DataLoader's spans, the host-to-device copies and the
// kernels are kept, so memory follows those and not the file. Bad input is one Error at
// file:line:col.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "config/loader.hpp"
#include "core/analyses/trace.hpp"

namespace pipesim {

// The largest trace read (on disk), the most it may decompress to, and the most spans kept.
inline constexpr std::size_t kMaxTraceFileBytes = std::size_t{4} << 30;
inline constexpr std::size_t kMaxTraceBytes = std::size_t{32} << 30;
inline constexpr std::size_t kMaxTraceSpans = 20'000'000;
// The longest string a trace may hold (a kernel's name runs to a few kB).
inline constexpr std::size_t kMaxTraceString = std::size_t{1} << 20;

// Reads the trace at `path` (.json or .json.gz; gzip is recognised by its bytes).
RankTrace read_profiler_trace(const std::string& path);

// Sets `key` to `value` on `s` as --set would, with `origin` as where it came from.
void set_from(LoadedScenario& s, std::string_view key, const std::string& value, const Origin& origin);

// The keys that make `s` reproduce a trace, from trace_keys at `batch`, each from `from`: the
// compute per sample and no fixed part, the loop's own time, no receive of its own (the
// DataLoader's spans hold it), and the link and the bytes copied when the trace has copies.
void set_trace_keys(LoadedScenario& s, const TraceKeys& k, double batch, const Origin& from);

}  // namespace pipesim
