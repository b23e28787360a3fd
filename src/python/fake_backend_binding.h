// Private test hooks of proton._C over the core's fake GPU backend (profiler.md §5.15):
// lets the pytest suite "launch kernels" without a GPU, so ops, launch-metadata frames,
// python-context kernel paths and thread inheritance (D9) are checked end to end.
// Not part of the user API: names start with `_fake_`.
#pragma once

#include <Python.h>

namespace proton::python {

PyObject* FakeRegister(PyObject* self, PyObject* unused);
PyObject* FakeLaunch(PyObject* self, PyObject* args);
PyObject* FakeFlush(PyObject* self, PyObject* args);

}  // namespace proton::python

#define PROTON_FAKE_BACKEND_METHODS                                                           \
  {"_fake_backend_register", ::proton::python::FakeRegister, METH_NOARGS,                     \
   "register the core's fake backend as backend='fake' (tests only)"},                        \
      {"_fake_launch", ::proton::python::FakeLaunch, METH_VARARGS,                            \
       "_fake_launch(symbol, duration_ns=1000): one kernel launch on the fake backend"},      \
      {"_fake_flush", ::proton::python::FakeFlush, METH_VARARGS,                              \
       "_fake_flush(order=None): deliver the fake backend's queued kernel records as one "    \
       "buffer, all in launch order, or only those at the queue indices in `order`, in that " \
       "order (the rest stay queued)"},
