// Markdown: the table layout with markdown's markup (headings, bullets, pipe tables), for
// pasting into issues, pull requests and wikis.
#include "report/text_report.hpp"

namespace pipesim {

FormatRenderers markdown_renderers() { return renderers_of<TextRenderer<true>>(); }

}  // namespace pipesim
