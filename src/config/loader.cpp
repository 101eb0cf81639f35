#include "config/loader.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "config/input_file.hpp"
#include "config/presets.hpp"
#include "config/requirements.hpp"
#include "config/toml_gate.hpp"
#include "config/toml_values.hpp"
#include "core/base/range.hpp"
#include "core/base/text.hpp"

namespace pipesim {

namespace {

constexpr int kMaxUseDepth = 16;
constexpr std::uintmax_t kMaxFileBytes = 16u << 20;

// A name with a '/' or ending in .toml names a file; any other name is a preset first.
bool names_a_file(std::string_view name) { return name.find('/') != std::string_view::npos || name.ends_with(".toml"); }

// The key a file is loaded once under: its canonical path (as given when that cannot be had).
std::string file_key(const std::filesystem::path& p) {
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(p, ec);
  return ec ? p.lexically_normal().string() : canonical.string();
}

// The tables pipesim's keys live in ("pipeline", "storage", ...), each once.
std::vector<std::string_view> table_names() {
  std::vector<std::string_view> tables;
  for (const FieldSpec& f : all_fields()) {
    const std::string_view t = f.key.substr(0, f.key.find('.'));
    if (std::find(tables.begin(), tables.end(), t) == tables.end()) tables.push_back(t);
  }
  return tables;
}

// "; did you mean 'storage'?" for a table name near one of pipesim's, else the list's pointer.
std::string table_hint(std::string_view name, std::span<const std::string_view> tables) {
  const std::string near = did_you_mean(name, tables);
  return near.empty() ? std::string(" (see `pipesim presets --keys` for the tables and their keys)") : near;
}

// The files opened by the load_scenario call in progress on this thread, when its caller asks.
thread_local std::vector<std::string>* files_read = nullptr;

std::string read_file(const std::string& path) {
  if (files_read != nullptr) files_read->push_back(path);
  return read_input_file(path, kMaxFileBytes, "the file");
}

// The scenario on standard input (`-`), read to its end: at most 16 MiB, like a file.
std::string read_stdin() {
  if (isatty(STDIN_FILENO))
    std::fputs("pipesim: reading the scenario from standard input; end it with Ctrl-D\n", stderr);
  return read_input_fd(STDIN_FILENO, Origin::standard_input(), kMaxFileBytes, "standard input");
}

// The fields of a measured step, which a [model.on.NAME] table gives per accelerator.
constexpr std::array kStepFields = {Field::MeasuredOverhead, Field::MeasuredPerSample, Field::MeasuredOn};

// A figure set again: what a preset measured it for no longer holds (the measured step is the
// figure model.measured_per_sample, set again by any of its keys or points).
void drop_measured_for(LoadedScenario& s, Field f) {
  if (f == Field::MeasuredOverhead) f = Field::MeasuredPerSample;
  std::erase_if(s.plan.measured_for, [&](const MeasuredFor& m) { return m.figure == f; });
}

// What setting `f` later than a StepTable does to it: the step set itself sets the table aside;
// model.measured_on alone picks the entry measured there.
void after_step_table(LoadedScenario& s, Field f, const Quantity& q, const Origin& where) {
  if (!s.steps) return;
  if (f == Field::MeasuredOverhead || f == Field::MeasuredPerSample) {
    s.steps.reset();
  } else if (f == Field::MeasuredOn) {
    s.steps->forced = q.value;
    s.steps->forced_origin = where;
  }
}

// A [model.on] table: one table of step keys per accelerator name.
std::vector<StepOn> step_entries(const toml::table& on, const Origin& doc) {
  std::vector<StepOn> entries;
  for (const auto& [name, node] : on) {
    const Origin where = at(doc, name.source());
    StepOn e;
    try {
      e.accelerator = parse_field_value(spec(Field::MeasuredOn), name.str()).value;
    } catch (const Error& err) {
      throw Error(where, fmt::format("[model.on.{}]: {}", echo(name.str()), err.what()));
    }
    e.where = where;
    const auto* keys = node.as_table();
    if (!keys)
      throw Error(where, fmt::format("model.on.{} must be a table of the step measured there "
                                     "(measured_overhead, measured_per_sample)",
                                     echo(name.str())));
    for (const auto& [k, v] : *keys) {
      if (k.str() == "measured_steps") {
        e.points = step_points_value(v, doc);
        e.points_origin = at(doc, v.source());
        continue;
      }
      const FieldSpec* f = find_field("model." + std::string(k.str()));
      if (!f || (f->field != Field::MeasuredOverhead && f->field != Field::MeasuredPerSample))
        throw Error(at(doc, k.source()), fmt::format("[model.on.{}] holds model.measured_overhead and "
                                                     "model.measured_per_sample, or model.measured_steps, "
                                                     "only, not '{}'",
                                                     echo(name.str()), echo(k.str())));
      e.values.push_back({f->field, node_value(*f, v, doc), at(doc, v.source())});
    }
    if (!e.points.empty() && !e.values.empty())
      throw Error(e.points_origin, fmt::format("[model.on.{}]: model.measured_steps and {} say the same thing in "
                                               "two ways: keep one",
                                               echo(name.str()), spec(e.values.front().field).key));
    entries.push_back(std::move(e));
  }
  return entries;
}

// Applies what one file (with everything it uses) set, in the order it would have been set:
// fields replace their alternatives, requirements replace those of the same key. `named`: the
// file uses this one alone, so it is this one adjusted and takes its name and description where
// it gives none of its own; a file composed of several is named by none of them (the last one's
// description is not the composition's).
void apply_fragment(LoadedScenario& out, const LoadedScenario& frag, bool named) {
  if (named) {
    out.name = frag.name;
    out.description = frag.description;
  }
  if (frag.steps) {
    out.steps = frag.steps;
  } else {
    for (Field f : kStepFields)
      if (frag.scenario.has(f))
        after_step_table(out, f, {frag.scenario.get(f), frag.scenario.dim(f)},
                         frag.origins[static_cast<std::size_t>(f)]);
    if (!frag.scenario.step_points().empty()) after_step_table(out, Field::MeasuredPerSample, {}, {});
  }
  for (std::size_t i = 0; i < kFieldCount; ++i) {
    const auto f = static_cast<Field>(i);
    if (!frag.scenario.has(f)) continue;
    drop_measured_for(out, f);
    if (const auto alt = out.scenario.set_alternative(f)) out.origins[static_cast<std::size_t>(*alt)] = {};
    out.scenario.set(f, {frag.scenario.get(f), frag.scenario.dim(f)});
    out.origins[i] = frag.origins[i];
  }
  if (!frag.scenario.step_points().empty()) {
    drop_measured_for(out, Field::MeasuredPerSample);
    out.scenario.set_step_points(frag.scenario.step_points());
    out.origins[static_cast<std::size_t>(Field::MeasuredPerSample)] =
        frag.origins[static_cast<std::size_t>(Field::MeasuredPerSample)];
    out.origins[static_cast<std::size_t>(Field::MeasuredOverhead)] = {};
  }
  for (const auto& req : frag.plan.requirements) {
    bool replaced = false;
    for (auto& r : out.plan.requirements)
      if (r.metric == req.metric) {
        r = req;
        replaced = true;
      }
    if (!replaced) out.plan.requirements.push_back(req);
  }
  out.plan.measured_for.insert(out.plan.measured_for.end(), frag.plan.measured_for.begin(),
                               frag.plan.measured_for.end());
  // What a used plan accepts, the file using it accepts too.
  out.plan.accept_unmodelled |= frag.plan.accept_unmodelled;
  out.plan.accept_elsewhere = out.plan.accept_elsewhere || frag.plan.accept_elsewhere;
  out.plan.accept_extrapolated = out.plan.accept_extrapolated || frag.plan.accept_extrapolated;
  out.plan.steady_only = out.plan.steady_only || frag.plan.steady_only;
  if (frag.plan.batch_sizes) {
    out.plan.batch_sizes = frag.plan.batch_sizes;
    out.plan.batch_sizes_origin = frag.plan.batch_sizes_origin;
  }
  for (const auto& f : frag.files)
    if (std::find(out.files.begin(), out.files.end(), f) == out.files.end()) out.files.push_back(f);
}

// The same place in the same source.
bool same_place(const Origin& a, const Origin& b) {
  return a.same_source(b) && a.line == b.line && a.column == b.column;
}

// A source as a `use` would name it: a preset's name, else its label (a file's path).
std::string source_name(const Origin& o) {
  if (o.kind == SourceKind::Preset)
    if (const EmbeddedPreset* p = find_preset(o.source)) return std::string(p->name);
  return o.label();
}

// A [measured_for] table: for each figure (a field key, or model.measured_steps for the step),
// the values of the fields it was measured for.
std::vector<MeasuredFor> measured_for_table(const toml::table& t, const Origin& doc) {
  std::vector<MeasuredFor> out;
  const std::string who = source_name(doc);
  for (const auto& [k, v] : t) {
    const Origin where = at(doc, k.source());
    const std::string key(k.str());
    const FieldSpec* figure = key == "model.measured_steps" ? &spec(Field::MeasuredPerSample) : find_field(key);
    if (!figure) throw Error(where, fmt::format("[measured_for]: {}", unknown_key_message(key)));
    const auto* context = v.as_table();
    if (!context || context->empty())
      throw Error(at(doc, v.source()),
                  fmt::format("[measured_for] \"{}\" takes a table of what it was measured for, e.g. "
                              "{{ \"accelerator.type\" = \"a100-80gb-sxm\", \"workload.sample_size\" = \"110 KB\" }}",
                              echo(key)));
    MeasuredFor m{figure->field, who, {}};
    for (const auto& [ck, cv] : *context) {
      const FieldSpec* f = find_field(ck.str());
      if (!f || !context_field(f->field))
        throw Error(at(doc, ck.source()),
                    fmt::format("[measured_for] \"{}\": a figure is measured for model.parameters, "
                                "model.flops_per_sample, accelerator.type, workload.sample_size, "
                                "workload.device_shape or transform.device, not '{}'",
                                echo(key), echo(ck.str())));
      m.context.emplace_back(f->field, node_value(*f, cv, doc).value);
    }
    out.push_back(std::move(m));
  }
  return out;
}

// Whether what `frag` set still stands in `out`: a field with its value from there, or a
// requirement, a step table or a plan option (which a later layer adds to, not replaces).
// Else the sources that set its fields again.
std::optional<std::vector<std::string>> shadowed_by(const LoadedScenario& out, const LoadedScenario& frag) {
  if (!frag.plan.requirements.empty() || frag.steps || !frag.scenario.step_points().empty() || frag.plan.batch_sizes ||
      frag.plan.accept_unmodelled || frag.plan.accept_elsewhere || frag.plan.accept_extrapolated ||
      frag.plan.steady_only)
    return std::nullopt;
  std::vector<std::string> by;
  bool any = false;
  for (std::size_t i = 0; i < kFieldCount; ++i) {
    if (!frag.scenario.has(static_cast<Field>(i))) continue;
    any = true;
    if (same_place(out.origins[i], frag.origins[i])) return std::nullopt;
    // Set again, or replaced by an alternative (whose origin then names the later layer).
    Origin later = out.origins[i];
    for (Field alt : alternatives(static_cast<Field>(i)))
      if (later.empty() && out.scenario.has(alt)) later = out.origins[static_cast<std::size_t>(alt)];
    if (later.empty()) continue;
    std::string name = source_name(later);
    if (std::find(by.begin(), by.end(), name) == by.end()) by.push_back(std::move(name));
  }
  if (!any) return std::nullopt;
  return by;
}

struct Loader {
  int depth = 0;
  // The top file's own uses, in order: each name, where, and the loaded key it applied.
  struct TopUse {
    std::string name;
    Origin where;
    std::string key;
  };
  std::vector<TopUse> top_uses;
  // Each file or preset is read and parsed once, however often it is used: later uses apply
  // what it set (a few hundred bytes of files that use each other several times each would
  // otherwise load millions of times). Keyed by canonical path or "preset:PATH".
  std::map<std::string, LoadedScenario> loaded;
  std::vector<std::string> loading;  // the chain of uses being loaded (a cycle returns to one)

