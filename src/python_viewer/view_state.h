// What a Python tree object ("gf", python/proton/viewer.py) holds: one prepared profile, or
// the difference of two (apply_diff_profile). It travels to Python as a PyCapsule that owns it.
#pragma once

#include <Python.h>

#include <optional>
#include <string_view>

#include "tree/profile_tree.h"
#include "viewer/cli/view_input.h"

namespace proton::python_viewer {

struct ViewState {
  // The profile, with every column derived so far (derive_metrics appends to columns). For a
  // difference only display_name is set: the difference holds its own tree and values.
  viewer::Prepared plain;
  // Set for a difference: the union tree and the printer's view of it (tree pointer unset:
  // it is pointed at diff->tree where used, so that copies stay valid).
  std::optional<tree::DiffUnion> diff;
  viewer::PrintInput diff_input;

  const tree::ProfileTree& shown_tree() const { return diff ? diff->tree : plain.tree; }
};

// A new capsule owning `state` (nullptr with a Python error on failure).
PyObject* WrapState(ViewState state);

// The state inside `capsule`, or nullptr with TypeError when it is not one of ours.
ViewState* UnwrapState(PyObject* capsule);

}  // namespace proton::python_viewer
