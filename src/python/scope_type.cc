// proton.scope / proton.cpu_timed_scope as C types (profiler.md §1.5). Enter: when profiling
// is on, allocate a scope id, push it in every active session, attach the metrics. Exit: pop
// it (and, for cpu_timed_scope, add the exclusive `cpu_time (ns)`). Both are no-ops when
// profiling is off. The decorator form is Python (`proton/scope.py`), registered here.
// Threading: application threads, GIL held.
#include "scope_type.h"

#include <chrono>
#include <cstdint>
#include <string_view>

#include "binding_errors.h"
#include "binding_state.h"
#include "metrics_convert.h"
#include "proton/proton.h"

namespace proton::python {
namespace {

struct ScopeObject {
  PyObject_HEAD PyObject* name;  // the name as given (str when entered)
  PyObject* metrics;             // dict or None
  uint64_t id;                   // last scope id, 0 = never entered
  int64_t start_ns;              // cpu_timed_scope: monotonic clock at enter
  bool entered;                  // the last enter reached the core
  bool timed;                    // cpu_timed_scope
};

PyObject* g_decorator = nullptr;  // owned; set by proton.scope at import

// Recycled objects of the two exact types (never of user subclasses): a `with` statement
// creates and frees one scope, and pymalloc plus PyType_GenericAlloc's memset are a visible
// part of the enter+exit cost. Only touched with the GIL held.
constexpr int kFreeListMax = 32;
ScopeObject* g_free_list[kFreeListMax];
int g_free_count = 0;

int64_t MonotonicNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool NameView(PyObject* name, std::string_view* out) {
  if (!PyUnicode_Check(name)) {
    PyErr_Format(PyExc_TypeError, "scope name must be str, not %.200s", Py_TYPE(name)->tp_name);
    return false;
  }
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(name, &size);
  if (utf8 == nullptr) return false;
  *out = std::string_view(utf8, static_cast<size_t>(size));
  return true;
}

// Shared by tp_init and the vectorcall constructor. Steals nothing.
int InitFields(ScopeObject* self, PyObject* name, PyObject* metrics, bool timed) {
  if (metrics == nullptr) metrics = Py_None;
  if (timed && metrics != Py_None) {
    PyObject* reserved = PyUnicode_FromString("cpu_time");
    if (reserved == nullptr) return -1;
    const int has = PySequence_Contains(metrics, reserved);
    Py_DECREF(reserved);
    if (has < 0) return -1;
    if (has == 1) {
      PyErr_SetString(PyExc_ValueError, "The metric name 'cpu_time' is reserved.");
      return -1;
    }
  }
  Py_INCREF(name);
  Py_XSETREF(self->name, name);
  Py_INCREF(metrics);
  Py_XSETREF(self->metrics, metrics);
  self->timed = timed;
  self->entered = false;
  return 0;
}

bool IsTimedType(PyTypeObject* type);

int ScopeInit(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* const kKeywords[] = {"name", "metrics", nullptr};
  PyObject* name = nullptr;
  PyObject* metrics = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O", const_cast<char**>(kKeywords), &name,
                                   &metrics)) {
    return -1;
  }
  return InitFields(reinterpret_cast<ScopeObject*>(self), name, metrics,
                    IsTimedType(Py_TYPE(self)));
}

PyObject* ScopeNew(PyTypeObject* type, PyObject* /*args*/, PyObject* /*kwargs*/) {
  PyObject* self = type->tp_alloc(type, 0);
  if (self == nullptr) return nullptr;
  auto* scope = reinterpret_cast<ScopeObject*>(self);
  Py_INCREF(Py_None);
  scope->name = Py_None;
  Py_INCREF(Py_None);
  scope->metrics = Py_None;
  return self;
}

