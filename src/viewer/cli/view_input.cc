// See view_input.h. The code is the command's own (viewer_command.cc calls it).
#include "viewer/cli/view_input.h"

#include <cmath>
#include <string_view>

#include "format/profile_reader.h"
#include "util/out_of_memory.h"
#include "viewer/ops/filters.h"

namespace proton::viewer {
namespace {

bool IsInclusiveLabel(std::string_view label) {
  constexpr std::string_view kInc = " (inc)";
  return label.size() >= kInc.size() && label.substr(label.size() - kInc.size()) == kInc;
}

}  // namespace

Result<Prepared> Prepare(const std::string& path, const ViewOptions& view) {
  Prepared p;
  p.display_name = format::DisplayName(path);
  PROTON_ASSIGN_OR_RETURN(p.tree, format::LoadProfile(path));
  PROTON_RETURN_IF_ERROR(CatchOutOfMemory("processing '" + p.display_name + "'", [&]() -> Status {
    PROTON_ASSIGN_OR_RETURN(p.columns, ResolveColumns(p.tree, view.metrics, p.display_name));
    return ApplyFilters(p.tree, view, p.columns[0], p.display_name);
  }));
  return p;
}

Status CheckComparable(const Prepared& left, const Prepared& right) {
  for (size_t c = 0; c < left.columns.size(); ++c) {
    const bool left_inc = IsInclusiveLabel(left.columns[c].label);
    if (left_inc == IsInclusiveLabel(right.columns[c].label)) continue;
    return Status::Error("cannot compare " + left.columns[c].item + ": it is an " +
                         (left_inc ? "inclusive" : "exclusive") + " metric in '" +
                         left.display_name + "' but an " + (left_inc ? "exclusive" : "inclusive") +
                         " metric in '" + right.display_name + "'");
  }
  return Status();
}

// §6 values: FILE − OTHER where both are numbers, FILE's value where either is NaN or the
// node is only in FILE, NaN where it is only in OTHER.
void FillDiff(const DiffUnion& u, const Prepared& left, const Prepared& right, PrintInput& in) {
  const size_t n = u.tree.size();
  for (size_t c = 0; c < left.columns.size(); ++c) {
    std::vector<double> values(n, kMissing);
    for (NodeId id = 0; id < n; ++id) {
      const NodeId l = u.left[id];
      const NodeId r = u.right[id];
      if (l == kNoNode) continue;
      const double lv = left.columns[c].Value(left.tree, l);
      if (r == kNoNode) {
        values[id] = lv;
        continue;
      }
      const double rv = right.columns[c].Value(right.tree, r);
      values[id] = std::isnan(lv) || std::isnan(rv) ? lv : lv - rv;
    }
    in.columns.push_back(std::move(values));
    in.labels.push_back(left.columns[c].label);
  }
  if (u.sides_differ) {
    in.sides.resize(n, Side::kBoth);
    for (NodeId id = 0; id < n; ++id) {
      if (u.right[id] == kNoNode)
        in.sides[id] = Side::kLeftOnly;
      else if (u.left[id] == kNoNode)
        in.sides[id] = Side::kRightOnly;
    }
  }
  in.row_order = u.row_order;
}

void FillPlain(const Prepared& p, PrintInput& in) {
  const size_t n = p.tree.size();
  for (const ColumnRef& column : p.columns) {
    std::vector<double> values(n);
    for (NodeId id = 0; id < n; ++id) values[id] = column.Value(p.tree, id);
    in.columns.push_back(std::move(values));
    in.labels.push_back(column.label);
  }
}

}  // namespace proton::viewer
