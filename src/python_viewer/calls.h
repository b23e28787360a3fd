// The functions of proton._viewer (the module table is in module.cc). Each takes and returns
// Python objects; a tree travels as the capsule of view_state.h. The Python-facing API and its
// documentation are python/proton/viewer.py; these are its private building blocks.
#pragma once

#include <Python.h>

namespace proton::python_viewer {

// ---- Reading (calls_read.cc).
// load_fd(fd: int, display_name: bytes) -> tree: reads and prepares the profile open as `fd`
// (left open) as proton-viewer does (§3); display_name is F in messages.
PyObject* LoadFd(PyObject* self, PyObject* args);
// load_bytes(data: bytes, display_name: str) -> tree: the same from bytes in memory.
PyObject* LoadBytes(PyObject* self, PyObject* args);
// metric_names(tree) -> (inclusive keys, ["name"] + exclusive keys), §3.4.
PyObject* MetricNames(PyObject* self, PyObject* tree);
// device_info(tree) -> {device_type: {device_index: {field: value}}} (formats.md §2.5).
PyObject* DeviceInfo(PyObject* self, PyObject* tree);
// copy(tree) -> an independent tree.
PyObject* CopyTree(PyObject* self, PyObject* tree);

// ---- Derivation, filters, diff (calls_view.cc).
// check_options(options: list[str]) -> None: the command line's scan and checks of `options`
// (§9.1), for values given as separate arguments that the scan may read as options.
PyObject* CheckOptions(PyObject* self, PyObject* options);
// check_view(metrics: str, include: str, exclude: str, threshold: str | None) -> None: the
// command's checks of -m, -i, -e and -t (§9.1), in its order.
PyObject* CheckView(PyObject* self, PyObject* args);
// check_format(format: str) -> None: -f's check.
PyObject* CheckFormat(PyObject* self, PyObject* format);
// derive(tree, items: list[str]) -> labels: resolves -m items (§4), adding their columns.
PyObject* Derive(PyObject* self, PyObject* args);
// filter(tree, include: str, exclude: str, threshold: str | None, label: str) -> None:
// -i/-e/-t in place (§5).
PyObject* Filter(PyObject* self, PyObject* args);
// diff(left, left_labels, right, right_labels) -> tree: the §6 difference.
PyObject* Diff(PyObject* self, PyObject* args);

// ---- Output (calls_output.cc).
// render(tree, labels, depth: str, format: str | None, print_sorted: bool, color: bool)
// -> bytes: what the command prints.
PyObject* Render(PyObject* self, PyObject* args);
// table(tree, format: str | None) -> dict of columns, one row per node in print order.
PyObject* Table(PyObject* self, PyObject* args);

// ---- SQLite (calls_sql.cc).
// to_sqlite(files: list[bytes], path: bytes, items: list[str]) -> None: the database of the
// files (viewer.md §11.13), replacing `path` once complete; `items` are -m's columns.
PyObject* ToSqlite(PyObject* self, PyObject* args);

}  // namespace proton::python_viewer
