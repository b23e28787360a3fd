// The per-launch half of Triton's launch hook in C (profiler.md §1.9, §3.6, §3.7): Triton
// calls its launch_enter_hook/launch_exit_hook around every kernel launch, so whatever runs
// there is paid per launch. python/proton/hooks keeps the registry (sessions, priorities,
// activation) in Python; the dispatch over active hooks and LaunchHook's enter/exit live here,
// which keeps Python frames off the launch path except the user's own launch_metadata.
// Every function here runs with the GIL held.
#pragma once

#include <Python.h>

namespace proton::python {

// set_active_hooks(hooks: tuple): the hooks hook_enter/hook_exit run, by descending priority.
PyObject* SetActiveHooks(PyObject* self, PyObject* hooks);
// set_launch_hook(hook, selector | None): the LaunchHook singleton, which the dispatcher runs
// in C, and its kernel-name filter (a callable name -> bool, None when unfiltered).
PyObject* SetLaunchHook(PyObject* self, PyObject* const* args, Py_ssize_t nargs);
// hook_enter(metadata) / hook_exit(metadata): what Triton's runtime knobs call.
PyObject* HookEnter(PyObject* self, PyObject* metadata);
PyObject* HookExit(PyObject* self, PyObject* metadata);
// launch_enter(metadata) / launch_exit(metadata): LaunchHook.enter / LaunchHook.exit.
PyObject* LaunchEnter(PyObject* self, PyObject* metadata);
PyObject* LaunchExit(PyObject* self, PyObject* metadata);

}  // namespace proton::python

#define PROTON_LAUNCH_HOOK_METHODS                                                           \
  {"set_active_hooks", ::proton::python::SetActiveHooks, METH_O,                             \
   "set_active_hooks(hooks: tuple) (private, proton.hooks)"},                                \
      {"set_launch_hook",                                                                    \
       reinterpret_cast<PyCFunction>(                                                        \
           reinterpret_cast<void (*)()>(::proton::python::SetLaunchHook)),                   \
       METH_FASTCALL, "set_launch_hook(hook, selector) (private, proton.hooks)"},            \
      {"hook_enter", ::proton::python::HookEnter, METH_O, "runs the active hooks' enter"},   \
      {"hook_exit", ::proton::python::HookExit, METH_O, "runs the active hooks' exit"},      \
      {"launch_enter", ::proton::python::LaunchEnter, METH_O, "LaunchHook.enter(metadata)"}, \
      {"launch_exit", ::proton::python::LaunchExit, METH_O, "LaunchHook.exit(metadata)"},
