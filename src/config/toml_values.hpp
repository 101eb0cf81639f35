// TOML values as pipesim's: a field's value from its node, a requirement's text, and why a
// key is not a field. Every error carries the node's position in `doc`.
#pragma once

#include <toml++/toml.h>
#include <string>
#include <string_view>

#include "core/base/error.hpp"
#include "core/base/fields.hpp"
#include "core/base/units.hpp"

namespace pipesim {

// The position of a node of the document `doc`.
Origin at(const Origin& doc, const toml::source_region& r);
// A field's value from its TOML node: a string parsed as --set parses it, a number, a boolean,
// a shape's array; checked against the field's kinds, range and constraint.
Quantity node_value(const FieldSpec& field, const toml::node& node, const Origin& doc);
// model.measured_steps: a table of batch sizes, each with the step measured there: a time ("32.9
// ms"), or the accelerator's samples/s or it/s at that batch ({ 256 = "2470 samples/s" }).
StepPoints step_points_value(const toml::node& node, const Origin& doc);
// A [require] value as text for set_requirement (a number, a string or a list of them).
std::string requirement_text(const toml::node& v, const Origin& doc, std::string_view key);
// Why a TOML key is not a field (a quoted dotted key is said to be one).
std::string key_message(const std::string& written, const std::string& full);

}  // namespace pipesim
