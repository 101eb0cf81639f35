// Helpers the stage resolvers share: required fields and fields that need another.
#pragma once

#include <initializer_list>
#include <string_view>

#include "core/base/fields.hpp"

namespace pipesim {

// Throws FieldError naming f when it is not set.
void require(const Scenario& s, Field f, std::string_view why);
// Throws FieldError for the first of `fields` that is set, since `needed` is not.
void forbid_without(const Scenario& s, std::initializer_list<Field> fields, std::string_view needed,
                    std::string_view what);

}  // namespace pipesim