  void load_into(LoadedScenario& out, std::string_view text, const Origin& doc, const std::string& base_dir) {
    if (++depth > kMaxUseDepth) throw Error(doc, fmt::format("`use` nests deeper than {} levels", kMaxUseDepth));
    // A UTF-8 byte-order mark, as some Windows editors write, is not part of the text.
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    gate_toml_text(text, doc);
    toml::table root;
    try {
      root = toml::parse(text, doc.label());
    } catch (const toml::parse_error& e) {
      throw Error(at(doc, e.source()), std::string(e.description()));
    }
    // `use` first, so the file's own fields override what it uses.
    if (const auto* use = root.get("use")) {
      std::vector<const toml::node*> items;
      if (const auto* arr = use->as_array()) {
        for (const auto& n : *arr) items.push_back(&n);
      } else {
        items.push_back(use);
      }
      for (const auto* item : items) {
        const auto* name = item->as_string();
        if (!name) throw Error(at(doc, item->source()), "`use` takes a preset name or a file path, or a list of them");
        include(out, name->get(), at(doc, item->source()), base_dir, items.size() == 1);
      }
    }
    // Every unknown key and bad value of the file is reported at once, in file order.
    std::vector<Error> problems;
    std::optional<std::vector<StepOn>> own_steps;  // the file's own [model.on] table
    std::vector<MeasuredFor> own_measured;         // its [measured_for] table, after its fields
    const auto attempt = [&problems](auto&& fn) {
      try {
        fn();
      } catch (const Error& e) {
        problems.push_back(e);
      }
    };
    // Unknown keys are messages of their own: a "did you mean" is searched only for those an error
    // can show (the first kMaxErrorLines by position), not for each of 100,000.
    struct Unknown {
      Origin where;
      std::string written, full;
    };
    std::vector<Unknown> unknown;
    for (const auto& [k, v] : root) {
      const std::string key(k.str());
      if (key == "use") continue;
      if (key == "name" || key == "description") {
        attempt([&, &node = v] {  // clang 14 cannot capture a structured binding by [&]
          const auto* str = node.as_string();
          if (!str) throw Error(at(doc, node.source()), fmt::format("'{}' must be a string", key));
          (key == "name" ? out.name : out.description) = str->get();
        });
        continue;
      }
      const auto* table = v.as_table();
      if (!table) {
        unknown.push_back({at(doc, k.source()), key, key});
        continue;
      }
      // An empty table no key belongs to ([stroage]) is a typo too, not nothing.
      if (table->empty() && key != "require") {
        const std::vector<std::string_view> tables = table_names();
        if (std::find(tables.begin(), tables.end(), key) == tables.end()) {
          problems.emplace_back(at(doc, k.source()),
                                fmt::format("unknown table [{}]{}", echo(key), table_hint(key, tables)));
          continue;
        }
      }
      if (key == "measured_for") {
        attempt([&] { own_measured = measured_for_table(*table, doc); });
        continue;
      }
      if (key == "require") {
        // In the order written (toml++ iterates keys sorted), so reports follow the file.
        std::vector<std::pair<std::string, const toml::node*>> entries;
        for (const auto& [k2, v2] : *table) entries.emplace_back(std::string(k2.str()), &v2);
        std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
          return a.second->source().begin < b.second->source().begin;
        });
        for (const auto& [name, node] : entries)
          attempt([&, &name = name, node = node] {
            set_requirement(out.plan, name, requirement_text(*node, doc, name), at(doc, node->source()));
          });
        continue;
      }
      for (const auto& [k2, v2] : *table) {
        if (key == "model" && k2.str() == "measured_steps") {
          attempt([&, &v2 = v2] {
            const Origin where = at(doc, v2.source());
            for (Field f : {Field::MeasuredPerSample, Field::MeasuredOverhead})
              if (const Origin& other = out.origins[static_cast<std::size_t>(f)];
                  other.same_source(where) && other.line > 0)
                throw Error(where, fmt::format("model.measured_steps and {} (line {}) say the same thing in two "
                                               "ways: keep one",
                                               spec(f).key, other.line));
            set_step_points(out, step_points_value(v2, doc), where);
          });
          continue;
        }
        if (key == "model" && k2.str() == "on") {
          attempt([&, &v2 = v2] {
            if (!v2.is_table())
              throw Error(at(doc, v2.source()), "model.on takes a table per accelerator: [model.on.h100-sxm]");
            own_steps = step_entries(*v2.as_table(), doc);
          });
          continue;
        }
        const std::string full = key + "." + std::string(k2.str());
        const FieldSpec* field = find_field(full);
        if (!field) {
          unknown.push_back({at(doc, k2.source()), std::string(k2.str()), full});
          continue;
        }
        attempt([&, &v2 = v2] { set_field(out, field->field, node_value(*field, v2, doc), at(doc, v2.source())); });
      }
    }
    std::stable_sort(unknown.begin(), unknown.end(), [](const Unknown& a, const Unknown& b) {
      return std::pair(a.where.line, a.where.column) < std::pair(b.where.line, b.where.column);
    });
    for (std::size_t i = 0; i < unknown.size(); ++i)
      problems.emplace_back(unknown[i].where, i < kMaxErrorLines
                                                  ? key_message(unknown[i].written, unknown[i].full)
                                                  : fmt::format("unknown key '{}'", echo(unknown[i].full)));
    if (!problems.empty()) {
      std::stable_sort(problems.begin(), problems.end(), [](const Error& a, const Error& b) {
        return std::pair(a.origin().line, a.origin().column) < std::pair(b.origin().line, b.origin().column);
      });
      Error first = problems.front();
      first.add_more(std::vector<Error>(problems.begin() + 1, problems.end()));
      throw first;
    }
    for (MeasuredFor& m : own_measured) {
      if (!(m.figure == Field::MeasuredPerSample ? out.scenario.step_measured() : out.scenario.has(m.figure)))
        throw Error(doc, fmt::format("[measured_for] names {}, which this file and what it uses do not set",
                                     spec(m.figure).key));
      drop_measured_for(out, m.figure);
      out.plan.measured_for.push_back(std::move(m));
    }
    if (own_steps) {
      // The step set beside the table (in this file or what it uses) stands for the others.
      StepTable t;
      t.entries = std::move(*own_steps);
      for (Field f : kStepFields)
        t.base.push_back({f,
                          out.scenario.has(f)
                              ? std::optional<Quantity>(Quantity{out.scenario.get(f), out.scenario.dim(f)})
                              : std::nullopt,
                          out.origins[static_cast<std::size_t>(f)]});
      t.base_points = out.scenario.step_points();
      t.base_points_origin = out.origins[static_cast<std::size_t>(Field::MeasuredPerSample)];
      out.steps = std::move(t);
    }
    --depth;
  }

