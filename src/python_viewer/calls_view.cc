// Derivation, filter and diff calls of proton._viewer (calls.h).
#include <string>
#include <utility>
#include <vector>

#include "calls.h"
#include "column_lookup.h"
#include "py_convert.h"
#include "view_options.h"
#include "view_state.h"
#include "viewer/cli/view_input.h"
#include "viewer/ops/filters.h"
#include "viewer/ops/metrics.h"

namespace proton::python_viewer {
namespace {

// The plain profile of `capsule`; a difference cannot be derived or filtered again.
viewer::Prepared* PlainProfile(PyObject* capsule, const char* what) {
  ViewState* state = UnwrapState(capsule);
  if (state == nullptr) return nullptr;
  if (state->diff) {
    PyErr_Format(PyExc_ValueError, "%s is not supported on the difference of two profiles", what);
    return nullptr;
  }
  return &state->plain;
}

// §6 as the command does it, on copies of both profiles showing the labelled columns.
Result<ViewState> MakeDifference(const viewer::Prepared& left,
                                 const std::vector<std::string>& left_labels,
                                 const viewer::Prepared& right,
                                 const std::vector<std::string>& right_labels) {
  PROTON_ASSIGN_OR_RETURN(std::vector<viewer::ColumnRef> left_columns,
                          SelectColumns(left, left_labels));
  PROTON_ASSIGN_OR_RETURN(std::vector<viewer::ColumnRef> right_columns,
                          SelectColumns(right, right_labels));
  if (left_columns.size() != right_columns.size()) {
    return Status::Error("both profiles need the same number of metrics", ErrorKind::kValue);
  }
  viewer::Prepared now{left.tree, std::move(left_columns), left.display_name};
  viewer::Prepared base{right.tree, std::move(right_columns), right.display_name};
  PROTON_RETURN_IF_ERROR(viewer::CheckComparable(now, base));
  tree::MergeDuplicates(now.tree);
  tree::MergeDuplicates(base.tree);
  ViewState state;
  state.diff = tree::BuildDiffUnion(now.tree, base.tree);
  viewer::FillDiff(*state.diff, now, base, state.diff_input);
  // The difference keeps its own values; of FILE only the name is needed (for messages).
  state.plain.display_name = left.display_name;
  return state;
}

}  // namespace

PyObject* CheckOptions(PyObject*, PyObject* options_object) {
  std::vector<std::string> options;
  if (!ToStringList(options_object, "option", &options) || !ParseOptions(options)) {
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyObject* CheckView(PyObject*, PyObject* args) {
  PyObject* metrics = nullptr;
  PyObject* include = nullptr;
  PyObject* exclude = nullptr;
  PyObject* threshold = nullptr;
  if (!PyArg_ParseTuple(args, "OOOO:check_view", &metrics, &include, &exclude, &threshold)) {
    return nullptr;
  }
  viewer::ViewOptions view;
  if (!SetViewValues(metrics, include, exclude, threshold, &view)) return nullptr;
  Py_RETURN_NONE;
}

PyObject* CheckFormat(PyObject*, PyObject* format) {
  viewer::ViewOptions view;
  if (!SetFormatValue(format, &view)) return nullptr;
  Py_RETURN_NONE;
}

PyObject* Derive(PyObject*, PyObject* args) {
  PyObject* capsule = nullptr;
  PyObject* items_object = nullptr;
  if (!PyArg_ParseTuple(args, "OO:derive", &capsule, &items_object)) return nullptr;
  viewer::Prepared* profile = PlainProfile(capsule, "derive_metrics");
  std::vector<std::string> items;
  if (profile == nullptr || !ToStringList(items_object, "metric", &items)) return nullptr;
  Result<std::vector<viewer::ColumnRef>> columns =
      viewer::ResolveColumns(profile->tree, items, profile->display_name);
  if (!columns.ok()) return RaiseMetricError(columns.status(), profile->display_name);
  std::vector<std::string> labels;
  for (viewer::ColumnRef& column : *columns) {
    labels.push_back(column.label);
    profile->columns.push_back(std::move(column));
  }
  return StringList(labels);
}

PyObject* Filter(PyObject*, PyObject* args) {
  PyObject* capsule = nullptr;
  PyObject* include = nullptr;
  PyObject* exclude = nullptr;
  PyObject* threshold = nullptr;
  const char* label = nullptr;
  if (!PyArg_ParseTuple(args, "OOOOs:filter", &capsule, &include, &exclude, &threshold, &label)) {
    return nullptr;
  }
  viewer::Prepared* profile = PlainProfile(capsule, "filter_frames");
  viewer::ViewOptions filter_args;
  if (profile == nullptr ||
      !SetColumnFilterValues(include, exclude, threshold, label, &filter_args)) {
    return nullptr;
  }
  // The column is read only by the threshold; without one, no column need be named.
  Result<std::vector<viewer::ColumnRef>> first = std::vector<viewer::ColumnRef>(1);
  if (*label != '\0' || filter_args.has_threshold) first = SelectColumns(*profile, {label});
  if (!first.ok()) return Raise(PyExc_ValueError, first.status());
  Status filtered =
      viewer::ApplyFilters(profile->tree, filter_args, (*first)[0], profile->display_name);
  if (!filtered.ok()) return Raise(PyExc_ValueError, filtered);
  Py_RETURN_NONE;
}

PyObject* Diff(PyObject*, PyObject* args) {
  PyObject* left_capsule = nullptr;
  PyObject* left_labels_object = nullptr;
  PyObject* right_capsule = nullptr;
  PyObject* right_labels_object = nullptr;
  if (!PyArg_ParseTuple(args, "OOOO:diff", &left_capsule, &left_labels_object, &right_capsule,
                        &right_labels_object)) {
    return nullptr;
  }
  const viewer::Prepared* left = PlainProfile(left_capsule, "apply_diff_profile");
  const viewer::Prepared* right = PlainProfile(right_capsule, "apply_diff_profile");
  std::vector<std::string> left_labels;
  std::vector<std::string> right_labels;
  if (left == nullptr || right == nullptr ||
      !ToStringList(left_labels_object, "metric", &left_labels) ||
      !ToStringList(right_labels_object, "metric", &right_labels)) {
    return nullptr;
  }
  Result<ViewState> difference = MakeDifference(*left, left_labels, *right, right_labels);
  if (!difference.ok()) return Raise(PyExc_ValueError, difference.status());
  return WrapState(std::move(difference).value());
}

}  // namespace proton::python_viewer
