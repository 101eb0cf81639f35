// Markdown: the table layout with markdown's markup (headings, bullets, pipe tables), for
// pasting into issues, pull requests and wikis.
#include "report/text_report.hpp"

namespace pipesim {

std::unique_ptr<Renderer> make_markdown_renderer() { return std::make_unique<TextRenderer>(true); }

}  // namespace pipesim
