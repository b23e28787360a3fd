// Python frame provider for the python context source (profiler.md §3.5). The stack is
// walked with the public C API only (PyEval_GetFrame, PyFrame_GetBack, PyFrame_GetCode,
// PyFrame_GetLasti, PyFrame_GetLineNumber); each frame name is built once per (code object,
// line) and cached forever, so the string_views handed to the core stay valid
// (python_frames.h contract). The line itself is looked up once per call site (code object,
// instruction offset): PyFrame_GetLineNumber scans the code's line table from its start, which
// was most of the python context's cost per launch in long functions.
// Threading: the provider runs on the capturing application thread and takes the GIL if
// that thread does not hold it; the cache is only touched with the GIL held.
#include "python_frames.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/context/python_frames.h"

// Before 3.11, Python.h leaves out the frame API (PyFrame_GetBack) that this file walks
// with: Ubuntu 22.04's Python is 3.10.
#if PY_VERSION_HEX < 0x030B0000
#include <frameobject.h>
#endif

namespace proton::python {
namespace {

enum class FrameKind : uint8_t { kUser, kDropped, kRunpy };

struct CodeKey {
  PyObject* code;
  int line;  // or, in g_sites, the instruction offset
  bool operator==(const CodeKey& other) const { return code == other.code && line == other.line; }
};

struct CodeKeyHash {
  size_t operator()(const CodeKey& key) const {
    return std::hash<const void*>()(key.code) * 31u + static_cast<size_t>(key.line);
  }
};

struct FrameName {
  std::string name;
  FrameKind kind;
};

// Code objects seen so far (strong references: a cached pointer is never reused by another
// code object) and their classification.
std::unordered_map<PyObject*, FrameKind>* g_code_kinds = nullptr;
// Node-based map: element addresses, hence the string_views given out, are stable.
std::unordered_map<CodeKey, FrameName, CodeKeyHash>* g_names = nullptr;
// Call sites (code object, instruction offset) seen so far and their frame name.
std::unordered_map<CodeKey, const FrameName*, CodeKeyHash>* g_sites = nullptr;
std::vector<std::string>* g_filters = nullptr;
bool g_finalizing = false;

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string AttrString(PyObject* object, const char* attr) {
  std::string result;
  PyObject* value = PyObject_GetAttrString(object, attr);
  if (value != nullptr && PyUnicode_Check(value)) {
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(value, &size);
    if (utf8 != nullptr) result.assign(utf8, static_cast<size_t>(size));
  }
  Py_XDECREF(value);
  if (PyErr_Occurred()) PyErr_Clear();
  return result;
}

FrameKind Classify(std::string_view filename) {
  if (filename == "<frozen runpy>" || EndsWith(filename, "/runpy.py")) return FrameKind::kRunpy;
  for (const std::string& prefix : *g_filters) {
    if (StartsWith(filename, prefix)) return FrameKind::kDropped;
  }
  return FrameKind::kUser;
}

FrameKind KindOf(PyObject* code) {
  auto it = g_code_kinds->find(code);
  if (it != g_code_kinds->end()) return it->second;
  const FrameKind kind = Classify(AttrString(code, "co_filename"));
  Py_INCREF(code);
  g_code_kinds->emplace(code, kind);
  return kind;
}

const FrameName& NameOf(PyObject* code, int line) {
  auto it = g_names->find(CodeKey{code, line});
  if (it != g_names->end()) return it->second;
  const FrameKind kind = KindOf(code);
  std::string name = AttrString(code, "co_filename");
  name += ':';
  name += std::to_string(line);
  name += '@';
  name += AttrString(code, "co_name");
  return g_names->emplace(CodeKey{code, line}, FrameName{std::move(name), kind}).first->second;
}

const FrameName& NameAt(PyFrameObject* frame, PyObject* code) {
#if PY_VERSION_HEX >= 0x030B0000
  const CodeKey site{code, PyFrame_GetLasti(frame)};
  auto it = g_sites->find(site);
  if (it != g_sites->end()) return *it->second;
  const FrameName& name = NameOf(code, PyFrame_GetLineNumber(frame));  // keeps `code` alive
  g_sites->emplace(site, &name);
  return name;
#else
  return NameOf(code, PyFrame_GetLineNumber(frame));
#endif
}

// Appends the current thread's frames outermost first. Needs the GIL.
void CollectFrames(std::vector<std::string_view>* frames) {
  if (g_names == nullptr) return;
  // Innermost first while walking; reversed at the end.
  thread_local std::vector<const FrameName*> walked;
  walked.clear();
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed
  Py_XINCREF(frame);
  while (frame != nullptr) {
    PyCodeObject* code = PyFrame_GetCode(frame);  // new reference
    walked.push_back(&NameAt(frame, reinterpret_cast<PyObject*>(code)));
    Py_DECREF(code);
    PyFrameObject* back = PyFrame_GetBack(frame);  // new reference
    Py_DECREF(frame);
    frame = back;
  }
  size_t outer = walked.size();
  // Leading (outermost) runpy frames are the `python -m` machinery, not the program.
  while (outer > 0 && walked[outer - 1]->kind == FrameKind::kRunpy) --outer;
  for (size_t i = outer; i > 0; --i) {
    const FrameName* name = walked[i - 1];
    if (name->kind == FrameKind::kDropped) continue;
    frames->push_back(name->name);
  }
}

bool InterpreterUsable() {
  if (g_finalizing || !Py_IsInitialized()) return false;
#if PY_VERSION_HEX >= 0x030D0000
  return !Py_IsFinalizing();
#else
  return !_Py_IsFinalizing();
#endif
}

void Provider(std::vector<std::string_view>* frames) {
  if (!InterpreterUsable()) return;
  if (PyGILState_Check()) {
    CollectFrames(frames);
    return;
  }
  // A thread that never ran Python has no frames: do not create a thread state for it.
  if (PyGILState_GetThisThreadState() == nullptr) return;
  PyGILState_STATE gil = PyGILState_Ensure();
  CollectFrames(frames);
  PyGILState_Release(gil);
}

void AtInterpreterExit() {
  SetPythonFrameProvider(nullptr);
  g_finalizing = true;
}

}  // namespace

void InstallFrameProvider() {
  if (g_names == nullptr) {
    g_code_kinds = new std::unordered_map<PyObject*, FrameKind>();  // never freed: views
    g_names = new std::unordered_map<CodeKey, FrameName, CodeKeyHash>();
    g_sites = new std::unordered_map<CodeKey, const FrameName*, CodeKeyHash>();
    g_filters = new std::vector<std::string>();
  }
  SetPythonFrameProvider(&Provider);
  Py_AtExit(&AtInterpreterExit);
}

PyObject* SetFrameFilters(PyObject* /*self*/, PyObject* dirs) {
  PyObject* seq = PySequence_Fast(dirs, "set_frame_filters expects a sequence of str");
  if (seq == nullptr) return nullptr;
  std::vector<std::string> filters;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_Check(item) ? PyUnicode_AsUTF8AndSize(item, &size) : nullptr;
    if (utf8 == nullptr) {
      Py_DECREF(seq);
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "frame filters must be str");
      return nullptr;
    }
    if (size > 0) filters.emplace_back(utf8, static_cast<size_t>(size));
  }
  Py_DECREF(seq);
  *g_filters = std::move(filters);
  // Re-classify on next sight. Cached names stay allocated: views may still be in use.
  for (auto& [code, kind] : *g_code_kinds) kind = Classify(AttrString(code, "co_filename"));
  for (auto& [key, name] : *g_names) name.kind = (*g_code_kinds)[key.code];
  Py_RETURN_NONE;
}

PyObject* PythonFramesForTest(PyObject* /*self*/, PyObject* /*unused*/) {
  std::vector<std::string_view> frames;
  CollectFrames(&frames);
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(frames.size()));
  if (list == nullptr) return nullptr;
  for (size_t i = 0; i < frames.size(); ++i) {
    PyObject* item = PyUnicode_DecodeUTF8(frames[i].data(),
                                          static_cast<Py_ssize_t>(frames[i].size()), "replace");
    if (item == nullptr) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  }
  return list;
}

}  // namespace proton::python
