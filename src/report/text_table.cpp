#include "report/text_table.hpp"

#include <algorithm>
#include <string>

namespace pipesim {

TextTable::TextTable(std::vector<Column> columns, bool markdown, std::string indent)
    : columns_(std::move(columns)), markdown_(markdown), indent_(std::move(indent)) {
  for (const auto& c : columns_) widths_.push_back(std::max(c.min_width, c.header.size()));
}

void TextTable::header(Out& o) const {
  std::vector<std::string> head;
  bool any = false;
  for (const auto& c : columns_) {
    head.push_back(c.header);
    any |= !c.header.empty();
  }
  if (any || markdown_) line(o, head);
  if (markdown_) {
    std::string sep = "|";
    for (const auto& c : columns_) sep += c.right ? "---:|" : "---|";
    o.write(sep);
    o.put('\n');
  }
}

namespace {

// A Markdown table cell: a '|' in it (a plan's file name, say) would end the cell.
std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

void TextTable::line(Out& o, const std::vector<std::string>& cells) const {
  // Cells are ASCII (units are written "us", not "µs"), so a byte is a column: pad by hand,
  // without fmt's display-width pass over every code point.
  std::string text = markdown_ ? "|" : indent_;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    // Escaped into a copy only where a Markdown cell holds a '|': sweep rows pass here by the million.
    std::string escaped;
    const bool escape = markdown_ && cells[i].find('|') != std::string::npos;
    if (escape) escaped = markdown_cell(cells[i]);
    const std::string& cell = escape ? escaped : cells[i];
    const std::size_t w = i < widths_.size() ? widths_[i] : 0;
    const std::size_t pad = w > cell.size() ? w - cell.size() : 0;
    if (markdown_)
      text += ' ';
    else if (i)
      text += "  ";
    const bool right = i < columns_.size() && columns_[i].right;
    if (right) text.append(pad, ' ');
    text += cell;
    if (!right) text.append(pad, ' ');
    if (markdown_) text += " |";
  }
  if (!markdown_)
    while (!text.empty() && text.back() == ' ') text.pop_back();
  text += '\n';
  o.write(text);
}

void TextTable::render(Out& o) {
  for (const auto& row : rows_)
    for (std::size_t i = 0; i < row.size() && i < widths_.size(); ++i) widths_[i] = std::max(widths_[i], row[i].size());
  header(o);
  for (const auto& row : rows_) line(o, row);
}

}  // namespace pipesim
