// Command-line mode for proton._C (profiler.md §1.4, §2.9, §2.13): the bootstrap puts the
// process in CLI mode and starts session 0 although proton.start() ignores calls then.
#include "cli_binding.h"

#include "binding_errors.h"
#include "binding_state.h"
#include "proton/proton.h"

namespace proton::python {
namespace {
bool g_command_line = false;
}  // namespace

PyObject* SetCommandLine(PyObject*, PyObject* on) {
  const int value = PyObject_IsTrue(on);
  if (value < 0) return nullptr;
  g_command_line = value != 0;
  Py_RETURN_NONE;
}

PyObject* IsCommandLine(PyObject*, PyObject*) { return PyBool_FromLong(g_command_line); }

PyObject* StartCliSession(PyObject*, PyObject*) {
  PyErr_SetString(PyExc_NotImplementedError, "start_cli_session: the core has no CLI API yet");
  return nullptr;
}

}  // namespace proton::python
