// See launch_hook.h. The Python version this replaces cost ~1.7 µs per launch in frames and
// dict building (bench/overhead/RESULTS.md, "hook" row); the semantics are unchanged:
//   enter: kernel = compiled name (metadata.data["name"]); skip (push a marker) while already
//          inside the hook on this thread, when profiling is off, or when the filter rejects
//          the kernel; otherwise evaluate launch_metadata under the state
//          "__proton_launch_metadata:<kernel>" (GPU work it does, e.g. reading device tensors
//          back, lands under that frame), open the op named by its "name" (else the kernel),
//          and attach every int, float or tensor entry except name/function/stream.
//   exit:  close the op opened by the matching enter.
#include "launch_hook.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "binding_errors.h"
#include "binding_state.h"
#include "metrics_convert.h"
#include "proton/proton.h"

namespace proton::python {
namespace {

constexpr std::string_view kStatePrefix = "__proton_launch_metadata:";
constexpr uint64_t kNotHooked = 0;  // scope ids start at 1

PyObject* g_hooks = nullptr;        // tuple of active hooks, owned
PyObject* g_launch_hook = nullptr;  // the LaunchHook singleton, owned
PyObject* g_selector = nullptr;     // kernel-name filter or nullptr, owned

// Per thread: the op opened by each enter still waiting for its exit (kNotHooked for a launch
// that was not hooked, so enter and exit stay paired), and the re-entry guard for launches made
// by launch_metadata itself.
thread_local std::vector<uint64_t> t_open_ops;
thread_local bool t_in_hook = false;

PyObject* Interned(const char* text) { return PyUnicode_InternFromString(text); }

// getattr(object, name, None) as a new reference; nullptr without an error when absent.
PyObject* OptionalAttr(PyObject* object, PyObject* name) {
  PyObject* value = PyObject_GetAttr(object, name);
  if (value == nullptr && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
  return value;
}

// dict["name"] when it is a str (borrowed), else nullptr. The key is interned once: a
// C-string lookup would build a new str on every launch.
PyObject* StrName(PyObject* dict) {
  static PyObject* const kNameKey = Interned("name");
  PyObject* name = PyDict_GetItem(dict, kNameKey);
  return name != nullptr && PyUnicode_Check(name) ? name : nullptr;
}

// The compiled kernel name (a new reference to a str) or nullptr, read before launch_metadata
// may override "name". Triton passes a LazyDict whose `data` holds it; a plain dict also works.
PyObject* CompiledName(PyObject* metadata) {
  static PyObject* const kDataAttr = Interned("data");
  PyObject* name = nullptr;
  if (PyDict_Check(metadata)) {
    name = StrName(metadata);
  } else {
    PyObject* data = OptionalAttr(metadata, kDataAttr);
    if (data == nullptr && PyErr_Occurred()) return nullptr;
    if (data != nullptr && PyDict_Check(data)) name = StrName(data);
    Py_XINCREF(name);  // before `data`, which may hold the only reference, goes
    Py_XDECREF(data);
    return name;
  }
  Py_XINCREF(name);
  return name;
}

// launch_metadata's values as a dict (new reference): metadata.get() for a LazyDict, the
// mapping itself otherwise; an empty dict for None.
PyObject* Evaluate(PyObject* metadata) {
  static PyObject* const kGetAttr = Interned("get");
  PyObject* result = nullptr;
  if (!PyDict_Check(metadata)) {
    PyObject* getter = OptionalAttr(metadata, kGetAttr);
    if (getter == nullptr && PyErr_Occurred()) return nullptr;
    if (getter != nullptr && PyCallable_Check(getter)) {
      result = PyObject_CallNoArgs(getter);
      Py_DECREF(getter);
      if (result == nullptr) return nullptr;
    } else {
      Py_XDECREF(getter);
    }
  }
  if (result == nullptr) {
    result = metadata;
    Py_INCREF(result);
  }
  if (PyDict_Check(result)) return result;
  PyObject* values = result == Py_None
                         ? PyDict_New()
                         : PyObject_CallOneArg(reinterpret_cast<PyObject*>(&PyDict_Type), result);
  Py_DECREF(result);
  return values;
}

bool IsReservedKey(PyObject* key) {
  return PyUnicode_CompareWithASCIIString(key, "name") == 0 ||
         PyUnicode_CompareWithASCIIString(key, "function") == 0 ||
         PyUnicode_CompareWithASCIIString(key, "stream") == 0;
}

// The metric entries of launch metadata: numbers and tensors, not the reserved keys.
bool IsLaunchMetric(PyObject* key, PyObject* value) {
  if (PyUnicode_Check(key) && IsReservedKey(key)) return false;
  return PyLong_Check(value) || PyFloat_Check(value) || IsTensorMetric(value);
}

// 1 when the launch is hooked, 0 when it is not, -1 on error.
int Selected(PyObject* kernel) {
  if (g_selector == nullptr) return 1;
  PyObject* name = kernel != nullptr ? kernel : PyUnicode_FromStringAndSize("", 0);
  if (kernel != nullptr) Py_INCREF(name);
  if (name == nullptr) return -1;
  PyObject* verdict = PyObject_CallOneArg(g_selector, name);
  Py_DECREF(name);
  if (verdict == nullptr) return -1;
  const int selected = PyObject_IsTrue(verdict);
  Py_DECREF(verdict);
  return selected;
}

std::string_view Utf8(PyObject* text) {
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(text, &size);
  if (utf8 == nullptr) {
    PyErr_Clear();  // a lone surrogate: name the op without it rather than fail the launch
    return {};
  }
  return {utf8, static_cast<size_t>(size)};
}

// Evaluates launch_metadata under its state. Returns the values (new reference) and fills
// `metrics`, or nullptr with an error set; the state is left in every case.
PyObject* EvaluateUnderState(PyObject* metadata, std::string_view kernel, Metrics* metrics) {
  thread_local std::string state;  // reused: the prefix alone is past the small-string size
  state.assign(kStatePrefix).append(kernel);
  proton::EnterState(state);
  t_in_hook = true;
  PyObject* values = Evaluate(metadata);
  if (values != nullptr && !ConvertDictMetrics(values, IsLaunchMetric, metrics)) {
    Py_CLEAR(values);
  }
  t_in_hook = false;
  proton::ExitState();
  return values;
}

bool LaunchEnterImpl(PyObject* metadata) {
  PyObject* kernel = CompiledName(metadata);
  if (kernel == nullptr && PyErr_Occurred()) return false;
  int selected = t_in_hook || !g_profiling_on ? 0 : Selected(kernel);
  if (selected <= 0) {
    Py_XDECREF(kernel);
    if (selected < 0) return false;
    t_open_ops.push_back(kNotHooked);
    return true;
  }
  const std::string_view kernel_name = kernel != nullptr ? Utf8(kernel) : std::string_view();
  Metrics metrics;
  PyObject* values = EvaluateUnderState(metadata, kernel_name, &metrics);
  if (values == nullptr) {
    Py_XDECREF(kernel);
    return false;
  }
  PyObject* op_name = StrName(values);  // borrowed
  std::string_view name = op_name != nullptr  ? Utf8(op_name)
                          : kernel != nullptr ? kernel_name
                                              : "<unknown kernel>";
  const uint64_t op_id = proton::NewScopeId();
  proton::EnterOp(op_id, name);
  t_open_ops.push_back(op_id);
  Py_DECREF(values);
  Py_XDECREF(kernel);
  if (metrics.empty()) return true;
  const Status status = proton::AddOpMetrics(op_id, metrics);
  if (status.ok()) return true;
  RaiseStatus(status);
  return false;
}

void LaunchExitImpl() {
  if (t_open_ops.empty()) return;
  const uint64_t op_id = t_open_ops.back();
  t_open_ops.pop_back();
  if (op_id != kNotHooked) proton::ExitOp(op_id);
}

// Runs hook.enter / hook.exit for each active hook (enter by priority, exit reversed).
template <bool kEnter>
PyObject* Dispatch(PyObject* metadata) {
  static PyObject* const kMethod = Interned(kEnter ? "enter" : "exit");
  if (g_hooks == nullptr) Py_RETURN_NONE;
  PyObject* hooks = g_hooks;  // a hook may replace the tuple while it runs
  Py_INCREF(hooks);
  const Py_ssize_t n = PyTuple_GET_SIZE(hooks);
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject* hook = PyTuple_GET_ITEM(hooks, kEnter ? k : n - 1 - k);
    bool ok = true;
    if (hook == g_launch_hook) {
      if constexpr (kEnter) {
        ok = LaunchEnterImpl(metadata);
      } else {
        LaunchExitImpl();
      }
    } else {
      PyObject* result = PyObject_CallMethodOneArg(hook, kMethod, metadata);
      ok = result != nullptr;
      Py_XDECREF(result);
    }
    if (!ok) {
      Py_DECREF(hooks);
      return nullptr;
    }
  }
  Py_DECREF(hooks);
  Py_RETURN_NONE;
}

}  // namespace

PyObject* SetActiveHooks(PyObject*, PyObject* hooks) {
  if (!PyTuple_Check(hooks)) {
    PyErr_SetString(PyExc_TypeError, "set_active_hooks expects a tuple");
    return nullptr;
  }
  Py_INCREF(hooks);
  Py_XSETREF(g_hooks, hooks);
  Py_RETURN_NONE;
}

PyObject* SetLaunchHook(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "set_launch_hook(hook, selector) takes 2 arguments");
    return nullptr;
  }
  if (args[1] != Py_None && !PyCallable_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "selector must be callable or None");
    return nullptr;
  }
  Py_INCREF(args[0]);
  Py_XSETREF(g_launch_hook, args[0]);
  PyObject* selector = args[1] == Py_None ? nullptr : args[1];
  Py_XINCREF(selector);
  Py_XSETREF(g_selector, selector);
  Py_RETURN_NONE;
}

PyObject* HookEnter(PyObject*, PyObject* metadata) { return Dispatch<true>(metadata); }

PyObject* HookExit(PyObject*, PyObject* metadata) { return Dispatch<false>(metadata); }

PyObject* LaunchEnter(PyObject*, PyObject* metadata) {
  if (!LaunchEnterImpl(metadata)) return nullptr;
  Py_RETURN_NONE;
}

PyObject* LaunchExit(PyObject*, PyObject*) {
  LaunchExitImpl();
  Py_RETURN_NONE;
}

}  // namespace proton::python
