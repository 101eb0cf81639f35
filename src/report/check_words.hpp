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

}  // namespace pipesim
