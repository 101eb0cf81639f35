// A plan check in words: each requirement's outcome and the verdict.
#pragma once

#include <string>
#include <string_view>

#include "core/analyses/check.hpp"
#include "report/words.hpp"

namespace pipesim {

// One requirement's outcome in words: key, the value reached, what was required, and where
// (the batch size) when the plan covers a range of batch sizes.
struct OutcomeLine {
  std::string key, reached, required, where;
};
OutcomeLine outcome_line(const Outcome& o, bool ranged);
// "PASS", "FAIL" or "UNVERIFIED"; for programs (JSON, CSV) "pass", "fail" or "unverified".
std::string_view verdict_word(Verdict v);
std::string_view verdict_key(Verdict v);
// "PASS (3 of 3 requirements met)", "FAIL (1 of 3 requirements failed)" or "UNVERIFIED (1 of 3
// requirements not verified: ...)".
std::string verdict(const PlanOutcome& o);
// The requirements a point misses, for a sweep's row: "fails min_utilization 87.8% (needs
// >= 90%), max_cost_per_epoch $0.71 (needs <= $0.50)", then "not verified: ..." by key.
std::string unmet_text(const PlanOutcome& o);
// What a rank is ranked by, for people: "$2,310 for the run", "an epoch in 116.5 s"; and
// the word for the first: "cheapest" or "fastest".
std::string rank_text(const Rank& r);
std::string_view rank_word(const Rank& r);
// For programs: the figure's key, "run_cost_usd", "epoch_time_s", ...
std::string_view rank_key(RankBy by);

}  // namespace pipesim
