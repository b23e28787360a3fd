// Output calls of proton._viewer (calls.h): the command's printers, and the table behind
// gf.dataframe.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "calls.h"
#include "column_lookup.h"
#include "py_convert.h"
#include "table_builder.h"
#include "view_options.h"
#include "view_state.h"
#include "viewer/outputs/output_buffer.h"
#include "viewer/outputs/printers.h"

namespace proton::python_viewer {
namespace {

// Runs the printers into an anonymous in-memory file and returns what they wrote: the
// printers write to a file descriptor, and Python's sys.stdout may not be one.
Result<std::string> PrintToString(const viewer::PrintInput& in,
                                  const viewer::PrintOptions& options) {
  const int fd = ::memfd_create("proton-viewer-output", MFD_CLOEXEC);
  if (fd < 0) return Status::Error(std::string("cannot print: ") + std::strerror(errno));
  int write_error = 0;
  {
    viewer::OutputBuffer out(fd);
    viewer::PrintAll(out, in, options);
    out.Flush();
    write_error = out.error();
  }
  std::string text;
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (write_error == 0 && size > 0) {
    text.resize(static_cast<size_t>(size));
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n =
          ::pread(fd, text.data() + done, text.size() - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    if (done != text.size()) write_error = errno != 0 ? errno : EIO;
  }
  ::close(fd);
  if (write_error != 0) {
    return Status::Error(std::string("cannot print: ") + std::strerror(write_error));
  }
  return text;
}

}  // namespace

PyObject* Render(PyObject*, PyObject* args) {
  PyObject* capsule = nullptr;
  PyObject* labels_object = nullptr;
  PyObject* depth = nullptr;
  PyObject* format = nullptr;
  int print_sorted = 0;
  int color = 0;
  if (!PyArg_ParseTuple(args, "OOOOpp:render", &capsule, &labels_object, &depth, &format,
                        &print_sorted, &color)) {
    return nullptr;
  }
  const ViewState* state = UnwrapState(capsule);
  std::vector<std::string> labels;
  viewer::ViewOptions view;
  if (state == nullptr || !ToStringList(labels_object, "metric", &labels) ||
      !SetPrintValues(depth, format, &view)) {
    return nullptr;
  }
  viewer::PrintInput in;
  if (Status selected = SelectShownColumns(*state, labels, &in); !selected.ok()) {
    return Raise(PyExc_ValueError, selected);
  }
  viewer::PrintOptions print_options;
  print_options.depth = view.depth;
  print_options.format = view.format;
  print_options.color = color != 0;
  print_options.print_sorted = print_sorted != 0;
  Result<std::string> text = PrintToString(in, print_options);
  if (!text.ok()) return Raise(PyExc_OSError, text.status());
  return PyBytes_FromStringAndSize(text->data(), static_cast<Py_ssize_t>(text->size()));
}

PyObject* Table(PyObject*, PyObject* args) {
  PyObject* capsule = nullptr;
  PyObject* format = nullptr;
  if (!PyArg_ParseTuple(args, "OO:table", &capsule, &format)) return nullptr;
  const ViewState* state = UnwrapState(capsule);
  viewer::ViewOptions view;
  if (state == nullptr || !SetFormatValue(format, &view)) return nullptr;
  return BuildTable(*state, view.format);
}

}  // namespace proton::python_viewer
