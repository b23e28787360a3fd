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
  PyObject* options_object = nullptr;
  int color = 0;
  if (!PyArg_ParseTuple(args, "OOOp:render", &capsule, &labels_object, &options_object, &color)) {
    return nullptr;
  }
  const ViewState* state = UnwrapState(capsule);
  std::vector<std::string> labels;
  std::vector<std::string> options;
  viewer::ViewerArgs print_args;
  if (state == nullptr || !ToStringList(labels_object, "metric", &labels) ||
      !ToStringList(options_object, "option", &options) || !ParseOptions(options, &print_args)) {
    return nullptr;
  }
  viewer::PrintInput in;
  if (Status selected = SelectShownColumns(*state, labels, &in); !selected.ok()) {
    return Raise(PyExc_ValueError, selected);
  }
  viewer::PrintOptions print_options;
  print_options.depth = print_args.depth;
  print_options.format = print_args.format;
  print_options.color = color != 0;
  print_options.print_sorted = print_args.print_sorted;
  Result<std::string> text = PrintToString(in, print_options);
  if (!text.ok()) return Raise(PyExc_OSError, text.status());
  return PyBytes_FromStringAndSize(text->data(), static_cast<Py_ssize_t>(text->size()));
}

PyObject* Table(PyObject*, PyObject* args) {
  PyObject* capsule = nullptr;
  PyObject* options_object = nullptr;
  if (!PyArg_ParseTuple(args, "OO:table", &capsule, &options_object)) return nullptr;
  const ViewState* state = UnwrapState(capsule);
  std::vector<std::string> options;
  viewer::ViewerArgs table_args;
  if (state == nullptr || !ToStringList(options_object, "option", &options) ||
      !ParseOptions(options, &table_args)) {
    return nullptr;
  }
  return BuildTable(*state, table_args.format);
}

}  // namespace proton::python_viewer
