// Embedded presets: each snapshot taken at build time is what the loader reads from its TOML.
#include <doctest/doctest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "config/loader.hpp"
#include "config/presets.hpp"

using namespace pipesim;

TEST_CASE("every preset snapshot equals a fresh load of the preset's TOML") {
  std::size_t snapshots = 0;
  for (const auto& p : embedded_presets()) {
    CAPTURE(p.path);
    const LoadedScenario fresh = load_scenario_text(p.text, Origin::preset(std::string(p.path)), "");
    const PresetSnapshot* snap = find_snapshot(p);
    // Plans carry requirements, a model with steps per accelerator picks one when it is loaded,
    // and its steps at several batch sizes and what its figures were measured for are no field
    // values: none is snapshotted.
    CHECK((snap == nullptr) == !snapshot_holds(fresh));
    if (!snap) continue;
    ++snapshots;
    // load_scenario uses the snapshot; the name falls back to the argument when unset.
    const LoadedScenario loaded = load_scenario(p.name);
    CHECK(loaded.name == (fresh.name.empty() ? std::string(p.name) : fresh.name));
    CHECK(loaded.description == fresh.description);
    CHECK(loaded.source.same_source(fresh.source));
    for (const auto& f : all_fields()) {
      CAPTURE(f.key);
      CHECK(loaded.scenario.has(f.field) == fresh.scenario.has(f.field));
      if (!fresh.scenario.has(f.field)) continue;
      CHECK(loaded.scenario.get(f.field) == fresh.scenario.get(f.field));  // exact: hexadecimal floats
      CHECK(loaded.scenario.dim(f.field) == fresh.scenario.dim(f.field));
      CHECK(loaded.origins[static_cast<std::size_t>(f.field)].str() ==
            fresh.origins[static_cast<std::size_t>(f.field)].str());
    }
  }
  CHECK(snapshots >= 30);  // every preset of plain values: the nodes, storage, most accelerators
}

TEST_CASE("accelerator.type names exactly the accelerator presets, each its own") {
  std::vector<std::string_view> presets;
  for (const auto& p : embedded_presets()) {
    if (std::string_view(p.path).find("accelerators/") == std::string_view::npos) continue;
    CAPTURE(p.path);
    presets.push_back(p.name);
    const LoadedScenario loaded = load_scenario(p.name);
    REQUIRE(loaded.scenario.has(Field::AcceleratorType));
    CHECK(choice_name(spec(Field::AcceleratorType), loaded.scenario.get(Field::AcceleratorType)) == p.name);
  }
  std::sort(presets.begin(), presets.end());
  std::vector<std::string_view> names(accelerator_names().begin(), accelerator_names().end());
  CHECK(names.back() == "other");
  names.pop_back();
  CHECK(names == presets);
}