// Fast constructor for the exact types: avoids tuple/dict argument packing.
PyObject* ScopeVectorcall(PyObject* type_object, PyObject* const* args, size_t nargsf,
                          PyObject* kwnames) {
  auto* type = reinterpret_cast<PyTypeObject*>(type_object);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* name = nargs > 0 ? args[0] : nullptr;
  PyObject* metrics = nargs > 1 ? args[1] : nullptr;
  if (nargs > 2) {
    PyErr_Format(PyExc_TypeError, "%.100s() takes at most 2 positional arguments (%zd given)",
                 type->tp_name, nargs);
    return nullptr;
  }
  const Py_ssize_t nkw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, i);
    PyObject** slot = nullptr;
    if (PyUnicode_CompareWithASCIIString(key, "name") == 0) slot = &name;
    if (PyUnicode_CompareWithASCIIString(key, "metrics") == 0) slot = &metrics;
    if (slot == nullptr || *slot != nullptr) {
      PyErr_Format(PyExc_TypeError, "%.100s() got an unexpected or repeated argument '%U'",
                   type->tp_name, key);
      return nullptr;
    }
    *slot = args[nargs + i];
  }
  if (name == nullptr) {
    PyErr_Format(PyExc_TypeError, "%.100s() missing required argument 'name'", type->tp_name);
    return nullptr;
  }
  PyObject* self = nullptr;
  if (g_free_count > 0) {
    ScopeObject* recycled = g_free_list[--g_free_count];
    self = PyObject_Init(reinterpret_cast<PyObject*>(recycled), type);
    recycled->name = Py_None;
    recycled->metrics = Py_None;
    Py_INCREF(Py_None);
    Py_INCREF(Py_None);
    recycled->id = 0;
  } else {
    self = ScopeNew(type, nullptr, nullptr);
    if (self == nullptr) return nullptr;
  }
  if (InitFields(reinterpret_cast<ScopeObject*>(self), name, metrics, IsTimedType(type)) < 0) {
    Py_DECREF(self);
    return nullptr;
  }
  return self;
}

bool IsExactScopeType(PyTypeObject* type);

void ScopeDealloc(PyObject* self) {
  auto* scope = reinterpret_cast<ScopeObject*>(self);
  Py_CLEAR(scope->name);
  Py_CLEAR(scope->metrics);
  if (g_free_count < kFreeListMax && IsExactScopeType(Py_TYPE(self))) {
    g_free_list[g_free_count++] = scope;
    return;
  }
  Py_TYPE(self)->tp_free(self);
}

PyObject* ScopeEnter(PyObject* self, PyObject* /*unused*/) {
  auto* scope = reinterpret_cast<ScopeObject*>(self);
  scope->entered = false;
  if (g_profiling_on) {
    std::string_view name;
    if (!NameView(scope->name, &name)) return nullptr;
    Metrics metrics;
    // Converted before entering, so a bad value leaves the stacks untouched.
    if (scope->metrics != Py_None) {
      const int truthy = PyObject_IsTrue(scope->metrics);
      if (truthy < 0) return nullptr;
      if (truthy == 1 && !ConvertMetrics(scope->metrics, &metrics)) return nullptr;
    }
    if (scope->timed) scope->start_ns = MonotonicNs();
    const uint64_t id = NewScopeId();
    EnterScope(id, name);
    scope->id = id;
    scope->entered = true;
    if (!metrics.empty()) {
      Status status = AddMetrics(id, metrics);
      if (!status.ok()) {
        // __exit__ will not run after a failed __enter__: leave the stacks balanced.
        scope->entered = false;
        (void)ExitScope(id, name);
        return RaiseStatus(status);
      }
    }
  }
  Py_INCREF(self);
  return self;
}

PyObject* ScopeExit(PyObject* self, PyObject* const* /*args*/, Py_ssize_t /*nargs*/) {
  auto* scope = reinterpret_cast<ScopeObject*>(self);
  if (!scope->entered) Py_RETURN_NONE;
  scope->entered = false;
  if (!g_profiling_on) Py_RETURN_NONE;  // finalize(None) ran inside the scope
  const int64_t end_ns = scope->timed ? MonotonicNs() : 0;
  std::string_view name;
  if (!NameView(scope->name, &name)) return nullptr;
  if (scope->timed) {
    // Added while the scope is still open: the core maps a scope id to its node only then.
    const Metrics cpu_time = {{"cpu_time (ns)(exc)", MetricValue{end_ns - scope->start_ns}}};
    Status status = AddMetrics(scope->id, cpu_time);
    if (!status.ok()) {
      (void)ExitScope(scope->id, name);
      return RaiseStatus(status);
    }
  }
  return NoneOrRaise(ExitScope(scope->id, name));
}

PyObject* ScopeCall(PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject* func = nullptr;
  if (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0) {
    PyErr_SetString(PyExc_TypeError, "a scope decorates one function");
    return nullptr;
  }
  if (!PyArg_UnpackTuple(args, "__call__", 1, 1, &func)) return nullptr;
  if (g_decorator == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "proton.scope is not initialised");
    return nullptr;
  }
  return PyObject_CallFunctionObjArgs(g_decorator, self, func, nullptr);
}

