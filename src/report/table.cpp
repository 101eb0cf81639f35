// Tables for people: aligned plain text, units chosen for reading.
#include "report/text_report.hpp"

namespace pipesim {

std::unique_ptr<Renderer> make_table_renderer() { return std::make_unique<TextRenderer>(false); }

}  // namespace pipesim
