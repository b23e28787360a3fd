// The python-context frame provider (profiler.md §3.5, §2.8): names the calling thread's
// Python frames "<co_filename>:<line>@<co_name>", outermost first, without our package's
// frames, the launcher bootstrap's, or leading runpy frames. Registered with the core
// (src/core/context/python_frames.h) when proton._C is imported.
#pragma once

#include <Python.h>

namespace proton::python {

// Registers the provider with the core and arranges its removal at interpreter exit.
// Called once from the module init, with the GIL held.
void InstallFrameProvider();

// _C.set_frame_filters(dirs): directory prefixes whose frames are dropped (our package,
// the bootstrap). Replaces the previous list; clears the frame-name cache.
PyObject* SetFrameFilters(PyObject* self, PyObject* dirs);

// _C.python_frames(): the names the provider produces for the calling thread, as a list
// (tests and debugging).
PyObject* PythonFramesForTest(PyObject* self, PyObject* unused);

}  // namespace proton::python
