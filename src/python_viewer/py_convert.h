// Argument conversion and error raising for proton._viewer. Every function here must be
// called with the GIL held; the bool ones leave a Python error set when they return false.
#pragma once

#include <Python.h>

#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "viewer/cli/cli_args.h"

namespace proton::python_viewer {

// A str argument as its UTF-8 bytes.
bool ToString(PyObject* object, const char* what, std::string* out);

// A list or tuple of str.
bool ToStringList(PyObject* object, const char* what, std::vector<std::string>* out);

// The command's option parser on `options` plus a placeholder FILE, for the one thing the
// typed values (view_options.h) leave out: how the command line scans a value given as the
// argument after its option ("--depth -x": "expected one argument", ambiguous options). A
// usage error raises ValueError.
bool ParseOptions(const std::vector<std::string>& options);

// Raises `status` as `type` with the message the command prints after "proton-viewer: error: ".
// Returns nullptr for `return` chaining.
PyObject* Raise(PyObject* type, const Status& status);

// Raises `message` (UTF-8, other bytes kept as surrogateescape does) as `type`; nullptr.
PyObject* RaiseText(PyObject* type, std::string_view message);

// Reading errors (the file is open already: Python's open() raised for the name): RuntimeError.
PyObject* RaiseReadError(const Status& status);

// Errors of -m resolution as the reference raises them (viewer.md §11.10): a metric not found
// is RuntimeError without " in 'F'", an unsupported unit ValueError without " in metric M",
// anything else ValueError with the command's message.
PyObject* RaiseMetricError(const Status& status, std::string_view display_name);

// A list of str from C++ strings (new reference, nullptr on error).
PyObject* StringList(const std::vector<std::string>& values);

}  // namespace proton::python_viewer
