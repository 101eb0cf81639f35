#include "config/toml_values.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/base/text.hpp"

namespace pipesim {

Origin at(const Origin& doc, const toml::source_region& r) {
  return doc.at(static_cast<int>(r.begin.line), static_cast<int>(r.begin.column));
}

Quantity node_value(const FieldSpec& field, const toml::node& node, const Origin& doc) {
  const Origin where = at(doc, node.source());
  try {
    if (const auto* str = node.as_string()) return parse_field_value(field, str->get());
    if (!field.choices.empty()) {
      throw Error(fmt::format("{}: expected one of {}, as a string (e.g. \"{}\")", field.key, choice_names(field),
                              field.choices.front()));
    }
    if (const auto* arr = node.as_array(); arr && field.shape) {
      std::string text;
      for (const auto& item : *arr) {
        const auto* i = item.as_integer();
        if (!i)
          throw Error(at(doc, item.source()),
                      fmt::format("{}: a shape lists whole numbers, e.g. [3, 224, 224]", field.key));
        text += fmt::format("{}{}", text.empty() ? "" : "x", i->get());
      }
      if (text.empty()) throw Error(fmt::format("{}: the shape is empty", field.key));
      const Quantity q{parse_shape(field, text), Dim::Number};
      check_value(field, q);
      return q;
    }
    Quantity q;
    if (const auto* i = node.as_integer()) {
      q = {static_cast<double>(i->get()), Dim::Number};
    } else if (const auto* f = node.as_floating_point()) {
      q = {f->get(), Dim::Number};
      if (!std::isfinite(q.value)) throw Error(fmt::format("{}: the value is not finite", field.key));
    } else if (const auto* b = node.as_boolean()) {
      q = {b->get() ? 1.0 : 0.0, Dim::Bool};
    } else {
      throw Error(fmt::format("{}: expected {}, got a TOML {}", field.key, describe_dims(field.accepts),
                              node.is_table()   ? "table"
                              : node.is_array() ? "array"
                                                : "date or time"));
    }
    if (q.dim == Dim::Number && !has(field.accepts, Dim::Number))
      throw Error(fmt::format("{}: expected {}, got the bare number {}; write it with a unit", field.key,
                              describe_dims(field.accepts), format_compact(q.value, Dim::Number)));
    const double mag = std::fabs(q.value);
    if (mag != 0 && (mag > kMaxMagnitude || mag < kMinMagnitude))
      throw Error(fmt::format("{}: the value is out of the accepted range (1e-21 to 1e21)", field.key));
    check_value(field, q);
    return q;
  } catch (const Error& e) {
    if (!e.origin().empty()) throw;
    throw Error(where, e.what());
  }
}

StepPoints step_points_value(const toml::node& node, const Origin& doc) {
  constexpr std::string_view kExample = "{ 128 = \"35.8 ms\", 256 = \"65.9 ms\" }";
  const auto* table = node.as_table();
  if (!table || table->empty())
    throw Error(at(doc, node.source()),
                fmt::format("model.measured_steps takes a batch size with the step measured there, at one batch "
                            "size or more: {}",
                            kExample));
  StepPoints p;
  for (const auto& [k, v] : *table) {
    const Origin where = at(doc, k.source());
    const std::string_view name = k.str();
    unsigned long batch = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), batch);
    if (ec != std::errc() || end != name.data() + name.size() || batch == 0 || batch > 100'000'000)
      throw Error(where, fmt::format("model.measured_steps: '{}' is not a batch size (a whole number of samples "
                                     "from 1): {}",
                                     echo(name), kExample));
    if (p.count == kMaxStepPoints)
      throw Error(where, fmt::format("model.measured_steps: at most {} batch sizes", kMaxStepPoints));
    const auto* text = v.as_string();
    if (!text)
      throw Error(at(doc, v.source()), fmt::format("model.measured_steps.{}: expected the step's time, or the "
                                                   "samples/s or it/s measured there, as a string: \"35.8 ms\"",
                                                   batch));
    Quantity q;
    try {
      q = parse_quantity_as(text->get(), static_cast<DimSet>((Dim::Duration | Dim::SampleRate) | dims(Dim::StepRate)));
    } catch (const Error& e) {
      throw Error(at(doc, v.source()), fmt::format("model.measured_steps.{}: {}", batch, e.what()));
    }
    if (!(q.value > 0) || !std::isfinite(q.value) || q.value > kMaxMagnitude || q.value < kMinMagnitude)
      throw Error(at(doc, v.source()),
                  fmt::format("model.measured_steps.{}: must be positive, within 1e-21 to 1e21", batch));
    const auto b = static_cast<double>(batch);
    const double seconds = q.dim == Dim::Duration ? q.value : q.dim == Dim::SampleRate ? b / q.value : 1 / q.value;
    for (const StepPoint& other : p.points())
      if (other.batch == b)
        throw Error(where, fmt::format("model.measured_steps: batch size {} is given twice", batch));
    p.at[p.count++] = {b, seconds};
  }
  std::sort(p.at.begin(), p.at.begin() + static_cast<std::ptrdiff_t>(p.count),
            [](const StepPoint& a, const StepPoint& b) { return a.batch < b.batch; });
  for (std::size_t i = 1; i < p.count; ++i)
    if (p.at[i].seconds < p.at[i - 1].seconds)
      throw Error(
          at(doc, node.source()),
          fmt::format("model.measured_steps: the step at batch {} ({}) is shorter than at batch {} ({}): "
                      "a larger batch takes at least as long; keep the points where it does",
                      format_compact(p.at[i].batch, Dim::Number), format_compact(p.at[i].seconds, Dim::Duration),
                      format_compact(p.at[i - 1].batch, Dim::Number),
                      format_compact(p.at[i - 1].seconds, Dim::Duration)));
  return p;
}

std::string requirement_text(const toml::node& v, const Origin& doc, std::string_view key) {
  if (const auto* s = v.as_string()) return s->get();
  if (const auto* i = v.as_integer()) return fmt::format("{}", i->get());
  if (const auto* b = v.as_boolean()) return b->get() ? "true" : "false";
  if (const auto* f = v.as_floating_point()) {
    if (!std::isfinite(f->get())) throw Error(at(doc, v.source()), fmt::format("require.{}: not a finite number", key));
    return fmt::format("{}", f->get());
  }
  if (const auto* arr = v.as_array()) {
    std::string out;
    for (const auto& item : *arr) {
      if (!out.empty()) out += ',';
      out += requirement_text(item, doc, key);
    }
    if (out.empty()) throw Error(at(doc, v.source()), fmt::format("require.{}: the list is empty", key));
    return out;
  }
  throw Error(at(doc, v.source()),
              fmt::format("require.{}: expected a string, a number, true or false, or a list", key));
}

// A key whose name holds a dot was quoted ("a.b" = 1 is one key named a.b, not a.b inside
// [a]): say so rather than suggest the very name written.
std::string key_message(const std::string& written, const std::string& full) {
  if (written.find('.') != std::string::npos && find_field(full))
    return fmt::format(
        "the quoted key \"{}\" is one name with a dot in it, not a key inside a table: write {} = … "
        "without the quotes",
        echo(written), full);
  return unknown_key_message(full);
}

}  // namespace pipesim
