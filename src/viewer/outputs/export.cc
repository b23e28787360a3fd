// See export.h. Rows are streamed in chunks, so that a 10-million-node export needs no more
// memory than printing does. Names are the stored names (-f does not apply): the table is
// for programs, which want them whole.
#include "viewer/outputs/export.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "viewer/common/json_text.h"
#include "viewer/outputs/output_file.h"
#include "viewer/outputs/output_formats.h"

namespace proton::viewer {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

class TableWriter {
 public:
  TableWriter(std::FILE* file, const PrintInput& in, const std::vector<std::string>& items,
              bool csv)
      : file_(file), in_(in), items_(items), csv_(csv) {}

  void Header() {
    if (!csv_) return;
    out_ += "path,name,depth";
    for (const std::string& item : items_) {
      out_ += ',';
      AppendCsvField(out_, item);
    }
    out_ += '\n';
  }

  void Row(NodeId n, const std::vector<std::string_view>& path) {
    const ProfileTree& tree = *in_.tree;
    scratch_.clear();
    AppendJsonPath(scratch_, path);
    if (csv_) {
      AppendCsvField(out_, scratch_);
      out_ += ',';
      AppendCsvField(out_, tree.name(n));
      out_ += ',' + std::to_string(tree.depth(n));
      for (const auto& column : in_.columns) {
        out_ += ',';
        AppendCsvNumber(out_, column[n]);
      }
    } else {
      out_ += "{\"path\":" + scratch_ + ",\"name\":";
      AppendJsonString(out_, tree.name(n));
      out_ += ",\"depth\":" + std::to_string(tree.depth(n));
      for (size_t c = 0; c < in_.columns.size(); ++c) {
        out_ += ',';
        AppendJsonString(out_, items_[c]);
        out_ += ':';
        AppendJsonNumber(out_, in_.columns[c][n]);
      }
      out_ += '}';
    }
    out_ += '\n';
    if (out_.size() >= kChunk) Drain();
  }

  void Drain() {
    if (!out_.empty()) std::fwrite(out_.data(), 1, out_.size(), file_);
    out_.clear();
  }

 private:
  std::FILE* file_;
  const PrintInput& in_;
  const std::vector<std::string>& items_;
  bool csv_;
  std::string out_;
  std::string scratch_;
};

}  // namespace

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
void AppendCsvField(std::string& out, std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += s;
    return;
  }
  out += '"';
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

// JSON has no NaN or infinity: both are null (pandas reads null as NaN).
void AppendJsonNumber(std::string& out, double v) {
  if (std::isfinite(v))
    AppendShortest(out, v);
  else
    out += "null";
}

// CSV: NaN is an empty field; infinities are "inf" and "-inf", as pandas reads them.
void AppendCsvNumber(std::string& out, double v) {
  if (std::isnan(v)) return;
  if (std::isinf(v))
    out += v > 0 ? "inf" : "-inf";
  else
    AppendShortest(out, v);
}

Status ExportTable(const std::string& path, const PrintInput& in,
                   const std::vector<std::string>& items, int64_t depth) {
  PROTON_ASSIGN_OR_RETURN(OutputFile file, OutputFile::Create(path));
  TableWriter writer(file.get(), in, items, ExportFormatOf(path) == OutputFormat::kCsv);
  writer.Header();
  ForEachExportedRow(*in.tree, depth, [&](NodeId n, const std::vector<std::string_view>& frames) {
    writer.Row(n, frames);
  });
  writer.Drain();
  return file.Commit();
}

}  // namespace proton::viewer
