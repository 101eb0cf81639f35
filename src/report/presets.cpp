#include "report/presets.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>

#include "core/base/fields.hpp"
#include "core/base/text.hpp"
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

}  // namespace pipesim