  void include(LoadedScenario& out, const std::string& name, const Origin& where, const std::string& base_dir,
               bool named) {
    if (names_a_file(name)) {
      const std::filesystem::path p = std::filesystem::path(base_dir) / name;
      std::error_code ec;
      if (std::filesystem::is_regular_file(p, ec)) {
        const std::string path = p.lexically_normal().string();
        use_once(out, file_key(p), name, where, named, [&](LoadedScenario& frag) {
          frag.files.push_back(path);
          load_into(frag, read_file(path), Origin::file(path), p.parent_path().string());
        });
        return;
      }
    }
    if (const auto* preset = find_preset(name)) {
      const Origin doc = Origin::preset(std::string(preset->path));
      use_once(out, doc.label(), name, where, named,
               [&](LoadedScenario& frag) { load_into(frag, preset->text, doc, ""); });
      return;
    }
    throw Error(where, fmt::format("`use` names '{}', which is neither a preset nor a readable file{}", echo(name),
                                   preset_hint(name)));
  }

  // Loads `key` once (through load), then applies what it set to `out`. An error inside it says
  // which `use` pulled it in.
  template <class Load>
  void use_once(LoadedScenario& out, const std::string& key, std::string_view name, const Origin& where, bool named,
                Load&& load) {
    if (std::find(loading.begin(), loading.end(), key) != loading.end())
      throw Error(where, fmt::format("`use` of '{}' forms a cycle: that file is already being loaded", echo(name)));
    auto it = loaded.find(key);
    if (it == loaded.end()) {
      LoadedScenario frag;
      loading.push_back(key);
      try {
        load(frag);
      } catch (const Error& e) {
        if (e.origin().same_source(where)) throw;
        throw e.suffixed(fmt::format(" (in a file used at {})", where.str()));
      }
      loading.pop_back();
      it = loaded.emplace(key, std::move(frag)).first;
    }
    if (depth == 1) top_uses.push_back({std::string(name), where, key});
    apply_fragment(out, it->second, named);
  }

