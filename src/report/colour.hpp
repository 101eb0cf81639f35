// Colour for a terminal: the table format's words PASS, FAIL and ERROR and the binding wall,
// coloured after the text is laid out (escape codes take no column, so widths are decided
// without them). Only for the `table` format on a terminal that wants it (cli decides:
// NO_COLOR, CLICOLOR_FORCE, a terminal).
#pragma once

#include <string>

namespace pipesim {

// `text` as the table renderer wrote it, with ANSI colours: PASS green, FAIL and ERROR red,
// the verdict bold, and the binding stage of a diagnosis (its "binding wall" line) bold yellow.
std::string coloured(const std::string& text);

}  // namespace pipesim
