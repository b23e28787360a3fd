// proton_fake: a test-only CPython module over the core's fake GPU backend (profiler.md §5.15)
// that lets the pytest suite "launch kernels" without a GPU, so ops, launch-metadata frames,
// python-context kernel paths and thread inheritance (D9) are checked end to end. It links
// libproton.so like proton._C, so the backend it registers is in the one core of the process;
// neither libproton.so nor proton._C holds the fake. The launch runs on the calling thread
// with the GIL held, like a driver launch from Python code, so the python context captures
// the caller's frames.
#include <Python.h>

#include <vector>

#include "core/testing/fake_backend.h"

namespace proton::python_fake {
namespace {

FakeBackend* CurrentOrRaise() {
  FakeBackend* fake = FakeBackend::Current();
  if (fake == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "no session runs on the fake backend");
  }
  return fake;
}

PyObject* RegisterBackend(PyObject*, PyObject*) {
  FakeBackend::Register();
  Py_RETURN_NONE;
}

PyObject* Launch(PyObject*, PyObject* args) {
  const char* symbol = nullptr;
  unsigned long long duration_ns = 1000;
  unsigned int stream = 7;
  if (!PyArg_ParseTuple(args, "s|KI:launch", &symbol, &duration_ns, &stream)) return nullptr;
  FakeBackend* fake = CurrentOrRaise();
  if (fake == nullptr) return nullptr;
  return PyLong_FromUnsignedLongLong(fake->LaunchAndRun(symbol, duration_ns, stream));
}

// The queue indices of `order_obj` (a sequence of ints); false with an exception set.
bool QueueOrder(PyObject* order_obj, std::vector<size_t>* order) {
  PyObject* seq = PySequence_Fast(order_obj, "flush: order must be a sequence of ints");
  if (seq == nullptr) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  for (Py_ssize_t i = 0; i < n; ++i) {
    const size_t index = PyLong_AsSize_t(PySequence_Fast_GET_ITEM(seq, i));
    if (PyErr_Occurred()) {
      Py_DECREF(seq);
      return false;
    }
    order->push_back(index);
  }
  Py_DECREF(seq);
  return true;
}

PyObject* Flush(PyObject*, PyObject* args) {
  PyObject* order_obj = Py_None;
  if (!PyArg_ParseTuple(args, "|O:flush", &order_obj)) return nullptr;
  std::vector<size_t> order;
  if (order_obj != Py_None) {
    if (!QueueOrder(order_obj, &order)) return nullptr;
    if (order.empty()) Py_RETURN_NONE;  // an empty buffer: nothing is delivered
  }
  FakeBackend* fake = CurrentOrRaise();
  if (fake == nullptr) return nullptr;
  for (size_t index : order) {
    if (index >= fake->queued()) {
      PyErr_SetString(PyExc_IndexError, "flush: index beyond the queued records");
      return nullptr;
    }
  }
  fake->CompleteBuffer(order);
  Py_RETURN_NONE;
}

PyMethodDef g_methods[] = {
    {"register_backend", RegisterBackend, METH_NOARGS,
     "register the core's fake backend as backend='fake'"},
    {"launch", Launch, METH_VARARGS,
     "launch(symbol, duration_ns=1000, stream=7): one kernel launch on the fake backend"},
    {"flush", Flush, METH_VARARGS,
     "flush(order=None): deliver the fake backend's queued kernel records as one buffer, all "
     "in launch order, or only those at the queue indices in `order`, in that order (the rest "
     "stay queued)"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef g_module = {
    PyModuleDef_HEAD_INIT,
    "proton_fake",
    "The core's fake GPU backend, for proton's tests (not part of the package).",
    -1,
    g_methods,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace
}  // namespace proton::python_fake

PyMODINIT_FUNC PyInit_proton_fake() { return PyModule_Create(&proton::python_fake::g_module); }
