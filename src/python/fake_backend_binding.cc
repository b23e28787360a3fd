// proton._C test hooks over proton::FakeBackend (see fake_backend_binding.h). The launch runs
// on the calling thread with the GIL held, like a driver launch from Python code, so the
// python context captures the caller's frames.
#include "fake_backend_binding.h"

#include <vector>

#include "core/backend/fake_backend.h"

namespace proton::python {
namespace {

FakeBackend* CurrentOrRaise() {
  FakeBackend* fake = FakeBackend::Current();
  if (fake == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "no session runs on the fake backend");
  }
  return fake;
}

}  // namespace

PyObject* FakeRegister(PyObject*, PyObject*) {
  FakeBackend::Register();
  Py_RETURN_NONE;
}

PyObject* FakeLaunch(PyObject*, PyObject* args) {
  const char* symbol = nullptr;
  unsigned long long duration_ns = 1000;
  unsigned int stream = 7;
  if (!PyArg_ParseTuple(args, "s|KI:_fake_launch", &symbol, &duration_ns, &stream)) return nullptr;
  FakeBackend* fake = CurrentOrRaise();
  if (fake == nullptr) return nullptr;
  return PyLong_FromUnsignedLongLong(fake->LaunchAndRun(symbol, duration_ns, stream));
}

PyObject* FakeFlush(PyObject*, PyObject* args) {
  PyObject* order_obj = Py_None;
  if (!PyArg_ParseTuple(args, "|O:_fake_flush", &order_obj)) return nullptr;
  std::vector<size_t> order;
  if (order_obj != Py_None) {
    PyObject* seq = PySequence_Fast(order_obj, "_fake_flush: order must be a sequence of ints");
    if (seq == nullptr) return nullptr;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n; ++i) {
      size_t index = PyLong_AsSize_t(PySequence_Fast_GET_ITEM(seq, i));
      if (PyErr_Occurred()) {
        Py_DECREF(seq);
        return nullptr;
      }
      order.push_back(index);
    }
    Py_DECREF(seq);
    if (order.empty()) Py_RETURN_NONE;  // an empty buffer: nothing is delivered
  }
  FakeBackend* fake = CurrentOrRaise();
  if (fake == nullptr) return nullptr;
  for (size_t index : order) {
    if (index >= fake->queued()) {
      PyErr_SetString(PyExc_IndexError, "_fake_flush: index beyond the queued records");
      return nullptr;
    }
  }
  fake->CompleteBuffer(order);
  Py_RETURN_NONE;
}

}  // namespace proton::python
