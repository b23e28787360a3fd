// See sql_schema.h. The column comments are formats.md §8's, short.
#include "viewer/sql/sql_schema.h"

namespace proton::viewer {
namespace {

constexpr const char* kTables = R"sql(
CREATE TABLE files (
  file_id INTEGER PRIMARY KEY,   -- position among the FILEs, from 0
  file TEXT NOT NULL,            -- as given; <stdin> for -
  rank INTEGER,                  -- from NAME.rank<R>., else NULL
  phase INTEGER,                 -- from NAME.part_<P>., else NULL
  pid INTEGER,                   -- from NAME.pid<P>., else NULL
  context TEXT,                  -- 'scopes' or 'python'; NULL for a file without data
  frames INTEGER NOT NULL,       -- frames it holds (0: a profile without data, a trace)
  kind TEXT NOT NULL,            -- tree, chrome_trace or perfetto_trace
  events INTEGER NOT NULL,       -- rows of events it holds (0 for a tree profile)
  absolute_time INTEGER          -- a trace's: 1 when its times are CLOCK_REALTIME ns
);
CREATE TABLE devices (
  file_id INTEGER NOT NULL,
  device_type TEXT NOT NULL,
  device_index TEXT NOT NULL,
  arch TEXT, num_sms INTEGER, clock_rate INTEGER, memory_clock_rate INTEGER, bus_width INTEGER,
  PRIMARY KEY (file_id, device_type, device_index)
) WITHOUT ROWID;
CREATE TABLE frames (
  frame_id INTEGER PRIMARY KEY,  -- node of the union tree of every file
  parent_id INTEGER,             -- NULL for the root
  name TEXT NOT NULL,            -- as stored
  depth INTEGER NOT NULL,        -- 0 for the root
  kind TEXT NOT NULL,            -- root, scope, python, graph or kernel
  print_order INTEGER NOT NULL   -- position in the printed tree (sorted children)
);
CREATE TABLE names (
  name TEXT PRIMARY KEY,         -- a frame name that is a kernel's or a C++ name
  demangled TEXT,                -- --demangle's text of a C++ name; else NULL
  family TEXT                    -- a kernel's: the short C++ name, or the name without its
                                 -- Triton suffixes; NULL for a name that is no kernel's
) WITHOUT ROWID;
-- One row per frame a file holds; the metric columns are added as the files bring them.
CREATE TABLE frame_values (
  file_id INTEGER NOT NULL,
  frame_id INTEGER NOT NULL,
  PRIMARY KEY (file_id, frame_id)
) WITHOUT ROWID;
CREATE TABLE metrics (
  metric TEXT NOT NULL,          -- the raw key, or the -m item as typed
  value_column TEXT NOT NULL,    -- frame_values column: the value the viewer shows
  exclusive_column TEXT,         -- frame_values column: the frame's own value
  derived INTEGER NOT NULL,      -- 1 for an -m item computed by the viewer
  files INTEGER NOT NULL,        -- files that list it (0: a column every database has)
  inclusive_files INTEGER NOT NULL  -- files summing it up the tree (listed on their root)
);
CREATE TABLE events (
  event_id INTEGER PRIMARY KEY,  -- in file order, then the trace's order
  file_id INTEGER NOT NULL,
  kind TEXT NOT NULL,            -- kernel, scope, metric, launch, flow or other
  name TEXT NOT NULL,
  frame_id INTEGER,              -- its call path in frames, when known (not yet: NULL)
  start_ns INTEGER NOT NULL,     -- CLOCK_REALTIME ns when files.absolute_time, else from
  end_ns INTEGER NOT NULL,       -- the trace's own zero
  duration_ns INTEGER GENERATED ALWAYS AS (end_ns - start_ns) VIRTUAL,
  device INTEGER,                -- the GPU, when the lane's name says it
  stream INTEGER,                -- a GPU (or graph) lane's stream
  thread INTEGER,                -- a CPU lane's thread
  lane TEXT,                     -- the lane's (track's) name
  correlation INTEGER,           -- launch->kernel flow id, as the file numbers it
  metrics TEXT,                  -- JSON object of the event's metrics
  category TEXT,                 -- as the file says
  lane_kind TEXT,                -- cpu_thread, gpu_stream, graph_stream or other
  call_stack TEXT                -- JSON list of names from ROOT to the event
);
)sql";

