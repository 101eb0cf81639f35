#include <doctest/doctest.h>

#include "core/base/error.hpp"

using namespace pipesim;

TEST_CASE("an origin names its kind of source as errors show it") {
  CHECK(Origin{}.str().empty());
  CHECK(Origin{}.empty());
  CHECK(Origin::file("plan.toml", 3, 7).str() == "plan.toml:3:7");
  CHECK(Origin::file("plan.toml").str() == "plan.toml");
  CHECK(Origin::preset("configs/reference.toml", 2, 1).str() == "preset:configs/reference.toml:2:1");
  CHECK(Origin::preset("configs/reference.toml").label() == "preset:configs/reference.toml");
  CHECK(Origin::standard_input(4, 2).str() == "<stdin>:4:2");
  CHECK(Origin::argument("--set a=b").str() == "--set a=b");
  // A file named like a preset's label or like standard input is still a file.
  CHECK(Origin::file("preset:x").kind == SourceKind::File);
  CHECK(Origin::file("<stdin>").kind == SourceKind::File);
  CHECK_FALSE(Origin::file("<stdin>").same_source(Origin::standard_input()));
  CHECK(Origin::file("a.toml", 1, 1).same_source(Origin::file("a.toml", 9, 9)));
  CHECK(Origin::file("a.toml", 9, 9).at(2, 3).str() == "a.toml:2:3");
  CHECK(Origin::preset("p.toml", 9, 9).whole().str() == "preset:p.toml");
}

TEST_CASE("errors beyond the shown ones are counted at their source, without a position") {
  Error e(Origin::file("a.toml", 1, 1), "first");
  std::vector<Error> more;
  for (int i = 0; i < 30; ++i) more.emplace_back(Origin::file("a.toml", i + 2, 1), "next");
  e.add_more(more);
  const std::string text = e.line();
  CHECK(text.substr(text.rfind('\n') + 1) == "a.toml: error: 12 more errors not shown");
}
