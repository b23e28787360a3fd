// The table behind gf.dataframe (python/proton/viewer.py): one row per node in print order
// (pre-order, sorted children, §7.3), as a dict of equally long lists that pandas takes as is.
#pragma once

#include <Python.h>

#include "view_state.h"
#include "viewer/common/options.h"

namespace proton::python_viewer {

// Columns, in order: "name" (printed as `format` shows it), "depth" (0 for ROOT), "path" (a
// tuple of the stored names from ROOT), then for a profile every raw metric key (own values;
// strings stay str) and "<key> (inc)" for the inclusive ones, then each derived column by its
// label; for a difference, the columns it was made with. Missing values are NaN (None for a
// column of strings). New reference, nullptr with a Python error.
PyObject* BuildTable(const ViewState& state, viewer::NameFormat format);

}  // namespace proton::python_viewer
