#include "cli/sweep_rows.hpp"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace pipesim {

namespace {

// Rows that carry no diagnosis allocate little (into reused buffers): on several threads, one
// malloc arena for all keeps a sweep's peak memory near that of a single diagnosis (glibc's
// default, an arena per thread, measured 1.17x the peak of one diagnosis against 1.10x with one).
// Rows that carry one allocate its words, and there two threads on one arena were slower than
// one (1,000,000 JSON rows: 1.71 s against 1.63 s), so each keeps its own. The allocator is the
// program's to tune, not the model's.
void limit_malloc_arenas(const SweepRun& run) {
  if (run.jobs > 1 && !run.diagnose) mallopt(M_ARENA_MAX, 1);
}

}  // namespace

SweepSummary write_sweep(SweepRenderer& renderer, std::FILE* file, const Scenario& base, const std::vector<Axis>& axes,
                         const SweepLayout& layout, const SweepRun& run, std::FILE* progress, SweepGather* gather,
                         SweepCopy* copy) {
  const std::size_t total = grid_size(axes);
  renderer.begin(layout);
  const SweepRenderer& rows = renderer;
  // The copy's rows, one text per point (a copied sweep is one a plot draws: at most
  // kMaxPlotPoints), joined in order at the end.
  std::vector<std::string> copies;
  if (copy != nullptr) {
    copy->renderer.begin(layout);
    copies.resize(total);
  }
  Out out(file);
  // A progress line for people (on a terminal's stderr): at the start, then at most every 0.2 s,
  // erased at the end so that it leaves nothing behind.
  auto shown = std::chrono::steady_clock::now();
  const auto show = [&](std::size_t done) {
    if (progress == nullptr) return;
    fmt::print(progress, "\rsweep: {} of {} points ({:.0f}%)\x1b[K", group_thousands(std::to_string(done)),
               group_thousands(std::to_string(total)), 100.0 * static_cast<double>(done) / static_cast<double>(total));
    std::fflush(progress);
  };
  show(0);
  limit_malloc_arenas(run);
  const SweepSummary summary = run_sweep(
      base, axes, run,
      [&](std::size_t i, const SweepPoint& p, std::string& text) {
        if (gather != nullptr) gather->add(i, p);
        if (copy != nullptr) {
          Out copied(copies[i]);
          copy->renderer.row(copied, layout, p, i == 0);
        }
        Out o(text);
        rows.row(o, layout, p, i == 0);
      },
      [&](const std::string& text, std::size_t done) {
        out.write(text);
        if (progress != nullptr && std::chrono::steady_clock::now() - shown > std::chrono::milliseconds(200)) {
          out.flush();  // the rows before the line that says they are done
          shown = std::chrono::steady_clock::now();
          show(done);
        }
      });
  if (progress != nullptr) {
    fmt::print(progress, "\r\x1b[K");
    std::fflush(progress);
  }
  rows.end(out, layout, summary);
  if (copy != nullptr) {
    Out copied(copy->text);
    for (const std::string& text : copies) copied.write(text);
    copy->renderer.end(copied, layout, summary);
  }
  return summary;
}

}  // namespace pipesim
