// Fuzzes whole sweeps: a scenario (TOML), then after a line "%%" one axis per line
// (KEY=RANGE) and optionally a line "cost". The grid is checked as `pipesim sweep` checks it,
// then written in every format with one thread and with two; the invariants: the same bytes
// for any number of threads, one row per point (JSON rows, CSV lines), every CSV row as wide
// as its header, JSON that parses, no inf or nan.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/sweep_rows.hpp"
#include "core/analyses/sweep.hpp"
#include "exercise.hpp"

using namespace pipesim;

namespace {

// Kept small so that each input runs in milliseconds.
constexpr std::size_t kMaxFuzzPoints = 512;

std::string write(SweepRenderer& renderer, const Scenario& base, const std::vector<Axis>& axes,
                  const SweepLayout& layout, const SweepRun& run, SweepSummary* summary) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* f = open_memstream(&buffer, &size);
  if (!f) std::abort();
  *summary = write_sweep(renderer, f, base, axes, layout, run);
  std::fclose(f);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto split = input.find("\n%%\n");
  if (split == std::string_view::npos) return 0;
  LoadedScenario loaded;
  std::vector<Axis> axes;
  bool cost = false;
  std::size_t points = 0;
  try {
    loaded = load_scenario_text(input.substr(0, split), Origin::file("fuzz.toml"), "/nonexistent-pipesim-fuzz");
    std::string_view rest = input.substr(split + 4);
    for (int n = 0; n < 4 && !rest.empty(); ++n) {
      const auto nl = rest.find('\n');
      const std::string_view line = rest.substr(0, nl);
      if (line == "cost") {
        cost = true;
      } else if (const auto eq = line.find('='); eq != std::string_view::npos) {
        axes.push_back(parse_axis(line.substr(0, eq), line.substr(eq + 1)));
      }
      if (nl == std::string_view::npos) break;
      rest.remove_prefix(nl + 1);
    }
    if (axes.empty()) return 0;
    points = grid_size(axes);
  } catch (const Error&) {
    return 0;
  }
  if (points > kMaxFuzzPoints) return 0;
  loaded.name = "fuzzed sweep";  // names are the user's words (see exercise.hpp)
  loaded.description.clear();
  std::size_t valid = 0;
  try {
    valid = first_valid_point(loaded.scenario, axes);
  } catch (const Error&) {
    return 0;  // no point is valid: `sweep` exits 2 before writing
  }
  const GridColumns columns = grid_columns(loaded.scenario, axes, valid);
  if (cost && !columns.priced) cost = false;
  const SweepLayout layout = sweep_layout(axes, first_point(loaded.scenario, axes), columns, cost);
  for (Format format : {Format::Table, Format::Json, Format::Csv, Format::Markdown}) {
    SweepSummary one, two;
    // Each point diagnosed where its rows carry the fixes (JSON), as `pipesim sweep` runs it.
    const bool diagnose_points = format == Format::Json;
    const std::string a =
        write(*sweep_renderer(format), loaded.scenario, axes, layout, SweepRun{1, diagnose_points, nullptr}, &one);
    const std::string b =
        write(*sweep_renderer(format), loaded.scenario, axes, layout, SweepRun{2, diagnose_points, nullptr}, &two);
    if (a != b) fuzz::die("the output depends on the number of threads", std::string(format_name(format)));
    if (one.invalid != two.invalid || one.first_invalid != two.first_invalid)
      fuzz::die("the invalid points depend on the number of threads", std::string(format_name(format)));
    if (one.invalid >= points) fuzz::die("every point invalid after a valid one was found", a);
    fuzz::expect_clean(a, format_name(format));
    if (format == Format::Json) {
      std::size_t rows = 0;
      for (std::size_t at = a.find("{\"inputs\""); at != std::string::npos; at = a.find("{\"inputs\"", at + 1)) ++rows;
      if (rows != points) fuzz::die("JSON rows are not one per point", a);
    }
    if (format == Format::Csv) {
      test::CsvCheck c;
      c.parse(a);
      if (c.rows.size() != points + 1) fuzz::die("CSV rows are not one per point", a);
    }
  }
  return 0;
}
