// Fuzzes pipesim attribute's inputs: a per-step log in every format (then its summary and both
// renderings), and the caching experiments' rates read from the input's first lines (then the
// attribution and its three renderings). Output must be finite and the JSON must parse.
#include <cstdint>
#include <string>

#include "config/steplog.hpp"
#include "core/analyses/attribute.hpp"
#include "exercise.hpp"
#include "report/attribution.hpp"

using namespace pipesim;

namespace {

void log_formats(const std::string& text) {
  for (StepLogFormat f : {StepLogFormat::Auto, StepLogFormat::JsonLines, StepLogFormat::Csv, StepLogFormat::Text}) {
    try {
      const StepLog log = parse_step_log(text, Origin::file("fuzz.log"), f);
      for (const std::size_t skip : {std::size_t{0}, std::size_t{1}}) {
        try {
          const StepLogSummary s = summarise_step_log(log.records, skip, 256.0);
          fuzz::expect_clean(step_log_table("fuzz.log", log, s), "table");
          fuzz::expect_clean(step_log_json("fuzz.log", log, s), "json");
        } catch (const Error&) {
        }
      }
    } catch (const Error&) {
    }
  }
}

void caching(const std::string& text) {
  CachingExperiments e;
  e.batch = 256;
  e.workers = static_cast<double>(text.size() % 9);
  std::size_t start = 0;
  for (std::size_t level = 0; level < kCacheLevels && start <= text.size(); ++level) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? text.size() + 1 : end + 1;
    try {
      if (!line.empty()) e.steps_per_s[level] = parse_step_rate(line, e.batch);
    } catch (const Error&) {
    }
  }
  try {
    const Attribution a = attribute(e);
    fuzz::expect_clean(attribution_table(a), "table");
    fuzz::expect_clean(attribution_toml(a), "toml");
    fuzz::expect_clean(attribution_json(a), "json");
  } catch (const Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  log_formats(text);
  caching(text);
  return 0;
}
