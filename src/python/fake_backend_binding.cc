// proton._C test hooks over proton::FakeBackend (see fake_backend_binding.h). The launch runs
// on the calling thread with the GIL held, like a driver launch from Python code, so the
// python context captures the caller's frames.
#include "fake_backend_binding.h"

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

PyObject* FakeFlush(PyObject*, PyObject*) {
  FakeBackend* fake = CurrentOrRaise();
  if (fake == nullptr) return nullptr;
  fake->CompleteBuffer();
  Py_RETURN_NONE;
}

}  // namespace proton::python
