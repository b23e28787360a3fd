// Private command-line-mode switches of proton._C for the `proton` command's bootstrap
// (documented in python/proton/__init__.py): set_command_line, is_command_line,
// start_cli_session, has_recorded_anything, warn_if_cuda_ran_unprofiled.
#pragma once

#include <Python.h>

#include "proton/proton.h"

namespace proton::python {

// Runs `start` (proton::Start or proton::StartCliSession) without the GIL, since a backend
// start may wait on the driver, and returns the session id, None, or the raised error.
PyObject* RunStart(const StartOptions& options,
                   Result<std::optional<int>> (*start)(const StartOptions&));

PyObject* SetCommandLine(PyObject* self, PyObject* on);
PyObject* IsCommandLine(PyObject* self, PyObject* unused);
PyObject* StartCliSession(PyObject* self, PyObject* args, PyObject* kwargs);
PyObject* HasRecordedAnythingPy(PyObject* self, PyObject* unused);
PyObject* WarnIfCudaRanUnprofiledPy(PyObject* self, PyObject* unused);

}  // namespace proton::python

#define PROTON_CLI_METHODS                                                                      \
  {"set_command_line", ::proton::python::SetCommandLine, METH_O,                                \
   "set_command_line(on): command-line mode (private, for the proton command)"},                \
      {"is_command_line", ::proton::python::IsCommandLine, METH_NOARGS, "flags.command_line"},  \
      {"start_cli_session",                                                                     \
       reinterpret_cast<PyCFunction>(                                                           \
           reinterpret_cast<void (*)()>(::proton::python::StartCliSession)),                    \
       METH_VARARGS | METH_KEYWORDS,                                                            \
       "start_cli_session(name=None, context='shadow', data='tree', backend='', mode='', "      \
       "scopes_only=False)"},                                                                   \
      {"has_recorded_anything", ::proton::python::HasRecordedAnythingPy, METH_NOARGS,           \
       "whether any scope, metric or kernel was recorded (private)"},                           \
      {"warn_if_cuda_ran_unprofiled", ::proton::python::WarnIfCudaRanUnprofiledPy, METH_NOARGS, \
       "warns when CUDA ran without the injection (private)"},
