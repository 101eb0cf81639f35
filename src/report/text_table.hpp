// Aligned tables for people, plain or markdown: one helper for every table pipesim prints.
// Widths are computed first (from headers, minimum widths and, when buffered, every cell),
// then rows are rendered with fmt's dynamic width. Units are ASCII, so bytes = columns.
#pragma once

#include <string>
#include <vector>

#include "report/out.hpp"

namespace pipesim {

struct Column {
  std::string header;
  bool right = false;  // right-aligned (numbers)
  std::size_t min_width = 0;
};

class TextTable {
 public:
  TextTable(std::vector<Column> columns, bool markdown, std::string indent = "");
  // Buffered use: add every row, then render (widths fit every cell).
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void render(Out& o);
  // Streamed use: widths from headers and minimum widths only (cells wider than that push
  // their row out of line). `header` writes the header line (and markdown's separator).
  void header(Out& o) const;
  void line(Out& o, const std::vector<std::string>& cells) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::size_t> widths_;
  std::vector<std::vector<std::string>> rows_;
  bool markdown_;
  std::string indent_;
};

}  // namespace pipesim
