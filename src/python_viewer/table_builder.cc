// See table_builder.h.
#include "table_builder.h"

#include <string>
#include <string_view>
#include <vector>

#include "viewer/names/name_format.h"

namespace proton::python_viewer {
namespace {

using tree::NodeId;

PyObject* Text(std::string_view text) {
  return PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogateescape");
}

// A list with make(row) for each row; `make` returns a new reference or nullptr.
template <typename Make>
PyObject* ListOf(const std::vector<NodeId>& rows, Make make) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(rows.size()));
  for (size_t r = 0; list != nullptr && r < rows.size(); ++r) {
    PyObject* item = make(rows[r]);
    if (item == nullptr)
      Py_CLEAR(list);
    else
      PyList_SET_ITEM(list, static_cast<Py_ssize_t>(r), item);
  }
  return list;
}

// Adds `key: column` unless `key` is already there (a derived label equal to a raw one holds
// the same values); steals `column`.
bool AddColumn(PyObject* table, std::string_view key, PyObject* column) {
  if (column == nullptr) return false;
  PyObject* name = Text(key);
  const int rc = name == nullptr ? -1 : PyDict_SetDefault(table, name, column) ? 0 : -1;
  Py_XDECREF(name);
  Py_DECREF(column);
  return rc == 0;
}

// Paths share nothing in Python, so each row's tuple is built from its parent's.
PyObject* PathColumn(const tree::ProfileTree& tree, const std::vector<NodeId>& rows) {
  std::vector<PyObject*> paths(tree.size(), nullptr);
  PyObject* list = ListOf(rows, [&](NodeId n) -> PyObject* {
    const NodeId parent = tree.parent(n);
    const Py_ssize_t above = parent == tree::kNoNode ? 0 : PyTuple_GET_SIZE(paths[parent]);
    PyObject* path = PyTuple_New(above + 1);
    if (path == nullptr) return nullptr;
    for (Py_ssize_t i = 0; i < above; ++i) {
      PyObject* name = PyTuple_GET_ITEM(paths[parent], i);
      Py_INCREF(name);
      PyTuple_SET_ITEM(path, i, name);
    }
    PyObject* own = Text(tree.name(n));
    if (own == nullptr) {
      Py_DECREF(path);
      return nullptr;
    }
    PyTuple_SET_ITEM(path, above, own);
    paths[n] = path;  // borrowed: the list owns it
    return Py_NewRef(path);
  });
  // The list holds one reference to each path; drop the extra one of Py_NewRef.
  for (PyObject* path : paths) Py_XDECREF(path);
  return list;
}

bool AddIdentity(PyObject* table, const tree::ProfileTree& tree, const std::vector<NodeId>& rows,
                 viewer::NameFormat format) {
  std::string scratch;
  return AddColumn(table, "name",
                   ListOf(rows,
                          [&](NodeId n) {
                            return Text(viewer::FormatName(tree.name(n), format, scratch));
                          })) &&
         AddColumn(
             table, "depth",
             ListOf(rows, [&](NodeId n) { return PyLong_FromUnsignedLong(tree.depth(n)); })) &&
         AddColumn(table, "path", PathColumn(tree, rows));
}

// A cell of a column that is not all numbers: strings stay str, numbers stay numbers, and
// anything else (missing, bool, array, object) is None.
PyObject* MixedValue(const tree::RawColumn& raw, NodeId n) {
  const tree::ValueType type = raw.type[n];
  if (type == tree::ValueType::kString) return Text(raw.str(n));
  if (type == tree::ValueType::kInt || type == tree::ValueType::kDouble) {
    return PyFloat_FromDouble(raw.own[n]);
  }
  Py_RETURN_NONE;
}

bool AddRawColumns(PyObject* table, const tree::ProfileTree& tree,
                   const std::vector<NodeId>& rows) {
  for (const tree::RawColumn& raw : tree.columns()) {
    if (raw.kind == tree::ColumnKind::kNonNumeric) {
      auto mixed = [&](NodeId n) { return MixedValue(raw, n); };
      if (!AddColumn(table, raw.key, ListOf(rows, mixed))) return false;
      continue;
    }
    auto own = [&](NodeId n) { return PyFloat_FromDouble(raw.own[n]); };
    if (!AddColumn(table, raw.key, ListOf(rows, own))) return false;
    if (raw.inc.empty()) continue;
    auto inc = [&](NodeId n) { return PyFloat_FromDouble(raw.inc[n]); };
    if (!AddColumn(table, raw.key + " (inc)", ListOf(rows, inc))) return false;
  }
  return true;
}

bool AddShownColumns(PyObject* table, const ViewState& state, const std::vector<NodeId>& rows) {
  if (state.diff) {
    const viewer::PrintInput& made = state.diff_input;
    for (size_t c = 0; c < made.labels.size(); ++c) {
      const std::vector<double>& values = made.columns[c];
      auto value = [&](NodeId n) { return PyFloat_FromDouble(values[n]); };
      if (!AddColumn(table, made.labels[c], ListOf(rows, value))) return false;
    }
    return true;
  }
  const tree::ProfileTree& tree = state.plain.tree;
  for (const viewer::ColumnRef& column : state.plain.columns) {
    auto value = [&](NodeId n) { return PyFloat_FromDouble(column.Value(tree, n)); };
    if (!AddColumn(table, column.label, ListOf(rows, value))) return false;
  }
  return true;
}

}  // namespace

PyObject* BuildTable(const ViewState& state, viewer::NameFormat format) {
  const tree::ProfileTree& tree = state.shown_tree();
  const std::vector<NodeId> rows = tree::SortedPreOrder(tree);
  PyObject* table = PyDict_New();
  if (table == nullptr) return nullptr;
  const bool ok = AddIdentity(table, tree, rows, format) &&
                  (state.diff || AddRawColumns(table, tree, rows)) &&
                  AddShownColumns(table, state, rows);
  if (!ok) Py_CLEAR(table);
  return table;
}

}  // namespace proton::python_viewer
