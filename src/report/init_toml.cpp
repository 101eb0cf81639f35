#include "report/init_toml.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <array>

#include "core/base/fields.hpp"
#include "report/attribution.hpp"

namespace pipesim {

namespace {

// The preset an origin names (configs/storage/nvme-gen4.toml is nvme-gen4).
std::string origin_preset(const Origin& o) {
  std::string_view s = o.source;
  const std::size_t slash = s.rfind('/');
  if (slash != std::string_view::npos) s.remove_prefix(slash + 1);
  if (s.ends_with(".toml")) s.remove_suffix(5);
  return std::string(s);
}

// A key that a pair of keys can replace, and which both may not be set: init writes the
// key, naming the pair, unless the pair is set.
struct Instead {
  Field line;
  std::array<Field, 2> pair;
};
constexpr std::array kInstead = {Instead{Field::ReadBandwidth, {Field::StorageCapacity, Field::ThroughputPerTib}},
                                 Instead{Field::PricePerHour, {Field::PurchasePrice, Field::Amortization}}};

// What a plan's verdict often turns on that a default decides silently: shown as decide lines
// (with the default) unless a preset sets them.
constexpr std::array kTopology = {Field::AcceleratorCount, Field::Nodes, Field::ThreadsPerCore, Field::StorageScope};
// A decide line that would offer nothing to decide: a precision the preset's accelerator does
// not have (it sets the peaks it has), or a roofline input where the compute time is measured.
bool moot(const Scenario& s, Field f) {
  const auto fields = all_fields();
  const bool peaks_known = std::any_of(fields.begin(), fields.end(),
                                       [&](const FieldSpec& g) { return precision_peak(g.field) && s.has(g.field); });
  if (precision_peak(f) && peaks_known) return true;
  return s.step_measured() && roofline_input(f);
}

const Instead* instead_pair(Field f) {
  for (const Instead& i : kInstead)
    if (i.line == f || i.pair[0] == f || i.pair[1] == f) return &i;
  return nullptr;
}

}  // namespace

std::string init_toml(const std::vector<std::string>& presets, const LoadedScenario& loaded) {
  const Scenario& s = loaded.scenario;
  std::string t = fmt::format("# A pipesim scenario, written by `pipesim init{}{}` (pipesim {}).\n",
                              presets.empty() ? "" : " ", fmt::format("{}", fmt::join(presets, " ")), PIPESIM_VERSION);
  t += "# Lines marked \"from PRESET\" show what that preset sets (it applies as it is: uncomment a line to\n"
       "# change it).\n"
       "# Lines marked \"decide\" are yours to set: most have no default (a stage whose keys are unset\n"
       "# is left out, and the output says so); \"(default X)\" is what applies unless you set it.\n"
       "# `pipesim diagnose FILE` names what is still missing; `pipesim presets --keys` lists every key\n"
       "# with its default.\n";
  t += "name = \"my pipeline\"\n";
  if (!presets.empty()) {
    t += "use = [";
    for (std::size_t i = 0; i < presets.size(); ++i) t += fmt::format("{}\"{}\"", i ? ", " : "", presets[i]);
    t += "]\n";
  }
  std::string table;
  for (const FieldSpec& f : all_fields()) {
    const bool set = s.has(f.field);
    // A key another way of saying what is set already is not a decision (cpu.worker_sample_rate
    // when cpu.worker_throughput is set).
    bool said = false;
    for (Field g : alternatives(f.field)) said |= s.has(g);
    const bool topology = std::find(kTopology.begin(), kTopology.end(), f.field) != kTopology.end();
    if (!set && (said || (!f.default_text.empty() && !topology) || moot(s, f.field))) continue;
    const std::string_view key = f.key;
    const std::size_t dot = key.find('.');
    if (key.substr(0, dot) != table) {
      table = std::string(key.substr(0, dot));
      t += fmt::format("\n[{}]\n", table);
    }
    const std::string name(key.substr(dot + 1));
    if (set) {
      const std::string line = fmt::format("# {} = {}", name, toml_value(f, s.get(f.field), s.dim(f.field)));
      t += fmt::format("{:<40} # from {}: {}\n", line, origin_preset(loaded.origins[static_cast<std::size_t>(f.field)]),
                       f.help);
    } else {
      // One decide line per way of saying a thing, naming the other ways, so that every line
      // loads when uncommented: the first alternative in the registry's order, and the single
      // key a pair of keys can replace.
      if (const Instead* pair = instead_pair(f.field)) {
        const bool line = pair->line == f.field;
        if (line ? s.has(pair->pair[0]) || s.has(pair->pair[1])
                 : s.has(pair->line) || !(s.has(pair->pair[0]) || s.has(pair->pair[1])))
          continue;
      }
      std::string others;
      bool offered = false;
      for (Field g : alternatives(f.field)) {
        if (g == f.field || instead_pair(g)) continue;
        if (spec(g).default_text.empty() && g < f.field) offered = true;
        others += fmt::format("{}{}", others.empty() ? "" : " or ", spec(g).key);
      }
      if (offered) continue;
      if (const Instead* pair = instead_pair(f.field); pair && pair->line == f.field)
        others = fmt::format("{} with {}", spec(pair->pair[0]).key, spec(pair->pair[1]).key);
      const std::string value = !topology           ? std::string(f.example)
                                : f.choices.empty() ? std::string(f.default_text)
                                                    : fmt::format("\"{}\"", f.default_text);
      const std::string line = fmt::format("# {} = {}", name, value);
      t += fmt::format("{:<40} # decide{}: {}{}\n", line,
                       required(f.field) ? " (required)"
                       : topology        ? fmt::format(" (default {})", f.default_text)
                                         : "",
                       f.help, others.empty() ? "" : fmt::format("; or instead {}", others));
    }
  }
  return t;
}

}  // namespace pipesim
