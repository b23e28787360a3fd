// Converts a Python metrics mapping into proton::Metrics (profiler.md §1.8): int/bool →
// int64, float → double, lists/tuples → vectors, tensors through the Python helper that
// proton.metric registers, roofline coercion (flops* → double, bytes → int64).
// Every function here must be called with the GIL held.
#pragma once

#include <Python.h>

#include "proton/proton.h"

namespace proton::python {

// Fills `out` from `mapping` (a dict or any object with items()). Returns false with a Python
// exception set (TypeError for an unsupported value type) on failure.
bool ConvertMetrics(PyObject* mapping, Metrics* out);

// ConvertMetrics over the entries of `dict` for which `keep` (nullptr: all) returns true.
bool ConvertDictMetrics(PyObject* dict, bool (*keep)(PyObject* key, PyObject* value), Metrics* out);

// Whether `value` is a tensor (has `data_ptr`), the test the launch hook uses for metrics.
bool IsTensorMetric(PyObject* value);

// Sets the callable used for tensor values (objects with `data_ptr`): it receives the tensor
// and returns an int, a float, a list of them, or None to skip the metric.
void SetTensorConverter(PyObject* callable);

// Releases the converter (module teardown).
void ClearTensorConverter();

}  // namespace proton::python
