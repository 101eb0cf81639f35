#include "cli/completions.hpp"

#include <doctest/doctest.h>

#include "cli/common.hpp"

namespace pipesim {

TEST_CASE("help_choices reads the values an option's help lists") {
  CHECK(help_choices("Output format: table, json, csv or markdown") ==
        std::vector<std::string>{"table", "json", "csv", "markdown"});
  // Parenthesised remarks are not values.
  CHECK(help_choices("Output format: toml (a fragment a scenario can use) or json") ==
        std::vector<std::string>{"toml", "json"});
  CHECK(help_choices("With --log: auto, jsonl, csv or text") ==
        std::vector<std::string>{"auto", "jsonl", "csv", "text"});
  // Sentences, one word, or no list are not choices.
  CHECK(help_choices("Threads that compute rows (default: one per core); the output is the same").empty());
  CHECK(help_choices("Shell: bash").empty());
  CHECK(help_choices("Preset to print").empty());
}

TEST_CASE("command_completion takes every command, option and value kind from the command line") {
  CLI::App app{"pipesim", "pipesim"};
  setup_diagnose(app);
  setup_check(app);
  setup_calibrate(app);
  setup_init(app);
  plain_help(app);  // as main does: the value names completion reads are the help's
  const CommandCompletion root = command_completion(app);
  REQUIRE(root.subcommands.size() == 4);
  CHECK(root.subcommands[3].positional == Completes::Preset);  // init PRESETS...
  CHECK(root.subcommands[3].positional_many);
  const CommandCompletion& diagnose = root.subcommands[0];
  CHECK(diagnose.name == "diagnose");
  CHECK(diagnose.positional == Completes::Scenario);
  CHECK_FALSE(diagnose.positional_many);
  const auto option = [](const CommandCompletion& c, std::string_view name) -> const OptionCompletion* {
    for (const auto& o : c.options)
      for (const auto& n : o.names)
        if (n == name) return &o;
    return nullptr;
  };
  REQUIRE(option(diagnose, "--set") != nullptr);
  CHECK(option(diagnose, "--set")->value == Completes::KeyAssign);
  CHECK(option(diagnose, "--set")->repeatable);
  CHECK(option(diagnose, "--plot")->value == Completes::File);
  CHECK(option(diagnose, "--format")->value == Completes::Choice);
  CHECK(option(diagnose, "--format")->choices == std::vector<std::string>{"table", "json", "csv", "markdown"});
  CHECK(option(diagnose, "--help")->value == Completes::Nothing);
  const CommandCompletion& check = root.subcommands[1];
  CHECK(check.positional_many);
  CHECK(option(check, "--require")->value == Completes::Requirement);
  CHECK(option(check, "--format")->choices.back() == "github");
  const CommandCompletion& calibrate = root.subcommands[2];
  REQUIRE(calibrate.subcommands.size() == 4);
  CHECK(calibrate.subcommands[0].name == "decode");
  CHECK(calibrate.subcommands[0].positional == Completes::Dir);
  CHECK(option(calibrate.subcommands[0], "-o") == option(calibrate.subcommands[0], "--output"));
  CHECK(option(calibrate.subcommands[0], "--save-synthetic")->value == Completes::Dir);
  CHECK(option(calibrate.subcommands[0], "--time")->value == Completes::Text);
  CHECK(calibrate.subcommands[3].name == "loop");
  CHECK(option(calibrate.subcommands[3], "--wait")->choices ==
        std::vector<std::string>{"spin", "yield", "poll", "sleep"});
}

TEST_CASE("every shell's script names each command, preset and key it is given") {
  CompletionData d;
  d.version = "9.9";
  d.root.subcommands.push_back({"diagnose",
                                "One point",
                                {{{"--set"}, "Override", Completes::KeyAssign, {}, true}},
                                Completes::Scenario,
                                {},
                                false,
                                {}});
  d.presets = {"alpha", "beta"};
  d.field_keys = {"pipeline.batch_size"};
  d.requirement_keys = {"min_utilization"};
  for (auto shell : completion_shells()) {
    const std::string s = completion_script(shell, d);
    CAPTURE(shell);
    CHECK(s.find("pipesim 9.9") != std::string::npos);
    CHECK(s.find("diagnose") != std::string::npos);
    CHECK(s.find("alpha beta") != std::string::npos);
    CHECK(s.find("pipeline.batch_size") != std::string::npos);
    CHECK(s.find("min_utilization") != std::string::npos);
  }
  CHECK(completion_script("tcsh", d).empty());
}

}  // namespace pipesim
