// See view_options.h.
#include "view_options.h"

#include <string>

#include "py_convert.h"
#include "viewer/cli/cli_args.h"

namespace proton::python_viewer {
namespace {

// A failed check as the ValueError the API raises for it.
bool Check(const Status& status) {
  if (status.ok()) return true;
  Raise(PyExc_ValueError, status);
  return false;
}

// The values arrive as str: viewer.py made them text as it did for the command line, so that
// a wrong type raises what it raised there ("option must be str, ...").
bool Text(PyObject* object, std::string* out) { return ToString(object, "option", out); }

bool SetThresholdValue(PyObject* threshold, viewer::ViewOptions* view) {
  if (threshold == Py_None) return true;
  std::string text;
  return Text(threshold, &text) && Check(viewer::SetThreshold(*view, text));
}

}  // namespace

bool SetFilterValues(PyObject* include, PyObject* exclude, PyObject* threshold,
                     viewer::ViewOptions* view) {
  return Text(include, &view->include) && Text(exclude, &view->exclude) &&
         SetThresholdValue(threshold, view) && Check(viewer::CheckIncludeExclude(*view));
}

bool SetColumnFilterValues(PyObject* include, PyObject* exclude, PyObject* threshold,
                           const char* label, viewer::ViewOptions* view) {
  if (!SetFilterValues(include, exclude, threshold, view)) return false;
  view->metrics.assign(1, label);
  return Check(viewer::CheckThresholdFinite(*view));
}

bool SetViewValues(PyObject* metrics, PyObject* include, PyObject* exclude, PyObject* threshold,
                   viewer::ViewOptions* view) {
  std::string text;
  return SetFilterValues(include, exclude, threshold, view) && Text(metrics, &text) &&
         Check(viewer::SetMetrics(*view, text)) && Check(viewer::CheckThresholdFinite(*view));
}

bool SetPrintValues(PyObject* depth, PyObject* format, viewer::ViewOptions* view) {
  // Both are converted before either is checked, as the whole command line was.
  std::string depth_text;
  std::string format_text;
  if (!Text(depth, &depth_text) || (format != Py_None && !Text(format, &format_text))) {
    return false;
  }
  if (!Check(viewer::SetDepth(*view, depth_text))) return false;
  return format == Py_None || Check(viewer::SetFormat(*view, format_text));
}

bool SetFormatValue(PyObject* format, viewer::ViewOptions* view) {
  if (format == Py_None) return true;
  std::string text;
  return Text(format, &text) && Check(viewer::SetFormat(*view, text));
}

}  // namespace proton::python_viewer
