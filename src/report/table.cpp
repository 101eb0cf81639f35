// Tables for people: aligned plain text, units chosen for reading.
#include "report/text_report.hpp"

namespace pipesim {

FormatRenderers table_renderers() { return renderers_of<TextRenderer<false>>(); }

}  // namespace pipesim
