#include "report/colour.hpp"

#include <array>
#include <string_view>

namespace pipesim {

namespace {

constexpr std::string_view kReset = "\x1b[0m";

struct Paint {
  std::string_view prefix;  // at the start of a line
  std::string_view word;    // the word after the prefix that is coloured
  std::string_view colour;
};

// Lines the table renderer starts with these words (check's rows and verdicts, a plan that
// could not be evaluated, diagnose's binding wall).
constexpr std::array kPaints = {
    Paint{"  ", "PASS", "\x1b[32m"},
    Paint{"  ", "FAIL", "\x1b[31m"},
    Paint{"  ", "UNVERIFIED", "\x1b[33m"},
    Paint{"  verdict: ", "PASS", "\x1b[1;32m"},
    Paint{"  verdict: ", "FAIL", "\x1b[1;31m"},
    Paint{"  verdict: ", "UNVERIFIED", "\x1b[1;33m"},
    Paint{"  verdict: ", "ERROR", "\x1b[1;31m"},
};

}  // namespace

std::string coloured(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 256);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string_view line(text.data() + start, end - start);
    bool done = false;
    for (const auto& p : kPaints) {
      if (!line.starts_with(p.prefix)) continue;
      const std::string_view rest = line.substr(p.prefix.size());
      if (!rest.starts_with(p.word) || (rest.size() > p.word.size() && rest[p.word.size()] != ' ')) continue;
      out.append(p.prefix).append(p.colour).append(p.word).append(kReset).append(rest.substr(p.word.size()));
      done = true;
      break;
    }
    // "binding wall   CPU transform, limited by ...: ..." : the stage is bold yellow.
    constexpr std::string_view kWall = "binding wall   ";
    if (!done && line.starts_with(kWall)) {
      const std::string_view rest = line.substr(kWall.size());
      const std::size_t stop = rest.find_first_of(",:\n");
      const std::size_t n = stop == std::string_view::npos ? rest.size() : stop;
      out.append(kWall).append("\x1b[1;33m").append(rest.substr(0, n)).append(kReset).append(rest.substr(n));
      done = true;
    }
    // "name: ERROR" heads a plan that could not be evaluated.
    if (!done && line.ends_with(": ERROR\n")) {
      out.append(line.substr(0, line.size() - 6)).append("\x1b[1;31mERROR").append(kReset).append("\n");
      done = true;
    }
    if (!done) out.append(line);
    start = end;
  }
  return out;
}

}  // namespace pipesim