  static std::string preset_hint(std::string_view name) {
    std::vector<std::string_view> names;
    for (const auto& p : embedded_presets()) names.push_back(p.name);
    const std::string hint = did_you_mean_name(name, names);
    return hint.empty() ? std::string(" (`pipesim presets` lists the presets)") : hint;
  }
};

}  // namespace

LoadedScenario load_scenario_text(std::string_view text, const Origin& doc, const std::string& base_dir) {
  LoadedScenario out;
  out.source = doc;
  Loader loader;
  // The file itself heads the chain of uses, so a cycle back to it is named where it closes.
  std::error_code ec;
  if (doc.kind == SourceKind::File && std::filesystem::is_regular_file(doc.source, ec))
    loader.loading.push_back(file_key(doc.source));
  loader.load_into(out, text, doc, base_dir);
  for (const auto& use : loader.top_uses)
    if (auto by = shadowed_by(out, loader.loaded.at(use.key))) out.shadowed.push_back({use.name, use.where, *by});
  convert_step_rates(out);
  return out;
}

namespace {

// A preset loaded from its build-time snapshot: what load_scenario_text would give.
LoadedScenario from_snapshot(const PresetSnapshot& snap) {
  LoadedScenario out;
  out.name = std::string(snap.name);
  out.description = std::string(snap.description);
  out.source = Origin::preset(std::string(snap.path));
  for (const auto& v : snap.values) {
    const auto f = static_cast<Field>(v.field);
    out.scenario.set(f, Quantity{v.value, static_cast<Dim>(v.dim)});
    out.origins[static_cast<std::size_t>(f)] = Origin::preset(std::string(snap.sources[v.source]), v.line, v.column);
  }
  return out;
}

LoadedScenario load_preset(const EmbeddedPreset& preset) {
  if (const auto* snap = find_snapshot(preset)) return from_snapshot(*snap);
  return load_scenario_text(preset.text, Origin::preset(std::string(preset.path)), "");
}

}  // namespace

