#include "config/toml_values.hpp"

#include <fmt/format.h>
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
