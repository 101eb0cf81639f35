// A diagnosis in words: the binding wall, each fix, the knee, the loader's losses, capacity.
// Shared by every format (JSON carries the fix sentences as "text").
#pragma once

#include <string>
#include <string_view>

#include "core/analyses/diagnosis.hpp"
#include "report/words.hpp"

namespace pipesim {

bool has_fix(const Diagnosis& d, FixKind k);
// "Knee: 42 workers per accelerator deliver 95% of what compute needs; ..."
std::string knee_sentence(const Diagnosis& d);
// "Near the CPUs: ..." when the workers and the training process leave less than a CPU free; empty
// otherwise.
std::string beside_training_sentence(const Diagnosis& d);
// "Loader losses: the loop's own time costs 12.3 points (utilization 81.0% without it), ...;
// the largest: ... and what recovers it." Needs d.losses non-empty.
std::string losses_sentence(const Diagnosis& d);
// The binding wall in words, with the figures that make it bind.
std::string wall_sentence(const Diagnosis& d);
// One sentence per fix: what to change, and what it buys.
std::string describe_fix(const Diagnosis& d, const Fix& fix);
// The same sentence appended to out (a sweep's rows reuse one buffer).
void append_fix(std::string& out, const Diagnosis& d, const Fix& fix);
// When later epochs find what the first read cached: "after the first epoch", or with several
// nodes reshuffling "once each node's page cache is warm (within 1% from epoch 18)".
std::string warm_epochs(const Result& r);
// What the storage needs to keep up (its read bandwidth, and its IOPS, requests in flight and a
// node's cap where the model has them): "2.27 GB/s read bandwidth and 31,097 IOPS"; and what it
// has of the same: "7.45 GB/s, 1,400,000 IOPS".
std::string storage_needs_text(const Diagnosis& d, const StorageNeeds& n);
std::string storage_has_text(const Diagnosis& d, const StorageNeeds& n);
std::string storage_capacity_text(const Diagnosis& d);
std::string cores_text(const Diagnosis& d);

}  // namespace pipesim
