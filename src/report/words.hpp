// Words for people: figures with units chosen for reading, stages and walls by name, what a
// compared figure and a plan's compute are. The sentences of a diagnosis, a check and a
// simulation are in diagnosis_words.hpp, check_words.hpp and simulation_words.hpp. Formats
// only: every number comes from the core's results.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/analyses/compare.hpp"
#include "core/stages/model.hpp"
#include "report/figures.hpp"

namespace pipesim {

// A name, file name or other text from the user as a report shows it: printable(), and in
// Markdown (md) with the characters that would make it markup or raw HTML backslash-escaped
// (\ ` * _ [ ] < > & ~ #; a '|' in a table cell is the table's to escape).
std::string shown(std::string_view text, bool md);
std::string dur(double seconds);                    // "11.74 ms"
std::string rate(double bytes_per_s);               // "10.90 GB/s"
std::string samples(double per_s);                  // "4,000 samples/s", "156.3 samples/s"
std::string count(double n);                        // "44", "1,281,167"
std::string batch_span(double first, double last);  // "batches 128-256", "batch 256"
std::string percent(double ratio);                  // "18.3%"
// The same texts appended to out (sentences written in sweeps, without a string each).
void append_samples(std::string& out, double per_s);
void append_count(std::string& out, double n);
void append_percent(std::string& out, double ratio);
// One compared figure as the compare table shows it: "11,000 samples/s", "55.7%", "$0.71".
std::string compare_value_text(CompareMetric m, double v);
// Where a plan's compute time comes from: "measured on a100-80gb-sxm", "measured",
// "fixed step (emulated)" (a step time alone, as MLPerf Storage's DLIO sleeps), "roofline
// (FLOP rate)", "roofline (weights)"; "-" when compute is not modelled.
std::string compute_source(const Scenario& s, const Result& r);
// A ratio for people (a compared value over the best, a slowdown), four significant digits: "0.2734x".
std::string ratio_text(double ratio);
// A figure of the registry as people read it, by its unit: "11.74 ms", "18.3%", "1.060x",
// "transform+compute", "$32.77/h"; a flag "yes" or "no", a limit by its key.
std::string figure_text(FigureUnit unit, double v);
std::string plural(double n, std::string_view one, std::string_view many);  // "1 worker", "8 workers"
std::string cpus(double n);                                                 // "1 CPU", "1.5 CPUs", "96 CPUs"

// The stages of `bits` in stage order, each as name(stage), joined by `separator`.
template <class Name>
std::string stage_list(unsigned bits, std::string_view separator, const Name& name) {
  std::string out;
  for (Stage s : kStages)
    if (bits & stage_bit(s)) {
      if (!out.empty()) out += separator;
      out += name(s);
    }
  return out;
}

// Items as said: "1", "1 and 2", "1, 2 and 4" (`last` joins the last two: ", and " where the
// items are clauses).
template <class T, class Get>
std::string spoken_list(const std::vector<T>& items, Get get, std::string_view last = " and ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : (i + 1 == items.size() ? last : ", "), get(items[i]));
  return out;
}

// Binding stages (bit per Stage) joined: "transform", "transform+compute".
std::string walls_text(unsigned binding, std::string_view separator = "+");
std::string binding_text(const Result& r);

// "storage fetch, host-to-device transfer": the stages not modelled.
std::string unmodelled_list(const Result& r);
// The keys that model a stage, as one says them: "link.bandwidth with workload.device_sample_size".
std::string keys_text(const std::vector<Field>& keys);
// "Utilization 97.4% is an upper bound: not modelled, and each could bind: storage fetch
// (storage.read_bandwidth)."
std::string upper_bound_sentence(const Result& r);
}  // namespace pipesim
