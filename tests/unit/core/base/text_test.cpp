#include <doctest/doctest.h>

#include <array>
#include <string>
#include <string_view>

#include "core/base/text.hpp"

using namespace pipesim;

TEST_CASE("edit distance counts a swap of neighbours as one edit") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("corse", "cores") == 1);
  CHECK(edit_distance("fp33", "fp32") == 1);
  CHECK(edit_distance("ab", "ba") == 1);
  CHECK(edit_distance("abc", "ca") == 3);  // optimal string alignment: no edit of a swapped pair
}

TEST_CASE("closest suggests typos, not names that share a section") {
  constexpr std::array<std::string_view, 4> keys{"storage.iops", "storage.read_bandwidth", "cpu.cores", "cpu.tdp"};
  CHECK(closest("cpu.corse", keys) == "cpu.cores");
  CHECK(closest("storage.read_bandwith", keys) == "storage.read_bandwidth");
  CHECK(closest("storage.iosp", keys) == "storage.iops");
  CHECK(closest("storage.xyz", keys).empty());
  CHECK(closest("cpu.x", keys).empty());
  CHECK(closest("zzzzzzzzz", keys).empty());
  constexpr std::array<std::string_view, 3> names{"fp32", "fp16", "bf16"};
  CHECK(closest("fp33", names) == "fp32");
  CHECK(closest("int4", names).empty());
  CHECK(did_you_mean("fp33", names) == "; did you mean 'fp32'?");
  CHECK(did_you_mean("int4", names).empty());
}

TEST_CASE("did_you_mean_name: by prefix, then substring, then edit distance") {
  constexpr std::array<std::string_view, 5> presets{"dgx-h100", "h100-pcie", "h100-sxm", "a100-40gb-sxm", "nvme-gen4"};
  // Those that start with the word come first, then those that hold it.
  CHECK(did_you_mean_name("H100", presets) == "; did you mean one of 'h100-pcie', 'h100-sxm', 'dgx-h100'?");
  CHECK(did_you_mean_name("h100", presets, 2) == "; did you mean one of 'h100-pcie', 'h100-sxm' (and 1 more)?");
  CHECK(did_you_mean_name("a100", presets) == "; did you mean 'a100-40gb-sxm'?");
  // No name holds it: a typo's nearest name, or nothing.
  CHECK(did_you_mean_name("nvme-gne4", presets) == "; did you mean 'nvme-gen4'?");
  CHECK(did_you_mean_name("zzzz", presets).empty());
  // One letter is too short to search for.
  CHECK(did_you_mean_name("h", presets).empty());
}

TEST_CASE("a long word costs no more than the candidates") {
  constexpr std::array<std::string_view, 1> keys{"cpu.cores"};
  CHECK(closest(std::string(1'000'000, 'a'), keys).empty());
}

TEST_CASE("echo bounds and escapes what it repeats") {
  CHECK(echo("plain") == "plain");
  CHECK(printable("a\x1b[31mb") == "a\\x1b[31mb");
  CHECK(valid_utf8("a\xff") == "a\xEF\xBF\xBD");
  const std::string shown = echo(std::string(1000, 'k'));
  CHECK(shown.size() < 120);
  CHECK(shown.find("1000 bytes") != std::string::npos);
}

TEST_CASE("wrap: fills lines to the width, breaking at spaces only") {
  CHECK(wrap("one two three four", 9) == "one two\nthree\nfour");
  CHECK(wrap("one two\nthree four five\n", 10) == "one two\nthree four\nfive\n");
  CHECK(wrap("a verylongwordindeed b", 6) == "a\nverylongwordindeed\nb");
  CHECK(wrap("", 10).empty());
  CHECK(wrap("caf\u00e9 caf\u00e9", 9) == "caf\u00e9 caf\u00e9");  // 9 code points, 11 bytes
}

TEST_CASE("wrap_hanging: continuation lines hang under the text after the prefix") {
  CHECK(wrap_hanging("  - ", "one two three", 11) == "  - one two\n    three");
  CHECK(wrap_hanging("step  ", "a bb ccc", 9) == "step  a\n      bb\n      ccc");
  CHECK(wrap_hanging("  - ", "averyverylongword x", 8) == "  - averyverylongword\n    x");  // never mid-word
  CHECK(wrap_hanging("- ", "a b\nc", 80) == "- a b\n  c");
  CHECK(wrap_hanging("- ", "", 80) == "");
  // "key = value" is never split.
  CHECK(wrap_hanging("", "set transform.device = gpu now", 24) == "set\ntransform.device = gpu\nnow");
  CHECK(wrap("a = b", 3) == "a = b");
}

TEST_CASE("wrap: a number and its unit stay on one line") {
  CHECK(wrap("the dataset grows to 192.9 GB", 25) == "the dataset grows to\n192.9 GB");
  CHECK(wrap("throughput 5,000 samples/s (then", 20) == "throughput\n5,000 samples/s\n(then");
  CHECK(wrap("at 12 workers each", 12) == "at 12\nworkers each");  // a count and a noun may part
}

TEST_CASE("commented: every line after '# ', the last one ended") {
  CHECK(commented("a\nb") == "# a\n# b\n");
  CHECK(commented("a\nb\n") == "# a\n# b\n");
  CHECK(commented("a\n\nb") == "# a\n# \n# b\n");
  CHECK(commented("") == "");
}

TEST_CASE("no_workflow_commands: no line starts with \"::\", after any blanks a runner trims") {
  CHECK(no_workflow_commands("plain") == "plain");
  CHECK(no_workflow_commands("a::b\nc") == "a::b\nc");  // only at a line's start
  CHECK(no_workflow_commands("::stop-commands::x") == "\\x3a:stop-commands::x");
  CHECK(no_workflow_commands("ok\n  ::error::x\n") == "ok\n  \\x3a:error::x\n");
  CHECK(no_workflow_commands("\t::x") == "\t\\x3a:x");
  CHECK(no_workflow_commands("\u00a0\u3000::x") == "\u00a0\u3000\\x3a:x");  // Unicode spaces too
  CHECK(no_workflow_commands(":x\n:") == ":x\n:");
}

TEST_CASE("printable escapes the line and paragraph separators") {
  CHECK(printable("a\u2028b\u2029c") == "a\\u2028b\\u2029c");
}
