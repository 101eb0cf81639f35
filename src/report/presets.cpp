#include "report/presets.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

#include "core/analyses/check.hpp"
#include "core/base/fields.hpp"
#include "core/base/text.hpp"
#include "core/stages/compute.hpp"
#include "core/stages/stage.hpp"
#include "report/attribution.hpp"
#include "report/text_table.hpp"

namespace pipesim {

namespace {

struct KindHeading {
  std::string_view kind, heading;
};
constexpr std::array kKinds = {
    KindHeading{"scenario", "scenarios"},       KindHeading{"plan", "plans"},
    KindHeading{"accelerator", "accelerators"}, KindHeading{"node", "nodes"},
    KindHeading{"storage", "storage"},          KindHeading{"workload", "workloads"},
    KindHeading{"loader", "data loaders"},
};

std::string kind_text(const FieldSpec& f) {
  std::string kind = describe_dims(f.accepts);
  return kind.substr(0, kind.find(" (e.g."));
}

}  // namespace

bool key_matches(const FieldSpec& f, std::string_view filter) {
  return filter.empty() || f.key.find(filter) != std::string_view::npos;
}

std::string_view preset_kind_heading(std::string_view kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k.heading;
  return kind;
}

void text_presets(Out& o, const std::vector<PresetEntry>& presets, bool md) {
  if (md) {
    TextTable table({{"preset", false, 0},
                     {"kind", false, 0},
                     {"runs alone", false, 0},
                     {"file", false, 0},
                     {"description", false, 0}},
                    true);
    for (const auto& k : kKinds)
      for (const auto& p : presets)
        if (p.kind == k.kind) table.add({p.name, p.kind, p.complete ? "yes" : "", p.path, p.description});
    table.render(o);
    return;
  }
  std::size_t name_w = 0, path_w = 0;
  for (const auto& p : presets) {
    name_w = std::max(name_w, p.name.size());
    path_w = std::max(path_w, p.path.size());
  }
  for (const auto& k : kKinds) {
    std::size_t n = 0;
    for (const auto& p : presets)
      if (p.kind == k.kind) ++n;
    if (n == 0) continue;
    o.print("{} ({})\n", k.heading, n);
    for (const auto& p : presets)
      if (p.kind == k.kind)
        o.print("{} {:<{}}  {:<{}}  {}\n", p.complete ? '*' : ' ', printable(p.name), name_w, p.path, path_w,
                printable(p.description));
    o.put('\n');
  }
  o.write(
      "* a complete scenario: `pipesim diagnose NAME` runs on it alone. The others are parts: compose them\n"
      "  (pipesim diagnose p4d-24xlarge+nvme-gen4+resnet50-imagenet-amp) or `use` them in a file.\n");
}

void json_presets(Out& o, const std::vector<PresetEntry>& presets) {
  JsonWriter j(o);
  j.object().stamp();
  j.key("presets").array(true);
  for (const auto& p : presets)
    j.object()
        .kv_str("name", p.name)
        .kv_str("kind", p.kind)
        .kv_bool("complete", p.complete)
        .kv_str("path", p.path)
        .kv_str("description", p.description)
        .end();
  j.end().end().finish();
}

void json_preset(Out& o, const PresetEntry& p, const LoadedScenario& loaded, std::string_view toml) {
  JsonWriter j(o);
  j.object().stamp();
  j.kv_str("name", p.name)
      .kv_str("kind", p.kind)
      .kv_bool("complete", p.complete)
      .kv_str("path", p.path)
      .kv_str("description", p.description)
      .kv_str("title", loaded.name);
  json_inputs(j, loaded.scenario);
  j.kv_str("toml", toml).end().finish();
}

void text_keys(Out& o, bool md, std::string_view filter) {
  TextTable table({{md ? "key" : "", false, 0},
                   {md ? "kind" : "", false, 0},
                   {md ? "default" : "", false, 0},
                   {md ? "meaning" : "", false, 0}},
                  md);
  for (const auto& f : all_fields()) {
    if (!key_matches(f, filter)) continue;
    if (md) {
      std::string help(f.help);
      for (std::size_t i = 0; (i = help.find('|', i)) != std::string::npos; i += 2) help.replace(i, 1, "\\|");
      table.add({fmt::format("`{}`", f.key), kind_text(f),
                 f.default_text.empty() ? std::string("—") : std::string(f.default_text), help});
    } else {
      table.add({std::string(f.key), kind_text(f),
                 f.default_text.empty() ? std::string("-") : fmt::format("default {}", f.default_text),
                 std::string(f.help)});
    }
  }
  table.render(o);
}

void json_keys(Out& o, std::string_view filter) {
  JsonWriter j(o);
  j.object().stamp();
  j.key("keys").array(true);
  for (const auto& f : all_fields()) {
    if (!key_matches(f, filter)) continue;
    j.object().kv_str("key", f.key).kv_str("kind", kind_text(f)).key("units").array();
    for (unsigned d = 0; d < kDimCount; ++d)
      if (has(f.accepts, static_cast<Dim>(d)))
        for (auto u : unit_names(static_cast<Dim>(d))) j.str(u);
    j.end();
    if (!f.choices.empty()) {
      j.key("choices").array();
      for (auto c : f.choices) j.str(c);
      j.end();
    }
    j.kv_bool("integer", f.integer);
    if (!f.default_text.empty()) j.kv_str("default", f.default_text);
    j.kv_str("help", f.help).end();
  }
  j.end().end().finish();
}

namespace {

std::string regex_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// The text forms a field's value may take, as a regular expression: a number, optionally k, M or
// G, and one of the units its kinds accept.
std::string value_pattern(const FieldSpec& f) {
  std::vector<std::string> units;
  for (unsigned d = 0; d < kDimCount; ++d)
    if (has(f.accepts, static_cast<Dim>(d)))
      for (auto u : unit_names(static_cast<Dim>(d))) units.push_back(regex_escape(u));
  std::string alternatives;
  for (const auto& u : units) alternatives += (alternatives.empty() ? "" : "|") + u;
  const bool counts = has(f.accepts, Dim::Number) || has(f.accepts, Dim::SampleRate);
  std::string pattern = R"(^\s*\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*)";
  if (counts) pattern += R"(([kKMG](\s+|$))?\s*)";
  pattern += "(" + alternatives + ")" + (has(f.accepts, Dim::Number) ? "?" : "") + R"(\s*$)";
  if (has(f.accepts, Dim::Money) || has(f.accepts, Dim::MoneyRate))
    pattern = "(" + pattern + R"()|(^\s*\$([0-9]+\.?[0-9]*|\.[0-9]+)(/(h|hr|hour|day|month|year))?\s*$))";
  return pattern;
}

void number_bounds(JsonWriter& j, const FieldSpec& f) {
  switch (f.constraint) {
    case Constraint::Positive:
      j.kv("exclusiveMinimum", 0);
      break;
    case Constraint::NonNegative:
      j.kv("minimum", 0);
      break;
    case Constraint::UnitInterval:
      j.kv("exclusiveMinimum", 0).kv("maximum", 1);
      break;
    case Constraint::HitRatio:
      j.kv("minimum", 0).kv("exclusiveMaximum", 1);
      break;
    case Constraint::Share:
      j.kv("minimum", 0).kv("maximum", 1);
      break;
    case Constraint::None:
      break;
  }
}

void field_schema(JsonWriter& j, const FieldSpec& f) {
  j.object();
  const std::string help = fmt::format(
      "{}{}", f.help, f.default_text.empty() ? std::string() : fmt::format(" (default: {})", f.default_text));
  j.kv_str("description", help);
  if (f.accepts == dims(Dim::Bool)) {
    j.kv_str("type", "boolean").end();
    return;
  }
  if (!f.choices.empty()) {
    j.kv_str("type", "string").key("enum").array();
    for (auto c : f.choices) j.str(c);
    j.end().end();
    return;
  }
  j.key("anyOf").array(true);
  if (has(f.accepts, Dim::Number)) {
    j.object().kv_str("type", f.integer ? "integer" : "number");
    number_bounds(j, f);
    j.end();
  }
  j.object().kv_str("type", "string").kv_str("pattern", value_pattern(f)).end();
  if (f.shape) {
    j.object().kv_str("type", "string").kv_str("pattern", R"(^\s*[0-9]+(\s*x\s*[0-9]+)*\s*$)").end();
    j.object().kv_str("type", "array").key("items").object().kv_str("type", "integer").kv("minimum", 1).end().end();
  }
  j.end().end();
}

// [model.on.NAME]: the step measured on the accelerator NAME, taken where accelerator.type is NAME.
void step_on_schema(JsonWriter& j) {
  j.object(true)
      .kv_str("description",
              "the step measured on each accelerator (a table per accelerator preset's name), taken where "
              "accelerator.type names it")
      .kv_str("type", "object")
      .key("propertyNames")
      .object()
      .key("enum")
      .array();
  for (auto c : spec(Field::MeasuredOn).choices) j.str(c);
  j.end().end();
  j.key("additionalProperties")
      .object(true)
      .kv_str("type", "object")
      .kv_bool("additionalProperties", false)
      .key("properties")
      .object(true);
  for (const Field f : {Field::MeasuredOverhead, Field::MeasuredPerSample})
    field_schema(j.key(spec(f).key.substr(spec(f).key.find('.') + 1)), spec(f));
  j.end().end().end();
}

}  // namespace

void json_schema(Out& o) {
  JsonWriter j(o);
  j.object(true)
      .kv_str("$schema", "http://json-schema.org/draft-07/schema#")
      .kv_str("title", "pipesim scenario")
      .kv_str("description",
              "A pipesim scenario or plan (TOML). Written by `pipesim presets --schema` for this version; every key "
              "is in `pipesim presets --keys`.")
      .kv_str("type", "object")
      .kv_bool("additionalProperties", false)
      .key("properties")
      .object(true);
  j.key("use").object().kv_str("description",
                               "presets or files to start from, applied in order before this file's keys");
  j.key("anyOf").array().object().kv_str("type", "string").end();
  j.object().kv_str("type", "array").key("items").object().kv_str("type", "string").end().end();
  j.end().end();
  j.key("name").object().kv_str("type", "string").kv_str("description", "a name for reports").end();
  j.key("description").object().kv_str("type", "string").kv_str("description", "what the scenario is").end();
  // One object per table, in the order of the field registry.
  std::vector<std::string_view> tables;
  for (const auto& f : all_fields()) {
    const std::string_view table = f.key.substr(0, f.key.find('.'));
    if (std::find(tables.begin(), tables.end(), table) == tables.end()) tables.push_back(table);
  }
  for (const auto table : tables) {
    j.key(table)
        .object(true)
        .kv_str("type", "object")
        .kv_bool("additionalProperties", false)
        .key("properties")
        .object(true);
    for (const auto& f : all_fields())
      if (f.key.substr(0, f.key.find('.')) == table) field_schema(j.key(f.key.substr(f.key.find('.') + 1)), f);
    if (table == "model") step_on_schema(j.key("on"));
    j.end().end();
  }
  j.key("require")
      .object(true)
      .kv_str("type", "object")
      .kv_bool("additionalProperties", false)
      .key("properties")
      .object(true);
  for (const auto key : requirement_keys()) {
    j.key(key).object().kv_str("description", fmt::format("requirement {} (docs/plans.md)", key));
    j.key("anyOf").array().object().kv_str("type", "number").end().object().kv_str("type", "string").end();
    j.object().kv_str("type", "boolean").end();
    j.object().kv_str("type", "array").end().end().end();
  }
  j.end().end();
  j.end().end().finish();
}

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
  return s.has(Field::MeasuredPerSample) && roofline_input(f);
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