PyObject* GetId(PyObject* self, void* /*closure*/) {
  auto* scope = reinterpret_cast<ScopeObject*>(self);
  if (scope->id == 0) Py_RETURN_NONE;
  return PyLong_FromUnsignedLongLong(scope->id);
}

PyObject* GetName(PyObject* self, void* /*closure*/) {
  PyObject* name = reinterpret_cast<ScopeObject*>(self)->name;
  Py_INCREF(name);
  return name;
}

PyObject* GetMetrics(PyObject* self, void* /*closure*/) {
  PyObject* metrics = reinterpret_cast<ScopeObject*>(self)->metrics;
  Py_INCREF(metrics);
  return metrics;
}

PyMethodDef g_scope_methods[] = {
    {"__enter__", ScopeEnter, METH_NOARGS, "Enter the scope (no-op when profiling is off)."},
    {"__exit__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(ScopeExit)),
     METH_FASTCALL, "Exit the scope."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef g_scope_get_set[] = {
    {"name", GetName, nullptr, "the scope name", nullptr},
    {"metrics", GetMetrics, nullptr, "metrics attached at enter, or None", nullptr},
    {"id", GetId, nullptr, "the scope id of the last enter, or None", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

constexpr const char* kScopeDoc =
    "scope(name, metrics=None)\n--\n\n"
    "A context manager and decorator that records a named region on the calling thread.\n"
    "`metrics` (a dict of numbers, lists of numbers or tensors) is attached to the scope's\n"
    "node at enter. A no-op while profiling is off.";

constexpr const char* kTimedDoc =
    "cpu_timed_scope(name, metrics=None)\n--\n\n"
    "Like scope, and also adds the exclusive metric `cpu_time (ns)`: the host wall time\n"
    "between enter and exit. 'cpu_time' is a reserved metric name.";

PyTypeObject MakeType(const char* name, const char* doc) {
  PyTypeObject type{PyVarObject_HEAD_INIT(nullptr, 0)};
  type.tp_name = name;
  type.tp_basicsize = sizeof(ScopeObject);
  // No GC support: a scope only references its name and metrics, and the per-object GC
  // header and tracking would cost a noticeable part of the enter+exit budget.
  type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  type.tp_doc = doc;
  type.tp_new = ScopeNew;
  type.tp_init = ScopeInit;
  type.tp_dealloc = ScopeDealloc;
  type.tp_call = ScopeCall;
  type.tp_vectorcall = ScopeVectorcall;
  return type;
}

PyTypeObject g_scope_type = MakeType("proton.scope.scope", kScopeDoc);
PyTypeObject g_timed_type = MakeType("proton.scope.cpu_timed_scope", kTimedDoc);

bool IsTimedType(PyTypeObject* type) {
  return type == &g_timed_type || (type != &g_scope_type && PyType_IsSubtype(type, &g_timed_type));
}

bool IsExactScopeType(PyTypeObject* type) { return type == &g_scope_type || type == &g_timed_type; }

}  // namespace

bool AddScopeTypes(PyObject* module) {
  g_scope_type.tp_methods = g_scope_methods;
  g_scope_type.tp_getset = g_scope_get_set;
  g_timed_type.tp_base = &g_scope_type;
  if (PyType_Ready(&g_scope_type) < 0 || PyType_Ready(&g_timed_type) < 0) return false;
  Py_INCREF(&g_scope_type);
  if (PyModule_AddObject(module, "scope", reinterpret_cast<PyObject*>(&g_scope_type)) < 0) {
    Py_DECREF(&g_scope_type);
    return false;
  }
  Py_INCREF(&g_timed_type);
  if (PyModule_AddObject(module, "cpu_timed_scope", reinterpret_cast<PyObject*>(&g_timed_type)) <
      0) {
    Py_DECREF(&g_timed_type);
    return false;
  }
  return true;
}

PyObject* SetScopeDecorator(PyObject* /*self*/, PyObject* fn) {
  if (!PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "the scope decorator must be callable");
    return nullptr;
  }
  Py_INCREF(fn);
  Py_XSETREF(g_decorator, fn);
  Py_RETURN_NONE;
}

}  // namespace proton::python
