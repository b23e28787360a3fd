// proton._C: the thin CPython binding of include/proton/proton.h (profiler.md §1). The Python
// package (python/proton) holds the API surface; this module only converts arguments, maps
// Status to exceptions, and implements the per-call hot paths (scopes, states, ops) in C.
// Session and data calls release the GIL: they may wait for the GPU, and a launching thread
// may need the GIL to capture its Python frames meanwhile.
#include <Python.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "binding_errors.h"
#include "binding_state.h"
#include "cli_binding.h"
#include "core/cli/cli_session.h"
#include "core/runtime/runtime.h"
#include "json_to_python.h"
#include "launch_hook.h"
#include "metrics_convert.h"
#include "proton/proton.h"
#include "python_common/utf8_view.h"
#include "python_frames.h"
#include "scope_type.h"

namespace proton::python {

bool g_profiling_on = false;

namespace {

using python_common::Utf8View;

// None → nullopt, int → session id.
bool OptionalSession(PyObject* object, std::optional<int>* out) {
  if (object == Py_None) {
    *out = std::nullopt;
    return true;
  }
  const long value = PyLong_AsLong(object);
  if (value == -1 && PyErr_Occurred()) return false;
  *out = static_cast<int>(value);
  return true;
}

bool ScopeId(PyObject* object, uint64_t* out) {
  const unsigned long long value = PyLong_AsUnsignedLongLong(object);
  if (value == static_cast<unsigned long long>(-1) && PyErr_Occurred()) return false;
  *out = value;
  return true;
}

bool CheckArgs(const char* name, Py_ssize_t nargs, Py_ssize_t expected) {
  if (nargs == expected) return true;
  PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, expected, nargs);
  return false;
}

// ---- sessions ---------------------------------------------------------------------------

PyObject* Start(PyObject*, PyObject* args) {
  PyObject* name = nullptr;
  const char* context = nullptr;
  const char* data = nullptr;
  const char* backend = nullptr;
  const char* mode = nullptr;
  if (!PyArg_ParseTuple(args, "Ossss:start", &name, &context, &data, &backend, &mode)) {
    return nullptr;
  }
  StartOptions options;
  if (name != Py_None) {
    // As open() takes a file name: str, bytes or os.PathLike, any bytes but NUL
    // (ValueError "embedded null byte").
    PyObject* encoded = nullptr;
    if (PyUnicode_FSConverter(name, &encoded) == 0) return nullptr;
    options.name.emplace(PyBytes_AS_STRING(encoded),
                         static_cast<size_t>(PyBytes_GET_SIZE(encoded)));
    Py_DECREF(encoded);
  }
  options.context = context;
  options.data = data;
  options.backend = backend;
  options.mode = mode;
  return RunStart(options, &proton::Start);
}

PyObject* Activate(PyObject*, PyObject* session_arg) {
  std::optional<int> session;
  if (!OptionalSession(session_arg, &session)) return nullptr;
  Status status;
  Py_BEGIN_ALLOW_THREADS status = proton::Activate(session);
  Py_END_ALLOW_THREADS return NoneOrRaise(status);
}

PyObject* Deactivate(PyObject*, PyObject* args) {
  PyObject* session_arg = nullptr;
  int flushing = 0;
  if (!PyArg_ParseTuple(args, "Op:deactivate", &session_arg, &flushing)) return nullptr;
  std::optional<int> session;
  if (!OptionalSession(session_arg, &session)) return nullptr;
  Status status;
  Py_BEGIN_ALLOW_THREADS status = proton::Deactivate(session, flushing != 0);
  Py_END_ALLOW_THREADS return NoneOrRaise(status);
}

PyObject* Finalize(PyObject*, PyObject* args) {
  PyObject* session_arg = nullptr;
  const char* format = nullptr;
  if (!PyArg_ParseTuple(args, "Os:finalize", &session_arg, &format)) return nullptr;
  std::optional<int> session;
  if (!OptionalSession(session_arg, &session)) return nullptr;
  std::string output_format = format;
  Status status;
  Py_BEGIN_ALLOW_THREADS status = proton::Finalize(session, output_format);
  Py_END_ALLOW_THREADS return NoneOrRaise(status);
}

PyObject* GetProfilingOn(PyObject*, PyObject*) { return PyBool_FromLong(g_profiling_on); }

PyObject* SetProfilingOn(PyObject*, PyObject* value) {
  const int on = PyObject_IsTrue(value);
  if (on < 0) return nullptr;
  g_profiling_on = on != 0;
  Py_RETURN_NONE;
}

// ---- scopes, states, ops (hot paths: fastcall, no keyword parsing) ------------------------

PyObject* NewScopeIdPy(PyObject*, PyObject*) {
  return PyLong_FromUnsignedLongLong(proton::NewScopeId());
}

PyObject* EnterScopePy(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  uint64_t id = 0;
  std::string_view name;
  if (!CheckArgs("enter_scope", nargs, 2) || !ScopeId(args[0], &id) ||
      !Utf8View(args[1], "name", &name)) {
    return nullptr;
  }
  proton::EnterScope(id, name);
  Py_RETURN_NONE;
}

PyObject* ExitScopePy(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  uint64_t id = 0;
  std::string_view name;
  if (!CheckArgs("exit_scope", nargs, 2) || !ScopeId(args[0], &id) ||
      !Utf8View(args[1], "name", &name)) {
    return nullptr;
  }
  return NoneOrRaise(proton::ExitScope(id, name));
}

PyObject* AddMetricsPy(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  uint64_t id = 0;
  if (!CheckArgs("add_metrics", nargs, 2) || !ScopeId(args[0], &id)) return nullptr;
  Metrics metrics;
  if (!ConvertMetrics(args[1], &metrics)) return nullptr;
  if (metrics.empty()) Py_RETURN_NONE;
  return NoneOrRaise(proton::AddMetrics(id, metrics));
}

PyObject* EnterStatePy(PyObject*, PyObject* name_arg) {
  std::string_view name;
  if (!Utf8View(name_arg, "name", &name)) return nullptr;
  proton::EnterState(name);
  Py_RETURN_NONE;
}

PyObject* ExitStatePy(PyObject*, PyObject*) {
  proton::ExitState();
  Py_RETURN_NONE;
}

PyObject* EnterOpPy(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  uint64_t id = 0;
  std::string_view name;
  if (!CheckArgs("enter_op", nargs, 2) || !ScopeId(args[0], &id) ||
      !Utf8View(args[1], "name", &name)) {
    return nullptr;
  }
  proton::EnterOp(id, name);
  Py_RETURN_NONE;
}

PyObject* ExitOpPy(PyObject*, PyObject* id_arg) {
  uint64_t id = 0;
  if (!ScopeId(id_arg, &id)) return nullptr;
  proton::ExitOp(id);
  Py_RETURN_NONE;
}

PyObject* AddOpMetricsPy(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  uint64_t id = 0;
  if (!CheckArgs("add_op_metrics", nargs, 2) || !ScopeId(args[0], &id)) return nullptr;
  Metrics metrics;
  if (!ConvertMetrics(args[1], &metrics)) return nullptr;
  if (metrics.empty()) Py_RETURN_NONE;
  return NoneOrRaise(proton::AddOpMetrics(id, metrics));
}

PyObject* ConvertMetricsPy(PyObject*, PyObject* mapping) {
  Metrics metrics;
  if (!ConvertMetrics(mapping, &metrics)) return nullptr;
  PyObject* dict = PyDict_New();
  if (dict == nullptr) return nullptr;
  for (const auto& [name, value] : metrics) {
    PyObject* py = std::visit(
        [](const auto& v) -> PyObject* {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, int64_t>) {
            return PyLong_FromLongLong(v);
          } else if constexpr (std::is_same_v<T, double>) {
            return PyFloat_FromDouble(v);
          } else {
            PyObject* list = PyList_New(static_cast<Py_ssize_t>(v.size()));
            for (size_t i = 0; list != nullptr && i < v.size(); ++i) {
              PyObject* item = std::is_same_v<T, std::vector<double>>
                                   ? PyFloat_FromDouble(static_cast<double>(v[i]))
                                   : PyLong_FromLongLong(static_cast<long long>(v[i]));
              PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
            }
            return list;
          }
        },
        value);
    if (py == nullptr || PyDict_SetItemString(dict, name.c_str(), py) < 0) {
      Py_XDECREF(py);
      Py_DECREF(dict);
      return nullptr;
    }
    Py_DECREF(py);
  }
  return dict;
}

