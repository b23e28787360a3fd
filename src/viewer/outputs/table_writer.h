// The rows of a table side file (--export, viewer.md §11.8, §11.11, §11.15): one row written
// cell by cell in either format, CSV (the names go to the header only) or JSON lines (one
// object per row), in chunks of about 1 MB.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "viewer/common/json_text.h"
#include "viewer/outputs/export.h"

namespace proton::viewer {

class RowWriter {
 public:
  RowWriter(std::FILE* file, bool csv) : file_(file), csv_(csv) {}

  void Header(const std::vector<std::string>& names) {
    if (!csv_) return;
    for (size_t i = 0; i < names.size(); ++i) {
      if (i > 0) out_ += ',';
      AppendCsvField(out_, names[i]);
    }
    out_ += '\n';
  }
  void Begin() {
    first_ = true;
    out_ += csv_ ? "" : "{";
  }
  void Text(std::string_view name, std::string_view value) {  // a string cell
    Key(name);
    if (csv_)
      AppendCsvField(out_, value);
    else
      AppendJsonString(out_, value);
  }
  void Json(std::string_view name, std::string_view json) {  // path: a JSON list as text
    Key(name);
    if (csv_)
      AppendCsvField(out_, json);
    else
      out_ += json;
  }
  void Number(std::string_view name, double v) {
    Key(name);
    if (csv_)
      AppendCsvNumber(out_, v);
    else
      AppendJsonNumber(out_, v);
  }
  void Bool(std::string_view name, bool v) {  // JSON true/false; CSV true/false, as pandas reads
    Key(name);
    out_ += v ? "true" : "false";
  }
  void Null(std::string_view name) {  // JSON null; CSV an empty field
    Key(name);
    if (!csv_) out_ += "null";
  }
  void End() {
    out_ += csv_ ? "\n" : "}\n";
    if (out_.size() >= kChunk) Drain();
  }
  void Drain() {
    if (!out_.empty()) std::fwrite(out_.data(), 1, out_.size(), file_);
    out_.clear();
  }

 private:
  static constexpr size_t kChunk = size_t{1} << 20;

  void Key(std::string_view name) {
    if (!first_) out_ += ',';
    first_ = false;
    if (csv_) return;
    AppendJsonString(out_, name);
    out_ += ':';
  }

  std::FILE* file_;
  bool csv_;
  bool first_ = true;
  std::string out_;
};

}  // namespace proton::viewer
