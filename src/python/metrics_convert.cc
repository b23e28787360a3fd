// Python value → proton::MetricValue conversion (profiler.md §1.8). Kept in C++ because scope
// metrics are converted on every `with proton.scope(name, metrics)`.
#include "metrics_convert.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proton::python {
namespace {

PyObject* g_tensor_converter = nullptr;  // owned reference, set by proton.metric at import

enum class Coercion { kNone, kDouble, kInt };

// The roofline names are coerced as in Triton main, so a launch_metadata function that
// returns an int once and a float the next time does not hit a type-mismatch error.
Coercion CoercionFor(std::string_view name) {
  if (name == "bytes") return Coercion::kInt;
  if (name == "flops" || name == "flops8" || name == "flops16" || name == "flops32" ||
      name == "flops64") {
    return Coercion::kDouble;
  }
  return Coercion::kNone;
}

bool IsTensor(PyObject* value) { return PyObject_HasAttrString(value, "data_ptr") == 1; }

bool TypeError(std::string_view name, PyObject* value) {
  PyErr_Format(PyExc_TypeError, "Unsupported metric value type for '%.200s': %.200s",
               std::string(name).c_str(), Py_TYPE(value)->tp_name);
  return false;
}

// Scalar: int/bool/__index__ objects → int64, float/__float__ objects → double.
// Returns 1 on success, 0 when the value is not a scalar (no exception), -1 on error.
int ConvertScalar(PyObject* value, MetricValue* out) {
  if (PyFloat_Check(value)) {
    *out = PyFloat_AS_DOUBLE(value);
    return 1;
  }
  if (PyLong_Check(value) || PyIndex_Check(value)) {
    long long v = PyLong_Check(value) ? PyLong_AsLongLong(value) : -1;
    if (!PyLong_Check(value)) {
      PyObject* as_int = PyNumber_Index(value);
      if (as_int == nullptr) return -1;
      v = PyLong_AsLongLong(as_int);
      Py_DECREF(as_int);
    }
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = static_cast<int64_t>(v);
    return 1;
  }
  if (Py_TYPE(value)->tp_as_number != nullptr && Py_TYPE(value)->tp_as_number->nb_float &&
      !PyUnicode_Check(value) && !PyBytes_Check(value)) {
    double d = PyFloat_AsDouble(value);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    *out = d;
    return 1;
  }
  return 0;
}

// List or tuple of ints or floats → vector (any float makes it a vector of doubles).
bool ConvertSequence(std::string_view name, PyObject* seq, MetricValue* out) {
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  bool any_double = false;
  ints.reserve(static_cast<size_t>(n));
  doubles.reserve(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    MetricValue item;
    int rc = ConvertScalar(items[i], &item);
    if (rc < 0) return false;
    if (rc == 0) return TypeError(name, items[i]);
    if (const auto* d = std::get_if<double>(&item)) {
      any_double = true;
      doubles.push_back(*d);
    } else {
      const int64_t v = std::get<int64_t>(item);
      ints.push_back(v);
      doubles.push_back(static_cast<double>(v));
    }
  }
  if (any_double) {
    *out = std::move(doubles);
  } else {
    *out = std::move(ints);
  }
  return true;
}

void Coerce(Coercion coercion, MetricValue* value) {
  if (coercion == Coercion::kDouble) {
    if (const auto* i = std::get_if<int64_t>(value)) {
      *value = static_cast<double>(*i);
    } else if (const auto* iv = std::get_if<std::vector<int64_t>>(value)) {
      *value = std::vector<double>(iv->begin(), iv->end());
    }
  } else if (coercion == Coercion::kInt) {
    if (const auto* d = std::get_if<double>(value)) {
      *value = static_cast<int64_t>(*d);
    } else if (const auto* dv = std::get_if<std::vector<double>>(value)) {
      std::vector<int64_t> ints;
      ints.reserve(dv->size());
      for (double x : *dv) ints.push_back(static_cast<int64_t>(x));
      *value = std::move(ints);
    }
  }
}

// Converts one value; returns 1 (stored), 0 (skipped: a tensor the converter declined), -1.
int ConvertValue(std::string_view name, PyObject* value, MetricValue* out);

int ConvertTensor(std::string_view name, PyObject* value, MetricValue* out) {
  if (g_tensor_converter == nullptr) {
    TypeError(name, value);
    return -1;
  }
  PyObject* host = PyObject_CallOneArg(g_tensor_converter, value);
  if (host == nullptr) return -1;
  int rc = 0;
  if (host != Py_None) {
    rc = IsTensor(host) ? (TypeError(name, host), -1) : ConvertValue(name, host, out);
  }
  Py_DECREF(host);
  return rc;
}

int ConvertValue(std::string_view name, PyObject* value, MetricValue* out) {
  if (PyFloat_CheckExact(value) || PyLong_CheckExact(value) || PyBool_Check(value)) {
    return ConvertScalar(value, out);
  }
  if (PyList_Check(value) || PyTuple_Check(value)) {
    PyObject* seq = PySequence_Fast(value, "metric vector");
    if (seq == nullptr) return -1;
    const bool ok = ConvertSequence(name, seq, out);
    Py_DECREF(seq);
    return ok ? 1 : -1;
  }
  // Tensors first: a 0-d tensor also implements __index__/__float__.
  if (IsTensor(value)) return ConvertTensor(name, value, out);
  const int rc = ConvertScalar(value, out);
  if (rc == 0) {
    TypeError(name, value);
    return -1;
  }
  return rc;
}

bool ConvertItem(PyObject* key, PyObject* value, Metrics* out) {
  if (!PyUnicode_Check(key)) {
    PyErr_Format(PyExc_TypeError, "Metric names must be str, not %.200s", Py_TYPE(key)->tp_name);
    return false;
  }
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(key, &size);
  if (utf8 == nullptr) return false;
  std::string_view name(utf8, static_cast<size_t>(size));
  MetricValue converted;
  const int rc = ConvertValue(name, value, &converted);
  if (rc < 0) return false;
  if (rc == 0) return true;
  Coerce(CoercionFor(name), &converted);
  out->emplace_back(std::string(name), std::move(converted));
  return true;
}

}  // namespace

