// What `pipesim attribute` prints: the stage costs of the caching experiments as a table with the
// binding stage in words, as the TOML fragment that reproduces every measured rate, or as JSON.
// Computes nothing.
#pragma once

#include <functional>
#include <string>

#include "core/attribute.hpp"

namespace pipesim {

std::string attribution_table(const Attribution& a);
std::string attribution_toml(const Attribution& a);
std::string attribution_json(const Attribution& a);

// The fields set in `s` as TOML tables in registry order, each value with its unit, followed by
// `comment(field)` when that is not empty.
std::string scenario_toml(const Scenario& s, const std::function<std::string(Field)>& comment);

}  // namespace pipesim
