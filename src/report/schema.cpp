#include "report/schema.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "core/analyses/check.hpp"
#include "core/analyses/provenance.hpp"
#include "core/base/fields.hpp"
#include "report/json_writer.hpp"

namespace pipesim {

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

// model.measured_steps: a batch size with the step measured there, a time or a rate.
void measured_steps_schema(JsonWriter& j) {
  j.object(true)
      .kv_str("description",
              "the step measured at several batch sizes: a batch size with the step's time or the samples/s there")
      .kv_str("type", "object")
      .key("propertyNames")
      .object()
      .kv_str("pattern", "^[0-9]+$")
      .end()
      .key("additionalProperties")
      .object()
      .kv_str("type", "string")
      .end()
      .end();
}

// [measured_for."KEY"]: what a preset's figure was measured for.
void measured_for_schema(JsonWriter& j) {
  j.object(true)
      .kv_str("description",
              "what each measured figure was measured for: a table per figure's key, of the model, accelerator "
              "and data it was measured with")
      .kv_str("type", "object")
      .key("additionalProperties")
      .object(true)
      .kv_str("type", "object")
      .kv_bool("additionalProperties", false)
      .key("properties")
      .object(true);
  for (const auto& f : all_fields())
    if (context_field(f.field)) field_schema(j.key(f.key), f);
  j.end().end().end();
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
  measured_steps_schema(j.key("measured_steps"));
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
    if (table == "model") {
      step_on_schema(j.key("on"));
      measured_steps_schema(j.key("measured_steps"));
    }
    j.end().end();
  }
  measured_for_schema(j.key("measured_for"));
  j.key("require")
      .object(true)
      .kv_str("type", "object")
      .kv_bool("additionalProperties", false)
      .key("properties")
      .object(true);
  for (const auto key : requirement_keys()) {
    j.key(key).object().kv_str("description", fmt::format("requirement {} (docs/manual/plans.md)", key));
    j.key("anyOf").array().object().kv_str("type", "number").end().object().kv_str("type", "string").end();
    j.object().kv_str("type", "boolean").end();
    j.object().kv_str("type", "array").end().end().end();
  }
  j.end().end();
  j.end().end().finish();
}

}  // namespace pipesim