bool IsTensorMetric(PyObject* value) { return IsTensor(value); }

bool ConvertDictMetrics(PyObject* dict, bool (*keep)(PyObject* key, PyObject* value),
                        Metrics* out) {
  Py_ssize_t pos = 0;
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  out->reserve(out->size() + static_cast<size_t>(PyDict_GET_SIZE(dict)));
  while (PyDict_Next(dict, &pos, &key, &value)) {
    if (keep != nullptr && !keep(key, value)) continue;
    Py_INCREF(key);  // a tensor converter may run arbitrary code
    Py_INCREF(value);
    const bool ok = ConvertItem(key, value, out);
    Py_DECREF(value);
    Py_DECREF(key);
    if (!ok) return false;
  }
  return true;
}

bool ConvertMetrics(PyObject* mapping, Metrics* out) {
  if (PyDict_Check(mapping)) return ConvertDictMetrics(mapping, nullptr, out);
  PyObject* items = PyMapping_Items(mapping);
  if (items == nullptr) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "metrics must be a dict, not %.200s", Py_TYPE(mapping)->tp_name);
    return false;
  }
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(items); ++i) {
    PyObject* pair = PyList_GET_ITEM(items, i);
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
      PyErr_SetString(PyExc_TypeError, "metrics items must be (name, value) pairs");
      ok = false;
      break;
    }
    ok = ConvertItem(PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1), out);
  }
  Py_DECREF(items);
  return ok;
}

void SetTensorConverter(PyObject* callable) {
  Py_XINCREF(callable);
  Py_XSETREF(g_tensor_converter, callable);
}

void ClearTensorConverter() { Py_CLEAR(g_tensor_converter); }

}  // namespace proton::python
