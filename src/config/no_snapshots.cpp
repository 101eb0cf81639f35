// Linked into tools/snapshot_presets only: the tool that makes the snapshots has none.
#include "config/presets.hpp"
#include "core/base/fields.hpp"

namespace pipesim {

std::span<const PresetSnapshot> preset_snapshots() { return {}; }
std::span<const double> default_values_snapshot() { return {}; }

}  // namespace pipesim
