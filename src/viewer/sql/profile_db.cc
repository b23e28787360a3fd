// See profile_db.h.
#include "viewer/sql/profile_db.h"

#include "util/out_of_memory.h"
#include "viewer/common/quoted.h"
#include "viewer/merge/merge_load.h"
#include "viewer/merge/merge_source.h"
#include "viewer/outputs/output_file.h"
#include "viewer/sql/profile_db_writer.h"
#include "viewer/sql/trace_events.h"

namespace proton::viewer {

Status ConfigureBulkWrite(SqlDatabase& db) {
  // 64 KiB pages (SQLite's largest): fewer page splits and writes for rows appended in key
  // order. 64 MiB of page cache: what index creation sorts in memory before it spills to
  // temporary files; the database itself is written out as pages fill.
  return db.Exec(
      "PRAGMA page_size = 65536; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
      "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536; PRAGMA temp_store = FILE;");
}

Status BuildProfileDb(SqlDatabase& db, const std::vector<std::string>& files,
                      const std::vector<std::string>& items) {
  // Every FILE goes in at its position: tree profiles first (read a few at a time, as
  // --merge reads them), then traces, one after another, streamed into events.
  std::vector<std::string> trees;
  std::vector<size_t> tree_ids;
  std::vector<size_t> trace_ids;
  for (size_t i = 0; i < files.size(); ++i) {
    if (IsTraceFile(files[i])) {
      trace_ids.push_back(i);
    } else {
      trees.push_back(files[i]);
      tree_ids.push_back(i);
    }
  }
  ProfileDbWriter writer(db);
  PROTON_RETURN_IF_ERROR(writer.Begin());
  MergeSourceCheck check;
  const auto prepare = [&](LoadedFile& file) -> Status {
    PROTON_ASSIGN_OR_RETURN(file.columns, ResolveColumns(file.tree, items, file.display_name));
    MergeDuplicates(file.tree);
    return Status();
  };
  const auto add = [&](size_t index, LoadedFile& file) -> Status {
    if (!file.empty) PROTON_RETURN_IF_ERROR(check.Check(std::move(file.source)));
    PROTON_RETURN_IF_ERROR(file.prepared);
    return writer.AddFile(static_cast<int64_t>(tree_ids[index]), file);
  };
  PROTON_RETURN_IF_ERROR(ForEachLoadedFile(trees, prepare, add));
  for (const size_t i : trace_ids) {
    PROTON_RETURN_IF_ERROR(WriteTraceFile(db, static_cast<int64_t>(i), files[i]));
  }
  return CatchOutOfMemory("writing the database", [&] { return writer.Finish(); });
}

Status ExportSqlite(const std::string& path, const std::vector<std::string>& files,
                    const std::vector<std::string>& items,
                    const std::function<Status(SqlDatabase&)>& then) {
  if (IsWrittenInPlace(path)) {  // not waited for, as a FIFO would be
    return Status::Error("cannot write " + Quoted(path) +
                         ": an SQLite database must be a regular file");
  }
  PROTON_ASSIGN_OR_RETURN(OutputFile file, OutputFile::Create(path));
  {
    PROTON_ASSIGN_OR_RETURN(SqlDatabase db, SqlDatabase::Open(file.temp_path()));
    PROTON_RETURN_IF_ERROR(ConfigureBulkWrite(db));
    const Status built = BuildProfileDb(db, files, items);
    // The statements are ours: what SQLite refuses while writing is the file's failure
    // (a full disk, a file size limit).
    if (!built.ok() && built.kind() != ErrorKind::kOutOfMemory &&
        built.message().rfind(kSqlErrorPrefix, 0) == 0) {
      return Status::Error("cannot write " + Quoted(path) + ": " +
                           std::string(SqliteMessage(built)));
    }
    PROTON_RETURN_IF_ERROR(built);
    if (then) PROTON_RETURN_IF_ERROR(then(db));
    // Closing writes what the page cache still holds: its failure (a full disk) is the
    // export's.
    if (Status closed = db.Close(); !closed.ok()) {
      return Status::Error("cannot write " + Quoted(path) + ": " +
                           std::string(SqliteMessage(closed)));
    }
  }
  return file.Commit();
}

}  // namespace proton::viewer
