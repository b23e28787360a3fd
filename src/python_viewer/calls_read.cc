// Reading calls of proton._viewer (calls.h).
#include <cmath>
#include <string>
#include <utility>

#include "calls.h"
#include "format/profile_reader.h"
#include "py_convert.h"
#include "tree/profile_tree.h"
#include "util/out_of_memory.h"
#include "view_state.h"

namespace proton::python_viewer {
namespace {

PyObject* NumberOrNone(double value) {
  if (std::isnan(value)) Py_RETURN_NONE;
  // JSON integers stay ints, as json.load gives them.
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15) {
    return PyLong_FromLongLong(static_cast<long long>(value));
  }
  return PyFloat_FromDouble(value);
}

// Adds `key: value` to `dict`, stealing `value`; false on error.
bool SetItem(PyObject* dict, const char* key, PyObject* value) {
  if (value == nullptr) return false;
  const int rc = PyDict_SetItemString(dict, key, value);
  Py_DECREF(value);
  return rc == 0;
}

PyObject* DeviceFields(const tree::DeviceInfo& info) {
  PyObject* fields = PyDict_New();
  if (fields == nullptr) return nullptr;
  bool ok = !info.has_arch || SetItem(fields, "arch", PyUnicode_FromString(info.arch.c_str()));
  const std::pair<const char*, double> numbers[] = {{"bus_width", info.bus_width},
                                                    {"clock_rate", info.clock_rate},
                                                    {"memory_clock_rate", info.memory_clock_rate},
                                                    {"num_sms", info.num_sms}};
  for (const auto& [key, value] : numbers) {
    if (ok && !std::isnan(value)) ok = SetItem(fields, key, NumberOrNone(value));
  }
  if (!ok) Py_CLEAR(fields);
  return fields;
}

// Releases the GIL for its lifetime.
class GilReleased {
 public:
  GilReleased() : saved_(PyEval_SaveThread()) {}
  ~GilReleased() { PyEval_RestoreThread(saved_); }
  GilReleased(const GilReleased&) = delete;
  GilReleased& operator=(const GilReleased&) = delete;

 private:
  PyThreadState* saved_;
};

}  // namespace

PyObject* LoadFd(PyObject*, PyObject* args) {
  int fd = -1;
  PyObject* name = nullptr;
  if (!PyArg_ParseTuple(args, "iO!:load_fd", &fd, &PyBytes_Type, &name)) return nullptr;
  ViewState state;
  state.plain.display_name.assign(PyBytes_AS_STRING(name),
                                  static_cast<size_t>(PyBytes_GET_SIZE(name)));
  // Reading may take seconds for a large profile: other Python threads may run meanwhile.
  // The thread state comes back however the read ends, an exception included (the module's
  // guard turns that into MemoryError, which needs it).
  const std::string& display = state.plain.display_name;
  Result<tree::ProfileTree> tree = [&] {
    const GilReleased released;
    return CatchOutOfMemory("reading '" + display + "'", [&]() -> Result<tree::ProfileTree> {
      PROTON_ASSIGN_OR_RETURN(tree::ProfileTree read, format::ReadProfileFd(fd, display));
      PROTON_RETURN_IF_ERROR(tree::PrepareProfile(read, display));
      return read;
    });
  }();
  if (!tree.ok()) return RaiseReadError(tree.status());
  state.plain.tree = std::move(tree).value();
  return WrapState(std::move(state));
}

PyObject* LoadBytes(PyObject*, PyObject* args) {
  Py_buffer data;
  const char* display_name = nullptr;
  if (!PyArg_ParseTuple(args, "y*s:load_bytes", &data, &display_name)) return nullptr;
  ViewState state;
  state.plain.display_name = display_name;
  Result<tree::ProfileTree> tree = format::ParseProfile(
      std::string_view(static_cast<const char*>(data.buf), static_cast<size_t>(data.len)),
      display_name);
  PyBuffer_Release(&data);
  if (!tree.ok()) return RaiseReadError(tree.status());
  if (Status prepared = tree::PrepareProfile(*tree, display_name); !prepared.ok()) {
    return RaiseReadError(prepared);
  }
  state.plain.tree = std::move(tree).value();
  return WrapState(std::move(state));
}

PyObject* MetricNames(PyObject*, PyObject* capsule) {
  const ViewState* state = UnwrapState(capsule);
  if (state == nullptr) return nullptr;
  const tree::ProfileTree& tree = state->plain.tree;
  std::vector<std::string> inclusive;
  std::vector<std::string> exclusive{"name"};
  for (size_t c = 0; c < tree.columns().size(); ++c) {
    (c < tree.num_inclusive() ? inclusive : exclusive).push_back(tree.columns()[c].key);
  }
  PyObject* inc = StringList(inclusive);
  PyObject* exc = inc == nullptr ? nullptr : StringList(exclusive);
  if (exc == nullptr) {
    Py_XDECREF(inc);
    return nullptr;
  }
  return Py_BuildValue("(NN)", inc, exc);
}

PyObject* DeviceInfo(PyObject*, PyObject* capsule) {
  const ViewState* state = UnwrapState(capsule);
  if (state == nullptr) return nullptr;
  PyObject* table = PyDict_New();
  if (table == nullptr) return nullptr;
  for (const tree::DeviceTable::Entry& entry : state->plain.tree.devices().entries) {
    PyObject* of_type = PyDict_GetItemString(table, entry.device_type.c_str());  // borrowed
    if (of_type == nullptr) {
      of_type = PyDict_New();
      if (!SetItem(table, entry.device_type.c_str(), of_type)) of_type = nullptr;
    }
    if (of_type == nullptr ||
        !SetItem(of_type, entry.device_index.c_str(), DeviceFields(entry.info))) {
      Py_DECREF(table);
      return nullptr;
    }
  }
  return table;
}

PyObject* CopyTree(PyObject*, PyObject* capsule) {
  const ViewState* state = UnwrapState(capsule);
  if (state == nullptr) return nullptr;
  return WrapState(*state);
}

}  // namespace proton::python_viewer
