// Command-line mode for proton._C (profiler.md §1.4, §2.9, §2.13): the bootstrap puts the
// process in CLI mode and starts session 0 although proton.start() ignores calls then.
// The core owns the flag (src/core/session/cli_mode.h); this file only binds it.
#include "cli_binding.h"

#include <optional>
#include <string>

#include "binding_errors.h"
#include "binding_state.h"
#include "core/cli/cli_session.h"
#include "core/session/cli_mode.h"
#include "proton/proton.h"

namespace proton::python {

PyObject* SetCommandLine(PyObject*, PyObject* on) {
  const int value = PyObject_IsTrue(on);
  if (value < 0) return nullptr;
  SetCommandLineMode(value != 0);
  Py_RETURN_NONE;
}

PyObject* IsCommandLine(PyObject*, PyObject*) { return PyBool_FromLong(IsCommandLineMode()); }

PyObject* StartCliSession(PyObject*, PyObject* args, PyObject* kwargs) {
  static const char* const kKeywords[] = {"name", "context",     "data", "backend",
                                          "mode", "scopes_only", nullptr};
  PyObject* name = Py_None;
  const char* context = "shadow";
  const char* data = "tree";
  const char* backend = "";
  const char* mode = "";
  int scopes_only = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|Ossssp:start_cli_session",
                                   const_cast<char**>(kKeywords), &name, &context, &data, &backend,
                                   &mode, &scopes_only)) {
    return nullptr;
  }
  StartOptions options;
  if (name != Py_None) {
    const char* utf8 = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
    if (utf8 == nullptr) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "name must be str or None");
      return nullptr;
    }
    options.name = utf8;
  }
  options.context = context;
  options.data = data;
  options.backend = backend;
  options.mode = mode;
  // scopes_only: the session without a backend; the CUDA injection attaches it at the
  // program's first cuInit (the root's start-up then never initialises the driver itself).
  PyObject* id =
      scopes_only != 0
          ? RunStart(options,
                     [](const StartOptions& o) {
                       return proton::StartCliSession(o, /*scopes_only=*/true);
                     })
          : RunStart(options, [](const StartOptions& o) { return proton::StartCliSession(o); });
  if (id != nullptr && id != Py_None) g_profiling_on = true;
  return id;
}

PyObject* RunStart(const StartOptions& options,
                   Result<std::optional<int>> (*start)(const StartOptions&)) {
  std::optional<Result<std::optional<int>>> result;
  Py_BEGIN_ALLOW_THREADS result.emplace(start(options));
  Py_END_ALLOW_THREADS if (!result->ok()) return RaiseStatus(result->status());
  if (!result->value().has_value()) Py_RETURN_NONE;
  return PyLong_FromLong(*result->value());
}

PyObject* WarnIfCudaRanUnprofiledPy(PyObject*, PyObject*) {
  return PyBool_FromLong(cli::WarnIfCudaRanUnprofiled());
}

PyObject* HasRecordedAnythingPy(PyObject*, PyObject*) {
  return PyBool_FromLong(HasRecordedAnything());
}

}  // namespace proton::python
