// See column_lookup.h.
#include "column_lookup.h"

namespace proton::python_viewer {
namespace {

Error NotAColumn(std::string_view label, std::string_view of) {
  return Status::Error("metric '" + std::string(label) + "' is not a column of " + std::string(of) +
                           " (derive it first)",
                       ErrorKind::kValue);
}

Status CheckNotEmpty(const std::vector<std::string>& labels) {
  if (labels.empty()) return Status::Error("no metric to show", ErrorKind::kValue);
  return Status();
}

}  // namespace

std::optional<viewer::ColumnRef> FindColumn(const viewer::Prepared& profile,
                                            std::string_view label) {
  for (const viewer::ColumnRef& column : profile.columns) {
    if (column.label == label) return column;
  }
  const tree::ProfileTree& tree = profile.tree;
  for (size_t c = 0; c < tree.columns().size(); ++c) {
    const tree::RawColumn& raw = tree.columns()[c];
    const bool inclusive = c < tree.num_inclusive();
    // Only columns with a number per node can be shown (inclusive sums exist only then).
    const bool has_values =
        inclusive ? !raw.inc.empty() : raw.numeric() || raw.kind == tree::ColumnKind::kEmpty;
    const std::string raw_label = inclusive ? raw.key + " (inc)" : raw.key;
    if (!has_values || raw_label != label) continue;
    viewer::ColumnRef ref;
    ref.source = inclusive ? viewer::ColumnRef::Source::kRawInclusive
                           : viewer::ColumnRef::Source::kRawExclusive;
    ref.index = static_cast<int>(c);
    ref.item = raw.key;
    ref.label = raw_label;
    return ref;
  }
  return std::nullopt;
}

Result<std::vector<viewer::ColumnRef>> SelectColumns(const viewer::Prepared& profile,
                                                     const std::vector<std::string>& labels) {
  PROTON_RETURN_IF_ERROR(CheckNotEmpty(labels));
  std::vector<viewer::ColumnRef> columns;
  for (const std::string& label : labels) {
    std::optional<viewer::ColumnRef> column = FindColumn(profile, label);
    if (!column) return NotAColumn(label, "'" + profile.display_name + "'");
    columns.push_back(std::move(*column));
  }
  return columns;
}

Status SelectShownColumns(const ViewState& state, const std::vector<std::string>& labels,
                          viewer::PrintInput* in) {
  PROTON_RETURN_IF_ERROR(CheckNotEmpty(labels));
  const tree::ProfileTree& tree = state.shown_tree();
  in->tree = &tree;
  in->columns.clear();
  in->labels.clear();
  if (!state.diff) {
    PROTON_ASSIGN_OR_RETURN(std::vector<viewer::ColumnRef> columns,
                            SelectColumns(state.plain, labels));
    for (const viewer::ColumnRef& column : columns) {
      std::vector<double> values(tree.size());
      for (tree::NodeId id = 0; id < tree.size(); ++id) values[id] = column.Value(tree, id);
      in->columns.push_back(std::move(values));
      in->labels.push_back(column.label);
    }
    return Status();
  }
  const viewer::PrintInput& made = state.diff_input;
  in->sides = made.sides;
  in->row_order = made.row_order;
  for (const std::string& label : labels) {
    size_t c = 0;
    while (c < made.labels.size() && made.labels[c] != label) ++c;
    if (c == made.labels.size()) return NotAColumn(label, "this difference");
    in->columns.push_back(made.columns[c]);
    in->labels.push_back(label);
  }
  return Status();
}

}  // namespace proton::python_viewer
