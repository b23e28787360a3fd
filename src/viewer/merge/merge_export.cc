// See merge_export.h. Rows are streamed in chunks like ExportTable's; the statistics are
// read from the printed columns, so the table and the printed tree cannot disagree.
#include "viewer/merge/merge_export.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "viewer/common/json_text.h"
#include "viewer/merge/file_name_facts.h"
#include "viewer/merge/merge_stats.h"
#include "viewer/outputs/export.h"
#include "viewer/outputs/output_file.h"
#include "viewer/outputs/output_formats.h"
#include "viewer/outputs/table_writer.h"

namespace proton::viewer {
namespace {

struct Names {
  std::vector<std::string> all;    // the header, in order
  std::vector<std::string> stats;  // per item and stat, in kAllMergeStats order
};

Names ColumnNames(const std::vector<std::string>& items) {
  Names names;
  names.all = {"path", "name", "depth", "file", "file_id", "rank", "phase"};
  names.all.insert(names.all.end(), items.begin(), items.end());
  for (const std::string& item : items) {
    for (const MergeStat stat : kAllMergeStats) names.stats.push_back(item + MergeStatSuffix(stat));
  }
  names.all.insert(names.all.end(), names.stats.begin(), names.stats.end());
  names.all.emplace_back("files");
  return names;
}

double NumberOrNan(const std::optional<int64_t>& v) {
  return v ? static_cast<double>(*v) : kMissing;
}

// The rows of one node: one per file holding it.
void NodeRows(RowWriter& w, const MergedProfiles& m, const Names& names,
              const std::vector<std::string>& items, const std::vector<FileNameFacts>& facts,
              NodeId n, std::string_view path) {
  const ProfileTree& tree = *m.in.tree;
  const NodeId u = m.union_of[n];
  for (size_t f = 0; f < m.store.files.size(); ++f) {
    if (!m.store.Holds(f, u)) continue;
    w.Begin();
    w.Json("path", path);
    w.Text("name", tree.name(n));
    w.Number("depth", tree.depth(n));
    w.Text("file", m.store.files[f]);
    w.Number("file_id", static_cast<double>(f));
    w.Number("rank", NumberOrNan(facts[f].rank));
    w.Number("phase", NumberOrNan(facts[f].phase));
    for (size_t c = 0; c < items.size(); ++c) w.Number(items[c], m.store.Value(f, c, u));
    size_t next = 0;
    for (size_t c = 0; c < items.size(); ++c) {
      for (const MergeStat stat : kAllMergeStats) {
        const size_t column = c * kMergeStatCount + MergePrintPosition(stat);
        w.Number(names.stats[next++], m.in.columns[column][n]);
      }
    }
    w.Number("files", m.in.columns.back()[n]);
    w.End();
  }
}

}  // namespace

Status ExportMergeTable(const std::string& path, const MergedProfiles& merged,
                        const std::vector<std::string>& items, int64_t depth) {
  PROTON_ASSIGN_OR_RETURN(OutputFile file, OutputFile::Create(path));
  RowWriter writer(file.get(), ExportFormatOf(path) == OutputFormat::kCsv);
  const Names names = ColumnNames(items);
  writer.Header(names.all);
  std::vector<FileNameFacts> facts;
  for (const std::string& name : merged.store.files) facts.push_back(ParseFileName(name));
  std::string path_json;
  ForEachExportedRow(*merged.in.tree, depth,
                     [&](NodeId n, const std::vector<std::string_view>& frames) {
                       path_json.clear();
                       AppendJsonPath(path_json, frames);
                       NodeRows(writer, merged, names, items, facts, n, path_json);
                     });
  writer.Drain();
  return file.Commit();
}

}  // namespace proton::viewer
