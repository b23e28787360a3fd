// See view_state.h.
#include "view_state.h"

#include <new>
#include <utility>

namespace proton::python_viewer {
namespace {

constexpr const char* kCapsuleName = "proton._viewer.ViewState";

void DestroyState(PyObject* capsule) {
  delete static_cast<ViewState*>(PyCapsule_GetPointer(capsule, kCapsuleName));
}

}  // namespace

PyObject* WrapState(ViewState state) {
  auto* owned = new (std::nothrow) ViewState(std::move(state));
  if (owned == nullptr) return PyErr_NoMemory();
  PyObject* capsule = PyCapsule_New(owned, kCapsuleName, DestroyState);
  if (capsule == nullptr) delete owned;
  return capsule;
}

ViewState* UnwrapState(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, kCapsuleName)) {
    PyErr_SetString(PyExc_TypeError, "expected a proton.viewer tree object");
    return nullptr;
  }
  return static_cast<ViewState*>(PyCapsule_GetPointer(capsule, kCapsuleName));
}

}  // namespace proton::python_viewer
