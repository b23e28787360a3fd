// proton._viewer: the viewer core (src/format, src/viewer) for the Python API in
// python/proton/viewer.py. A module of its own, apart from proton._C: _C is loaded into every
// profiled process and is built where the viewer's libraries (simdjson, PCRE2) are missing.
#include <Python.h>

#include <exception>
#include <new>

#include "calls.h"
#include "viewer/sql/sql_command.h"

namespace proton::python_viewer {
namespace {

// Every call through a guard: a C++ exception must not cross the interpreter's C frames
// (it would end the process in std::terminate). Running out of memory raises MemoryError.
template <PyObject* (*kCall)(PyObject*, PyObject*)>
PyObject* Guarded(PyObject* self, PyObject* args) {
  try {
    return kCall(self, args);
  } catch (const std::bad_alloc&) {
    return PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
  }
}

PyMethodDef g_methods[] = {
    {"load_fd", Guarded<LoadFd>, METH_VARARGS, "Reads and prepares a profile from an open file."},
    {"load_bytes", Guarded<LoadBytes>, METH_VARARGS, "Reads and prepares a profile from bytes."},
    {"metric_names", Guarded<MetricNames>, METH_O, "(inclusive keys, exclusive names) of a tree."},
    {"device_info", Guarded<DeviceInfo>, METH_O, "The device table of a tree as a dict."},
    {"copy", Guarded<CopyTree>, METH_O, "An independent copy of a tree."},
    {"check_options", Guarded<CheckOptions>, METH_O, "proton-viewer's scan of an argument list."},
    {"check_view", Guarded<CheckView>, METH_VARARGS, "proton-viewer's checks of -m/-i/-e/-t."},
    {"check_format", Guarded<CheckFormat>, METH_O, "proton-viewer's check of -f."},
    {"derive", Guarded<Derive>, METH_VARARGS, "Resolves metric items, adding their columns."},
    {"filter", Guarded<Filter>, METH_VARARGS, "Applies -i/-e/-t to a tree in place."},
    {"diff", Guarded<Diff>, METH_VARARGS, "The difference of two trees."},
    {"render", Guarded<Render>, METH_VARARGS, "What proton-viewer prints for a tree, as bytes."},
    {"table", Guarded<Table>, METH_VARARGS, "The columns of a tree, one row per node."},
    {"to_sqlite", Guarded<ToSqlite>, METH_VARARGS, "The SQLite database of profile files."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef g_module = {PyModuleDef_HEAD_INIT,
                        "proton._viewer",
                        "The proton-viewer core for proton.viewer (private).",
                        -1,
                        g_methods,
                        nullptr,
                        nullptr,
                        nullptr,
                        nullptr};

}  // namespace
}  // namespace proton::python_viewer

PyMODINIT_FUNC PyInit__viewer() {
  PyObject* module = PyModule_Create(&proton::python_viewer::g_module);
  // Whether to_sqlite works in this build (the viewer's SQLite outputs are optional).
  if (module != nullptr &&
      PyModule_AddIntConstant(module, "has_sqlite", proton::viewer::SqliteAvailable() ? 1 : 0) !=
          0) {
    Py_CLEAR(module);
  }
  return module;
}