LoadedScenario load_scenario(std::string_view arg, std::vector<std::string>* read) {
  struct Log {
    std::vector<std::string>* before;
    ~Log() { files_read = before; }
  } const log{std::exchange(files_read, read)};
  // No scenario: the embedded default, whatever the current directory holds.
  const std::string name(arg.empty() ? kDefaultPreset : arg);
  std::error_code ec;
  LoadedScenario out;
  // A preset's name is never shadowed by a file or folder of that name in the current directory
  // (write ./NAME for the file). A directory is never a scenario.
  const EmbeddedPreset* preset = names_a_file(name) ? nullptr : find_preset(name);
  if (arg.empty()) {
    out = load_preset(*find_preset(kDefaultPreset));
  } else if (name == "-") {
    // `use` paths are relative to the current directory.
    out = load_scenario_text(read_stdin(), Origin::standard_input(), "");
    if (out.name.empty()) out.name = "standard input";
  } else if (preset) {
    out = load_preset(*preset);
  } else if (name.find('+') != std::string::npos && !names_a_file(name) && !std::filesystem::exists(name, ec)) {
    // Presets composed on the command line: A+B+C is a scenario that uses A, B and C in turn.
    std::string uses;
    std::size_t start = 0;
    while (start <= name.size()) {
      const std::size_t end = std::min(name.find('+', start), name.size());
      const std::string part = name.substr(start, end - start);
      if (part.empty() || !find_preset(part))
        throw Error(fmt::format(
            "'{}' in '{}' is not a preset{}", echo(part), echo(name),
            part.empty() ? std::string(": write A+B with a preset on each side of +") : Loader::preset_hint(part)));
      uses += fmt::format("{}\"{}\"", uses.empty() ? "" : ", ", part);
      start = end + 1;
    }
    out = load_scenario_text(fmt::format("use = [{}]\n", uses), Origin::argument(name), "");
    out.name = name;  // the composition, not the name of whichever preset came last
  } else if (std::filesystem::is_directory(name, ec)) {
    throw Error(Origin::file(echo(name)), "a directory is not a scenario: name a TOML file or a preset");
  } else if (std::filesystem::exists(name, ec)) {
    const std::filesystem::path p(name);
    out = load_scenario_text(read_file(name), Origin::file(name), p.parent_path().string());
    out.files.insert(out.files.begin(), name);
  } else {
    throw Error(fmt::format("no scenario file or preset named '{}'{}", echo(name), Loader::preset_hint(name)));
  }
  if (out.name.empty()) out.name = name;
  convert_step_rates(out);
  pick_step(out);
  return out;
}

