#include "cli/sweep_rows.hpp"

#include <malloc.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>

#include "util/ordered_chunks.hpp"

namespace pipesim {

SweepSummary write_sweep(SweepRenderer& renderer, std::FILE* file, const Scenario& base, const std::vector<Axis>& axes,
                         const SweepLayout& layout, unsigned jobs, const SimOptions* simulate, std::FILE* progress,
                         SweepGather* gather, SweepCopy* copy) {
  const std::size_t total = grid_size(axes);
  const bool diagnose_points = renderer.recommendations();
  // Chunks small enough that the few held at once stay far below the process's own footprint.
  const std::size_t chunk = simulate ? 1 : diagnose_points ? 64 : 128;
  const std::size_t chunks = (total + chunk - 1) / chunk;
  // Rows without recommendations allocate little (they go into reused buffers): one malloc arena
  // for every thread keeps a sweep's peak memory near that of a single diagnosis (glibc's default,
  // an arena per thread, measured 1.17x that of diagnose against 1.10x with one). Rows that carry a
  // diagnosis allocate its words: there the threads contend for one arena, and two threads were
  // slower than one (1,000,000 JSON rows: 1.71 s against 1.63 s), so each keeps its own.
  if (jobs > 1 && !diagnose_points) mallopt(M_ARENA_MAX, 1);
  renderer.begin(layout);
  const SweepRenderer& rows = renderer;
  // The copy's rows, a text per chunk (each chunk writes only its own), joined in order at the end.
  std::vector<std::string> copies;
  if (copy != nullptr) {
    copy->renderer.begin(layout);
    copies.resize(chunks);
  }
  Out out(file);
  SweepSummary summary;
  std::mutex m;  // guards summary: taken only at invalid points
  // A progress line for people (on a terminal's stderr): at the start, then at most every 0.2 s,
  // erased at the end so that it leaves nothing behind.
  std::size_t done = 0;
  auto shown = std::chrono::steady_clock::now();
  const auto show = [&] {
    if (progress == nullptr) return;
    fmt::print(progress, "\rsweep: {} of {} points ({:.0f}%)\x1b[K", group_thousands(std::to_string(done)),
               group_thousands(std::to_string(total)), 100.0 * static_cast<double>(done) / static_cast<double>(total));
    std::fflush(progress);
  };
  show();
  // A memo of the fixes run (rows with recommendations) for each thread at work, made before the
  // first row: a chunk takes one that is free and gives it back, so what one chunk ran serves
  // the next.
  std::vector<std::unique_ptr<FixMemo>> memos;
  if (diagnose_points) {
    const std::vector<Field> varying = axis_fields(axes);
    for (unsigned t = 0; t < std::max(jobs, 1u); ++t) memos.push_back(std::make_unique<FixMemo>(varying));
  }
  std::mutex memos_m;
  const auto take_memo = [&]() -> std::unique_ptr<FixMemo> {
    std::lock_guard lock(memos_m);
    if (memos.empty()) return nullptr;
    auto memo = std::move(memos.back());
    memos.pop_back();
    return memo;
  };
  const auto give_memo = [&](std::unique_ptr<FixMemo> memo) {
    if (!memo) return;
    std::lock_guard lock(memos_m);
    memos.push_back(std::move(memo));
  };
  ordered_chunks(
      chunks, jobs,
      [&](std::size_t c, std::string& text) {
        Out o(text);
        std::optional<Out> copied;
        if (copy != nullptr) copied.emplace(copies[c]);
        std::unique_ptr<FixMemo> memo = take_memo();
        const std::size_t begin = c * chunk;
        std::size_t i = begin;
        sweep(
            base, axes, begin, std::min(total, begin + chunk), diagnose_points,
            [&](const SweepPoint& p) {
              if (!p.invalid.empty()) {
                std::lock_guard lock(m);
                if (summary.invalid++ == 0 || i < summary.first_invalid) {
                  summary.first_invalid = i;
                  summary.first_point = point_label(axes, p.scenario);
                  summary.first_reason = std::string(p.invalid);
                }
              }
              if (gather != nullptr) gather->add(i, p);
              if (copied) copy->renderer.row(*copied, layout, p, i == 0);
              rows.row(o, layout, p, i++ == 0);
            },
            simulate, memo.get());
        give_memo(std::move(memo));
      },
      [&](const std::string& text) {
        out.write(text);
        done = std::min(total, done + chunk);
        if (progress != nullptr && std::chrono::steady_clock::now() - shown > std::chrono::milliseconds(200)) {
          out.flush();  // the rows before the line that says they are done
          shown = std::chrono::steady_clock::now();
          show();
        }
      });
  if (progress != nullptr) {
    fmt::print(progress, "\r\x1b[K");
    std::fflush(progress);
  }
  rows.end(out, layout, total);
  if (copy != nullptr) {
    Out copied(copy->text);
    for (const std::string& text : copies) copied.write(text);
    copy->renderer.end(copied, layout, total);
  }
  return summary;
}

}  // namespace pipesim