constexpr const char* kIndexes = R"sql(
CREATE INDEX frames_parent ON frames (parent_id);
CREATE INDEX frame_values_frame ON frame_values (frame_id, file_id);
CREATE INDEX events_file_start ON events (file_id, start_ns);
CREATE INDEX events_name ON events (name);
CREATE INDEX events_frame ON events (frame_id);
CREATE INDEX events_correlation ON events (correlation, file_id);
)sql";

// A frame's path from the root as a JSON list, as --export's path column.
constexpr const char* kFramePaths = R"sql(
CREATE VIEW frame_paths (frame_id, path) AS
WITH RECURSIVE p (frame_id, path) AS (
  SELECT frame_id, json_array(name) FROM frames WHERE parent_id IS NULL
  UNION ALL
  SELECT f.frame_id, json_insert(p.path, '$[#]', f.name) FROM frames f JOIN p ON f.parent_id = p.frame_id
) SELECT frame_id, path FROM p;
)sql";

// One row per frame and file, as --export's JSON lines of a merge: the frame's and the file's
// columns, then every metric column.
std::string FrameRowsView(const std::vector<MetricColumnNames>& columns) {
  std::string sql =
      "CREATE VIEW frame_rows AS SELECT v.file_id, fl.file, fl.rank, fl.phase, f.frame_id, "
      "f.parent_id, f.name, n.demangled, n.family, f.depth, f.kind, f.print_order";
  for (const MetricColumnNames& c : columns) {
    sql += ", v." + QuoteSqlName(c.value);
    if (!c.exclusive.empty()) sql += ", v." + QuoteSqlName(c.exclusive);
  }
  return sql +
         " FROM frame_values v JOIN frames f USING (frame_id) JOIN files fl USING (file_id) "
         "LEFT JOIN names n ON n.name = f.name;";
}

// The long form: one row per frame, file and metric.
std::string MetricValuesView(const std::vector<MetricColumnNames>& columns) {
  std::string sql = "CREATE VIEW metric_values (file_id, frame_id, metric, value, exclusive) AS ";
  if (columns.empty()) return sql + "SELECT NULL, NULL, NULL, NULL, NULL WHERE 0;";
  for (size_t i = 0; i < columns.size(); ++i) {
    const MetricColumnNames& c = columns[i];
    if (i > 0) sql += " UNION ALL ";
    const std::string value = QuoteSqlName(c.value);
    const std::string exclusive = c.exclusive.empty() ? "NULL" : QuoteSqlName(c.exclusive);
    sql += "SELECT file_id, frame_id, " + QuoteSqlText(c.metric) + ", " + value + ", " + exclusive +
           " FROM frame_values WHERE " + value + " IS NOT NULL";
    if (!c.exclusive.empty()) sql += " OR " + exclusive + " IS NOT NULL";
  }
  return sql + ";";
}

}  // namespace

Status CreateTables(SqlDatabase& db) {
  PROTON_RETURN_IF_ERROR(db.Exec(kTables));
  return db.Exec("PRAGMA user_version = " + std::to_string(kProfileSchemaVersion));
}

Status CreateIndexes(SqlDatabase& db) { return db.Exec(kIndexes); }

Status CreateViews(SqlDatabase& db, const std::vector<MetricColumnNames>& columns) {
  PROTON_RETURN_IF_ERROR(db.Exec(kFramePaths));
  PROTON_RETURN_IF_ERROR(db.Exec(FrameRowsView(columns)));
  return db.Exec(MetricValuesView(columns));
}

}  // namespace proton::viewer