void pick_step(LoadedScenario& s) {
  if (!s.steps) return;
  const StepTable& t = *s.steps;
  for (const StepValue& v : t.base) {
    if (v.value)
      s.scenario.set(v.field, *v.value);
    else
      s.scenario.unset(v.field);
    s.origins[static_cast<std::size_t>(v.field)] = v.value ? v.origin : Origin{};
  }
  if (!t.base_points.empty()) {
    s.scenario.set_step_points(t.base_points);
    s.origins[static_cast<std::size_t>(Field::MeasuredPerSample)] = t.base_points_origin;
  }
  std::optional<double> on = t.forced;
  if (!on && s.scenario.has(Field::AcceleratorType)) on = s.scenario.get(Field::AcceleratorType);
  if (!on) return;
  if (t.forced) {
    s.scenario.set(Field::MeasuredOn, {*t.forced, Dim::Choice});
    s.origins[static_cast<std::size_t>(Field::MeasuredOn)] = t.forced_origin;
  }
  for (const StepOn& e : t.entries) {
    if (e.accelerator != *on) continue;
    if (!e.points.empty()) {
      s.scenario.set_step_points(e.points);
      s.origins[static_cast<std::size_t>(Field::MeasuredPerSample)] = e.points_origin;
      s.origins[static_cast<std::size_t>(Field::MeasuredOverhead)] = {};
    }
    for (const StepValue& v : e.values) {
      s.scenario.set(v.field, *v.value);
      s.origins[static_cast<std::size_t>(v.field)] = v.origin;
    }
    // A step that leaves out the fixed time per step has none.
    if (e.points.empty() && std::none_of(e.values.begin(), e.values.end(),
                                         [](const StepValue& v) { return v.field == Field::MeasuredOverhead; })) {
      s.scenario.unset(Field::MeasuredOverhead);
      s.origins[static_cast<std::size_t>(Field::MeasuredOverhead)] = {};
    }
    s.scenario.set(Field::MeasuredOn, {e.accelerator, Dim::Choice});
    if (!t.forced) s.origins[static_cast<std::size_t>(Field::MeasuredOn)] = e.where;
  }
}

