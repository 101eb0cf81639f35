// Linked into tools/snapshot_presets only: the tool that makes the snapshots has none.
#include "config/presets.hpp"

namespace pipesim {

std::span<const PresetSnapshot> preset_snapshots() { return {}; }

}  // namespace pipesim
