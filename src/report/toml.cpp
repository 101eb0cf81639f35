// TOML: the fragments a scenario can `use`, from calibrate's measurements and attribute's
// solutions. It writes no other result.
#include "core/base/error.hpp"
#include "report/output.hpp"

namespace pipesim {

std::vector<Writer> toml_writers() {
  return {
      writer<AttributionReport>(
          [](Out& o, const AttributionReport& r, std::size_t) { o.write(attribution_toml(r.attribution)); }),
      writer<SolutionReport>(
          [](Out& o, const SolutionReport& r, std::size_t) { o.write(solution_toml(r.loaded, r.solution)); }),
      writer<TraceReport>([](Out& o, const TraceReport& r, std::size_t) {
        if (r.loaded == nullptr || r.solution == nullptr) throw Error("internal: a trace's scenario was not solved");
        o.write(trace_toml(r.summary, *r.loaded, *r.solution));
      }),
      writer<DecodeReport>([](Out& o, const DecodeReport& r, std::size_t) { o.write(decode_toml(r.calibration)); }),
      writer<StorageReport>([](Out& o, const StorageReport& r, std::size_t) { o.write(storage_toml(r.calibration)); }),
      writer<MemoryReport>([](Out& o, const MemoryReport& r, std::size_t) { o.write(memory_toml(r.calibration)); }),
      writer<LoopReport>([](Out& o, const LoopReport& r, std::size_t) { o.write(loop_toml(r.calibration)); }),
  };
}

}  // namespace pipesim
