// See profile_db_writer.h.
#include "viewer/sql/profile_db_writer.h"

#include <cmath>

#include "viewer/merge/file_name_facts.h"
#include "viewer/sql/batch_insert.h"
#include "viewer/sql/frame_facts.h"
#include "viewer/sql/sql_schema.h"

namespace proton::viewer {
namespace {

constexpr int kFrameColumns = 6;

void BindOptional(SqlStatement& s, int index, const std::optional<int64_t>& v) {
  if (v)
    s.BindInt(index, *v);
  else
    s.BindNull(index);
}

// A device field: an integer where it is one (they all are in Proton's files), NULL when
// absent.
void BindDeviceNumber(SqlStatement& s, int index, double v) {
  if (std::isnan(v))
    s.BindNull(index);
  else if (v == std::floor(v) && std::fabs(v) < 9.2e18)
    s.BindInt(index, static_cast<int64_t>(v));
  else
    s.BindDouble(index, v);
}

// Per union frame, its position in the printed tree (viewer.md §7.3).
std::vector<int64_t> PrintOrder(const MergeUnion& merged) {
  std::vector<int64_t> order(merged.size());
  int64_t next = 0;
  for (const NodeId u : merged.SortedPreOrder()) order[u] = next++;
  return order;
}

}  // namespace

Status ProfileDbWriter::Begin() {
  PROTON_RETURN_IF_ERROR(db_.Exec("BEGIN"));
  PROTON_RETURN_IF_ERROR(CreateTables(db_));
  PROTON_RETURN_IF_ERROR(columns_.AddCommon(db_));
  PROTON_ASSIGN_OR_RETURN(file_insert_,
                          db_.Prepare("INSERT INTO files VALUES (?,?,?,?,?,?,?,?,?,?)"));
  PROTON_ASSIGN_OR_RETURN(device_insert_,
                          db_.Prepare("INSERT OR REPLACE INTO devices VALUES (?,?,?,?,?,?,?,?)"));
  return Status();
}

Status ProfileDbWriter::WriteFileRow(int64_t file_id, const LoadedFile& file) {
  const FileNameFacts facts = ParseFileName(file.display_name);
  SqlStatement& s = file_insert_;
  s.BindInt(1, file_id);
  s.BindText(2, file.display_name);
  BindOptional(s, 3, facts.rank);
  BindOptional(s, 4, facts.phase);
  BindOptional(s, 5, facts.pid);
  if (file.empty)
    s.BindNull(6);
  else
    s.BindText(6, file.source.python ? "python" : "scopes");
  s.BindInt(7, static_cast<int64_t>(file.tree.size()));
  s.BindText(8, "tree");
  s.BindInt(9, 0);
  s.BindNull(10);
  return s.Run();
}

Status ProfileDbWriter::WriteDevices(int64_t file_id, const DeviceTable& devices) {
  SqlStatement& s = device_insert_;
  for (const DeviceTable::Entry& e : devices.entries) {
    s.BindInt(1, file_id);
    s.BindText(2, e.device_type);
    s.BindText(3, e.device_index);
    if (e.info.has_arch)
      s.BindText(4, e.info.arch);
    else
      s.BindNull(4);
    BindDeviceNumber(s, 5, e.info.num_sms);
    BindDeviceNumber(s, 6, e.info.clock_rate);
    BindDeviceNumber(s, 7, e.info.memory_clock_rate);
    BindDeviceNumber(s, 8, e.info.bus_width);
    PROTON_RETURN_IF_ERROR(s.Run());
  }
  return Status();
}

Status ProfileDbWriter::AddFile(int64_t file_id, const LoadedFile& file) {
  PROTON_RETURN_IF_ERROR(WriteFileRow(file_id, file));
  if (file.empty) return Status();
  PROTON_RETURN_IF_ERROR(WriteDevices(file_id, file.tree.devices()));
  const std::vector<NodeId> union_id = union_.Map(file.tree);
  kernel_.resize(union_.size(), 0);
  const KernelMarks marks(file.tree);
  for (NodeId n = 0; n < file.tree.size(); ++n) {
    if (marks.IsKernel(n)) kernel_[union_id[n]] = 1;
  }
  return values_.Write(file_id, file, union_id);
}

Status ProfileDbWriter::WriteFrames(FrameNameForms& forms) {
  const std::vector<int64_t> print_order = PrintOrder(union_);
  std::vector<int64_t> depth(union_.size(), 0);
  BatchInsert insert(db_, "frames", kFrameColumns);
  PROTON_RETURN_IF_ERROR(insert.Start(union_.size()));
  for (NodeId u = 0; u < union_.size(); ++u) {
    const NodeId parent = union_.parent(u);
    if (parent != kNoNode) depth[u] = depth[parent] + 1;
    const std::string_view name = union_.name(u);
    const FrameClass kind = KindOfFrame(parent == kNoNode, name, kernel_[u] != 0);
    forms.Note(name, kind == FrameClass::kKernel);
    PROTON_RETURN_IF_ERROR(insert.Add([&](SqlStatement& s, int first) {
      s.BindInt(first, u);
      if (parent != kNoNode) s.BindInt(first + 1, parent);
      s.BindText(first + 2, name);
      s.BindInt(first + 3, depth[u]);
      s.BindText(first + 4, FrameClassName(kind));
      s.BindInt(first + 5, print_order[u]);
    }));
  }
  return Status();
}

Status ProfileDbWriter::WriteNames(const FrameNameForms& forms) {
  PROTON_ASSIGN_OR_RETURN(SqlStatement insert, db_.Prepare("INSERT INTO names VALUES (?, ?, ?)"));
  for (const auto& [name, f] : forms.names()) {
    if (!f.demangled && !f.kernel) continue;  // a C++ name that does not demangle
    insert.BindText(1, name);
    if (f.demangled)
      insert.BindText(2, *f.demangled);
    else
      insert.BindNull(2);
    if (f.kernel)
      insert.BindText(3, f.family);
    else
      insert.BindNull(3);
    PROTON_RETURN_IF_ERROR(insert.Run());
  }
  return Status();
}

Status ProfileDbWriter::Finish() {
  FrameNameForms forms;
  PROTON_RETURN_IF_ERROR(WriteFrames(forms));
  PROTON_RETURN_IF_ERROR(WriteNames(forms));
  PROTON_RETURN_IF_ERROR(columns_.WriteCatalogue(db_));
  PROTON_RETURN_IF_ERROR(CreateIndexes(db_));
  PROTON_RETURN_IF_ERROR(CreateViews(db_, columns_.Names()));
  return db_.Exec("COMMIT");
}

}  // namespace proton::viewer
