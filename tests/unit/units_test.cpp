#include <doctest/doctest.h>

#include "core/units.hpp"

TEST_CASE("placeholder") { CHECK(pipesim::parse_quantity("2 GB/s").value == 2e9); }