// ---- context and data -------------------------------------------------------------------

PyObject* ContextDepth(PyObject*, PyObject* session_arg) {
  const long session = PyLong_AsLong(session_arg);
  if (session == -1 && PyErr_Occurred()) return nullptr;
  const std::optional<int> depth = proton::ContextDepth(static_cast<int>(session));
  if (!depth.has_value()) Py_RETURN_NONE;
  return PyLong_FromLong(*depth);
}

template <bool kBytes>
PyObject* GetDocument(PyObject*, PyObject* args) {
  int session = 0;
  int phase = 0;
  if (!PyArg_ParseTuple(args, "ii", &session, &phase)) return nullptr;
  // A document that outgrows memory is the API's out-of-memory error: MemoryError.
  std::optional<Result<std::string>> result;
  Py_BEGIN_ALLOW_THREADS result.emplace(kBytes ? proton::GetMsgpack(session, phase)
                                               : proton::GetJson(session, phase));
  Py_END_ALLOW_THREADS if (!result->ok()) return RaiseStatus(result->status());
  const std::string& text = result->value();
  if constexpr (kBytes) {
    return PyBytes_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
  } else {
    // Built without recursion: json.loads fails from about 500 levels of scopes.
    return JsonToPython(text);
  }
}

PyObject* Clear(PyObject*, PyObject* args) {
  int session = 0;
  int phase = 0;
  int up_to = 0;
  if (!PyArg_ParseTuple(args, "iip:clear", &session, &phase, &up_to)) return nullptr;
  Status status;
  Py_BEGIN_ALLOW_THREADS status = proton::Clear(session, phase, up_to != 0);
  Py_END_ALLOW_THREADS return NoneOrRaise(status);
}