bool snapshot_holds(const LoadedScenario& s) {
  return s.plan.requirements.empty() && !s.plan.batch_sizes && !s.steps && s.scenario.step_points().empty() &&
         s.plan.measured_for.empty();
}

void set_step_points(LoadedScenario& s, const StepPoints& p, const Origin& where) {
  drop_measured_for(s, Field::MeasuredPerSample);
  s.scenario.set_step_points(p);
  s.origins[static_cast<std::size_t>(Field::MeasuredPerSample)] = where;
  s.origins[static_cast<std::size_t>(Field::MeasuredOverhead)] = {};
  after_step_table(s, Field::MeasuredPerSample, {}, where);
}

void convert_step_rates(LoadedScenario& s) {
  for (const FieldSpec& f : all_fields()) {
    if (!s.scenario.has(f.field) || s.scenario.dim(f.field) != Dim::StepRate) continue;
    const Origin& where = s.origins[static_cast<std::size_t>(f.field)];
    if (!s.scenario.has(Field::BatchSize))
      throw Error(where, fmt::format("{} is given per step ({}): it needs pipeline.batch_size to become samples/s",
                                     f.key, format_compact(s.scenario.get(f.field), Dim::StepRate)));
    s.scenario.set(f.field, {s.scenario.get(f.field) * s.scenario.get(Field::BatchSize), Dim::SampleRate});
  }
}

