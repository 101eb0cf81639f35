// Keys the user set that change nothing the diagnosis computes: named, with why, so that no
// verdict rests on a key that was ignored in silence.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/fields.hpp"

namespace pipesim {

struct Diagnosis;  // core/analyses/diagnosis.hpp, which holds UnusedKeys

struct UnusedKey {
  Field field{};
  std::string reason;  // why it acts on nothing here, and what would make it act
  std::string key;     // a key that is not a field (a scenario's `use`); empty: the field's
  Origin where;        // where that key was written (a field's place is the scenario's origins)
};
// The key as the user wrote it: `key`, else the field's dotted key.
std::string_view unused_key_name(const UnusedKey& u);

// Of `set_by_user` (keys the user's own files and --set gave; presets' stay quiet), each whose
// value, changed, changes no figure of diagnose(s): the step, utilization, every stage, the
// epochs, memory, cost, the capacity answers, the fixes and the loader's losses. A key is
// changed by doubling it (halving a share or a ratio; 0 becomes 1 of its unit), flipping a
// flag, or taking another choice; one whose change the model refuses counts as used. Empty
// when the scenario itself cannot be diagnosed.
std::vector<UnusedKey> unused_keys(const Scenario& s, std::span<const Field> set_by_user);
// The same, with diagnose_with_assumptions(s) already at hand.
std::vector<UnusedKey> unused_keys(const Scenario& s, const Diagnosis& d, std::span<const Field> set_by_user);

}  // namespace pipesim