PyObject* AdvancePhase(PyObject*, PyObject* arg) {
  int session = static_cast<int>(PyLong_AsLong(arg));
  if (session == -1 && PyErr_Occurred()) return nullptr;
  std::optional<Result<int>> result;
  Py_BEGIN_ALLOW_THREADS result.emplace(proton::AdvancePhase(session));
  Py_END_ALLOW_THREADS if (!result->ok()) return RaiseStatus(result->status());
  return PyLong_FromLong(result->value());
}

PyObject* IsPhaseComplete(PyObject*, PyObject* args) {
  int session = 0;
  int phase = 0;
  if (!PyArg_ParseTuple(args, "ii", &session, &phase)) return nullptr;
  std::optional<Result<bool>> result;
  Py_BEGIN_ALLOW_THREADS result.emplace(proton::IsPhaseComplete(session, phase));
  Py_END_ALLOW_THREADS if (!result->ok()) return RaiseStatus(result->status());
  return PyBool_FromLong(result->value() ? 1 : 0);
}

PyObject* SetTensorConverterPy(PyObject*, PyObject* fn) {
  SetTensorConverter(fn == Py_None ? nullptr : fn);
  Py_RETURN_NONE;
}

#define PROTON_FASTCALL(fn) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fn))

PyMethodDef g_methods[] = {
    {"start", Start, METH_VARARGS, "start(name, context, data, backend, mode) -> int | None"},
    {"activate", Activate, METH_O, "activate(session | None)"},
    {"deactivate", Deactivate, METH_VARARGS, "deactivate(session | None, flushing)"},
    {"finalize", Finalize, METH_VARARGS, "finalize(session | None, output_format)"},
    {"get_profiling_on", GetProfilingOn, METH_NOARGS, "flags.profiling_on"},
    {"set_profiling_on", SetProfilingOn, METH_O, "set flags.profiling_on (private)"},
    {"new_scope_id", NewScopeIdPy, METH_NOARGS, "a new process-wide scope id"},
    {"enter_scope", PROTON_FASTCALL(EnterScopePy), METH_FASTCALL, "enter_scope(id, name)"},
    {"exit_scope", PROTON_FASTCALL(ExitScopePy), METH_FASTCALL, "exit_scope(id, name)"},
    {"add_metrics", PROTON_FASTCALL(AddMetricsPy), METH_FASTCALL, "add_metrics(id, metrics)"},
    {"enter_state", EnterStatePy, METH_O, "enter_state(name)"},
    {"exit_state", ExitStatePy, METH_NOARGS, "exit_state()"},
    {"enter_op", PROTON_FASTCALL(EnterOpPy), METH_FASTCALL, "enter_op(id, name)"},
    {"exit_op", ExitOpPy, METH_O, "exit_op(id)"},
    {"add_op_metrics", PROTON_FASTCALL(AddOpMetricsPy), METH_FASTCALL,
     "add_op_metrics(id, metrics)"},
    {"convert_metrics", ConvertMetricsPy, METH_O,
     "the metrics as the core would store them (tests)"},
    {"context_depth", ContextDepth, METH_O, "context_depth(session) -> int | None"},
    {"get_data", GetDocument<false>, METH_VARARGS,
     "get_data(session, phase) -> the hatchet document as Python objects"},
    {"get_msgpack", GetDocument<true>, METH_VARARGS, "get_msgpack(session, phase) -> bytes"},
    {"clear", Clear, METH_VARARGS, "clear(session, phase, clear_up_to_phase)"},
    {"advance_phase", AdvancePhase, METH_O, "advance_phase(session) -> int"},
    {"is_phase_complete", IsPhaseComplete, METH_VARARGS,
     "is_phase_complete(session, phase) -> bool"},
    {"set_tensor_converter", SetTensorConverterPy, METH_O, "tensor metric converter"},
    {"set_scope_decorator", SetScopeDecorator, METH_O, "scope.__call__ implementation"},
    {"set_frame_filters", SetFrameFilters, METH_O, "directories whose frames are dropped"},
    {"python_frames", PythonFramesForTest, METH_NOARGS, "the python-context frames here"},
    PROTON_CLI_METHODS PROTON_LAUNCH_HOOK_METHODS{nullptr, nullptr, 0, nullptr},
};

PyModuleDef g_module = {
    PyModuleDef_HEAD_INIT,
    "proton._C",
    "Private binding of the proton core (include/proton/proton.h). Use the proton package.",
    -1,
    g_methods,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace
}  // namespace proton::python

PyMODINIT_FUNC PyInit__C() {
  // The module's entry point into the profiler: the process runtime, which libproton.so's load
  // made already (src/core/cli/cli_session.cc), so the same options apply whoever came first.
  proton::CreateProcessRuntime(proton::cli::ProcessRuntimeOptions());
  PyObject* module = PyModule_Create(&proton::python::g_module);
  if (module == nullptr) return nullptr;
  if (!proton::python::AddScopeTypes(module)) {
    Py_DECREF(module);
    return nullptr;
  }
  proton::python::InstallFrameProvider();
  return module;
}
