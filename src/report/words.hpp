// Words for people: figures with units chosen for reading, the binding wall in a sentence,
// each fix as a sentence, and the capacity answers. Shared by every format (JSON carries the
// fix sentences as "text"). Formats only: every number comes from the core's results.
#pragma once

#include <string>
#include <string_view>

#include "core/check.hpp"
#include "core/compare.hpp"
#include "core/diagnosis.hpp"
#include "core/simulate.hpp"

namespace pipesim {

std::string dur(double seconds);       // "11.74 ms"
std::string rate(double bytes_per_s);  // "10.90 GB/s"
std::string samples(double per_s);     // "4,000 samples/s", "156.3 samples/s"
std::string count(double n);           // "44", "1,281,167"
std::string percent(double ratio);     // "18.3%"
// One compared figure as the compare table shows it: "11,000 samples/s", "55.7%", "$0.71".
std::string compare_value_text(CompareMetric m, double v);
// Where a plan's compute time comes from: "measured on a100-80gb-sxm", "measured",
// "fixed step (emulated)" (a step time alone, as MLPerf Storage's DLIO sleeps), "roofline
// (FLOP rate)", "roofline (weights)"; "-" when compute is not modelled.
std::string compute_source(const Scenario& s, const Result& r);
// A compared value over the best, for people: "0.273x".
std::string ratio_text(double ratio);
std::string plural(double n, std::string_view one, std::string_view many);  // "1 worker", "8 workers"

// Binding stages (bit per Stage) joined: "transform", "transform+compute".
std::string walls_text(unsigned binding, std::string_view separator = "+");
std::string binding_text(const Result& r);

bool has_fix(const Diagnosis& d, FixKind k);
// "storage fetch, host-to-device transfer": the stages not modelled.
std::string unmodelled_list(const Result& r);
// "Utilization 97.4% is an upper bound: not modelled, and each could bind: storage fetch
// (storage.read_bandwidth)."
std::string upper_bound_sentence(const Result& r);
// "Knee: 42 workers per accelerator deliver 95% of what compute needs; ..."
std::string knee_sentence(const Diagnosis& d);
// "Loader losses: the loop's own time costs 12.3 points (utilization 81.0% without it), ...;
// the largest: ... and what recovers it." Needs d.losses non-empty.
std::string losses_sentence(const Diagnosis& d);
// The binding wall in words, with the figures that make it bind.
std::string wall_sentence(const Diagnosis& d);
// One sentence per fix: what to change, and what it buys.
std::string describe_fix(const Diagnosis& d, const Fix& fix);
std::string storage_capacity_text(const Diagnosis& d);
std::string cores_text(const Diagnosis& d);

// Why the loop waited, for people: "workers", "prefetch window", "ready (not held up)".
std::string_view cause_words(Cause c);

// One requirement's outcome in words: key, the value reached, what was required, and where
// (the batch size) when the plan covers a range of batch sizes.
struct OutcomeLine {
  std::string key, reached, required, where;
};
OutcomeLine outcome_line(const Outcome& o, bool ranged);
// "PASS (3 of 3 requirements met)" or "FAIL (1 of 3 requirements failed)".
std::string verdict(const PlanOutcome& o);

}  // namespace pipesim
