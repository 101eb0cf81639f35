#include "config/presets.hpp"

namespace pipesim {

const EmbeddedPreset* find_preset(std::string_view name) {
  for (const auto& p : embedded_presets()) {
    if (p.name == name || p.path == name) return &p;
    // "accelerators/a100-80gb-sxm" and "a100-80gb-sxm.toml" also name it.
    const std::string_view rel = p.path.substr(std::string_view("configs/").size());
    if (rel == name ||
        (name.size() > 5 && name.substr(name.size() - 5) == ".toml" && name.substr(0, name.size() - 5) == p.name))
      return &p;
    if (rel.size() > 5 && rel.substr(0, rel.size() - 5) == name) return &p;
  }
  return nullptr;
}

// No snapshots: the tool that makes them and the layer linked alone load presets from their TOML.
// The build's snapshots, a strong definition, replace this one in the binary and the tests.
[[gnu::weak]] std::span<const PresetSnapshot> preset_snapshots() { return {}; }

const PresetSnapshot* find_snapshot(const EmbeddedPreset& p) {
  for (const auto& s : preset_snapshots())
    if (s.path == p.path) return &s;
  return nullptr;
}

std::string_view preset_description(const EmbeddedPreset& p) {
  constexpr std::string_view kKey = "description = \"";
  const auto pos = p.text.find(kKey);
  if (pos == std::string_view::npos) return {};
  const auto start = pos + kKey.size();
  const auto end = p.text.find('"', start);
  return end == std::string_view::npos ? std::string_view() : p.text.substr(start, end - start);
}

}  // namespace pipesim
