// See value_columns.h.
#include "viewer/sql/value_columns.h"

#include "util/printable.h"

namespace proton::viewer {
namespace {

// Names the frame_rows view gives its frame and file columns: a metric may not take them.
constexpr std::string_view kReserved[] = {"file_id", "frame_id",  "file", "rank",
                                          "phase",   "parent_id", "name", "demangled",
                                          "family",  "depth",     "kind", "print_order"};

// Numeric metrics every database has (Proton's kernel metrics and the launch hook's), and
// the strings of every kernel.
constexpr std::string_view kCommonNumeric[] = {"time (ns)", "count",   "bytes",   "flops",
                                               "flops8",    "flops16", "flops32", "flops64"};
constexpr std::string_view kCommonText[] = {"device_id", "device_type"};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

Status ValueColumns::AddCommon(SqlDatabase& db) {
  for (std::string_view name : kReserved) taken_.insert(std::string(name));
  for (std::string_view metric : kCommonNumeric) {
    PROTON_RETURN_IF_ERROR(ForRaw(db, metric, true).status());
  }
  for (std::string_view metric : kCommonText) {
    PROTON_RETURN_IF_ERROR(ForRaw(db, metric, false).status());
  }
  return Status();
}

bool ValueColumns::HasName(std::string_view name) const { return taken_.count(Lower(name)) > 0; }

Result<int> ValueColumns::AddColumn(SqlDatabase& db, std::string_view wanted) {
  // A control character or a byte that is not UTF-8 would make an awkward name to type;
  // such names are written the way the viewer's messages show them.
  const std::string base = PrintableText(wanted);
  std::string name = base;
  for (int n = 2; taken_.count(Lower(name)) > 0; ++n) name = base + " #" + std::to_string(n);
  PROTON_RETURN_IF_ERROR(db.Exec("ALTER TABLE frame_values ADD COLUMN " + QuoteSqlName(name)));
  taken_.insert(Lower(name));
  names_.push_back(std::move(name));
  return static_cast<int>(names_.size() - 1);
}

size_t ValueColumns::Find(std::string_view name, bool derived) {
  auto& index = derived ? item_index_ : raw_index_;
  auto [it, added] = index.try_emplace(std::string(name), metrics_.size());
  if (added) {
    Metric& m = metrics_.emplace_back();
    m.name = std::string(name);
    m.derived = derived;
  }
  return it->second;
}

Result<ValueColumns::Pair> ValueColumns::ForRaw(SqlDatabase& db, std::string_view metric,
                                                bool numeric) {
  Metric& m = metrics_[Find(metric, false)];
  if (m.value == kNone) {
    PROTON_ASSIGN_OR_RETURN(m.value, AddColumn(db, metric));
  }
  if (numeric && m.exclusive == kNone) {
    PROTON_ASSIGN_OR_RETURN(m.exclusive, AddColumn(db, std::string(metric) + " (exc)"));
  }
  return Pair{m.value, m.exclusive};
}

Result<int> ValueColumns::ForItem(SqlDatabase& db, std::string_view item) {
  Metric& m = metrics_[Find(item, true)];
  if (m.value == kNone) {
    PROTON_ASSIGN_OR_RETURN(m.value, AddColumn(db, item));
  }
  return m.value;
}

void ValueColumns::CountFile(std::string_view metric, bool inclusive) {
  Metric& m = metrics_[Find(metric, false)];
  ++m.files;
  if (inclusive) ++m.inclusive_files;
}

void ValueColumns::CountItemFile(std::string_view item) { ++metrics_[Find(item, true)].files; }

std::vector<MetricColumnNames> ValueColumns::Names() const {
  std::vector<MetricColumnNames> out;
  for (const Metric& m : metrics_) {
    out.push_back({m.name, names_[static_cast<size_t>(m.value)],
                   m.exclusive == kNone ? "" : names_[static_cast<size_t>(m.exclusive)]});
  }
  return out;
}

Status ValueColumns::WriteCatalogue(SqlDatabase& db) const {
  PROTON_ASSIGN_OR_RETURN(SqlStatement insert,
                          db.Prepare("INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?)"));
  for (const Metric& m : metrics_) {
    insert.BindText(1, m.name);
    insert.BindText(2, names_[static_cast<size_t>(m.value)]);
    if (m.exclusive == kNone)
      insert.BindNull(3);
    else
      insert.BindText(3, names_[static_cast<size_t>(m.exclusive)]);
    insert.BindInt(4, m.derived ? 1 : 0);
    insert.BindInt(5, m.files);
    insert.BindInt(6, m.inclusive_files);
    PROTON_RETURN_IF_ERROR(insert.Run());
  }
  return Status();
}

}  // namespace proton::viewer
