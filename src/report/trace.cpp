#include "report/trace.hpp"

#include <fmt/format.h>
#include <set>
#include <utility>

#include "report/json_writer.hpp"

namespace pipesim {

namespace {

// Thread ids: the accelerator and the loop first, the workers last, as a profiler lists them.
std::uint32_t thread_id(Track t, std::uint32_t worker) {
  switch (t) {
    case Track::Accelerator:
      return 1;
    case Track::Loop:
      return 2;
    case Track::PinThread:
      return 3;
    case Track::Link:
      return 4;
    case Track::Storage:
      return 5;
    case Track::Decoder:
      return 6;
    case Track::Worker:
      break;
  }
  return 10 + worker;
}

void metadata(JsonWriter& j, std::string_view what, std::uint32_t pid, std::uint32_t tid, const std::string& name) {
  j.object().kv_str("name", what).kv_str("ph", "M").kv("pid", pid).kv("tid", tid);
  j.key("args").object().kv_str("name", name).end();
  j.end();
}

}  // namespace

std::string chrome_trace(const Simulation& s, std::string_view scenario_name) {
  std::string text;
  {
    Out o(text);
    JsonWriter j(o);
    j.object().key("traceEvents").array(true);
    std::set<std::pair<std::uint32_t, std::uint32_t>> threads;  // (pid, tid) named once
    std::set<std::uint32_t> processes;
    for (const Span& sp : s.spans) {
      const std::uint32_t pid = sp.rank + 1, tid = thread_id(sp.track, sp.worker);
      if (processes.insert(pid).second)
        metadata(j, "process_name", pid, 0, fmt::format("{}: accelerator {}", scenario_name, sp.rank));
      if (threads.insert({pid, tid}).second) {
        const std::string name =
            sp.track == Track::Worker ? fmt::format("worker {}", sp.worker) : std::string(track_name(sp.track));
        metadata(j, "thread_name", pid, tid, name);
        j.object().kv_str("name", "thread_sort_index").kv_str("ph", "M").kv("pid", pid).kv("tid", tid);
        j.key("args").object().kv("sort_index", tid).end();
        j.end();
      }
      j.object()
          .kv_str("name", fmt::format("{} {}", phase_name(sp.phase), sp.batch))
          .kv_str("cat", phase_name(sp.phase))
          .kv_str("ph", "X")
          .kv("ts", sp.start_s * 1e6)
          .kv("dur", (sp.end_s - sp.start_s) * 1e6)
          .kv("pid", pid)
          .kv("tid", tid);
      j.key("args").object().kv(sp.track == Track::Loop || sp.track == Track::Accelerator ? "step" : "batch",
                                static_cast<double>(sp.batch));
      j.end().end();
    }
    j.end().kv_str("displayTimeUnit", "ms").end().finish();
  }
  return text;
}

}  // namespace pipesim
