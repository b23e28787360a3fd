// The Python API's option values (python/proton/viewer.py) made into the typed ViewOptions
// through the command's own checks (viewer/cli/cli_args.h): the same conversions and the same
// messages as proton-viewer's, without building and parsing a command line. Every function
// here must be called with the GIL held; a bad value leaves ValueError (with the message the
// command prints after "proton-viewer: error: ") or TypeError set and returns false.
#pragma once

#include <Python.h>

#include "viewer/common/options.h"

namespace proton::python_viewer {

// include, exclude: str ("" = none); threshold: None or the text of -t. The checks of -t's
// value, then of -i with -e.
bool SetFilterValues(PyObject* include, PyObject* exclude, PyObject* threshold,
                     viewer::ViewOptions* view);

// SetFilterValues for filter_frames, which always filters by the column `label`: the threshold
// is also checked finite, as the command checks it once there are metrics.
bool SetColumnFilterValues(PyObject* include, PyObject* exclude, PyObject* threshold,
                           const char* label, viewer::ViewOptions* view);

// -m's text ("" = no metrics) and the filters, checked in the command's order: -t's value,
// -i with -e, the -m items, a finite -t with metrics.
bool SetViewValues(PyObject* metrics, PyObject* include, PyObject* exclude, PyObject* threshold,
                   viewer::ViewOptions* view);

// depth: the text of -d; format: None (full) or the text of -f. Both are converted to text
// before either is checked.
bool SetPrintValues(PyObject* depth, PyObject* format, viewer::ViewOptions* view);

// format: None (full) or the text of -f.
bool SetFormatValue(PyObject* format, viewer::ViewOptions* view);

}  // namespace proton::python_viewer