void apply_assignment(LoadedScenario& s, std::string_view assignment) {
  const Origin where = Origin::argument(fmt::format("--set {}", assignment));
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos) throw Error(where, "expected KEY=VALUE, e.g. --set pipeline.batch_size=64");
  const std::string key(assignment.substr(0, eq));
  const FieldSpec* field = find_field(key);
  if (!field) throw Error(where, unknown_key_message(key));
  try {
    set_field(s, field->field, parse_field_value(*field, assignment.substr(eq + 1)), where);
  } catch (const Error& e) {
    throw Error(where, e.what());
  }
  // A rate per step becomes samples/s with the batch size in force now.
  convert_step_rates(s);
  pick_step(s);
}

void set_field(LoadedScenario& s, Field f, const Quantity& q, const Origin& where) {
  if (const auto alt = s.scenario.set_alternative(f)) {
    const Origin& other = s.origins[static_cast<std::size_t>(*alt)];
    if (other.same_source(where) && other.line > 0)
      throw Error(where, fmt::format("{} and {} (line {}) say the same thing in two ways: keep one", spec(f).key,
                                     spec(*alt).key, other.line));
    s.origins[static_cast<std::size_t>(*alt)] = {};
  }
  s.scenario.set(f, q);
  s.origins[static_cast<std::size_t>(f)] = where;
  drop_measured_for(s, f);
  after_step_table(s, f, q, where);
}

void apply_requirement(LoadedScenario& s, std::string_view assignment) {
  const Origin where = Origin::argument(fmt::format("--require {}", assignment));
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos) throw Error(where, "expected KEY=VALUE, e.g. --require min_utilization=90%");
  set_requirement(s.plan, assignment.substr(0, eq), assignment.substr(eq + 1), where);
}

Origin origin_of(const LoadedScenario& s, Field f) {
  const Origin& o = s.origins[static_cast<std::size_t>(f)];
  return o.empty() ? s.source : o;
}

}  // namespace pipesim
