"""One Python process of a ``proton`` run (profiler.md §2.4-§2.10), set up at interpreter
start-up by ``sitecustomize``:

* command-line mode and session 0 with the launcher's options (``PROTON_CLI_*``, §2.13): the
  root process at once (§2.9). Other processes write a file only if they record something
  (§2.7); on a machine with an NVIDIA driver their session starts lazily, at their first CUDA
  use, through the CUDA injection (src/cupti -> src/core/cli), because starting it here would
  initialise the driver in every helper process (slow, and a forked child of such a process
  can no longer use CUDA). Without a driver they start a scopes-only session at once, so
  their scopes are recorded. The root's session also starts without its GPU backend when the
  injection is set: the injection attaches it at the program's first ``cuInit``, so a script
  that never touches the GPU does not pay for the driver's initialisation (~250 ms) and a
  child it forks before its first CUDA call can still use CUDA.
* the ``triton.profiler`` alias (§2.12) and the ``-k triton`` hook;
* exit handling: an interpreter exit hook and a wrapped ``os._exit`` write the profile; a
  forked child drops its parent's session (C fork handler) and starts its own;
* in the root process of a script target, the ``An error occurred while executing the
  script:`` line on stdout before the traceback of an uncaught exception (§2.5).

Only ``proton._C`` is loaded here, not the ``proton`` package, so start-up stays cheap; the
package is imported when the user's code imports it (it then reuses this ``_C``).

The script itself is run by the interpreter (``python script.py``), not by this module, so
``sys.argv``, ``__main__``, ``__file__`` and ``sys.path[0]`` are Python's own (§2.4) and no
launcher frame is ever on the stack (§2.8).
"""

import atexit
import os
import sys

_state = {"root": False, "finalized": False, "c": None}


def _load_extension():
    """proton._C without importing the proton package (its import costs tens of ms)."""
    module = sys.modules.get("proton._C")
    if module is not None:
        return module
    # The import system's own modules (always loaded): importlib.util would pull in
    # contextlib and friends, which costs milliseconds at every interpreter start.
    import _frozen_importlib
    import _frozen_importlib_external
    finder = _frozen_importlib_external.PathFinder
    package = finder.find_spec("proton", sys.path)
    if package is None or not package.submodule_search_locations:
        raise ImportError("the proton package is not on sys.path")
    spec = finder.find_spec("proton._C", list(package.submodule_search_locations))
    if spec is None:
        raise ImportError("proton._C is missing for this Python (%s)" % sys.version.split()[0])
    module = _frozen_importlib.module_from_spec(spec)
    sys.modules["proton._C"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["proton._C"]
        raise
    return module


def _is_root():
    return os.environ.get("PROTON_CLI_ROOT_PID") == str(os.getpid())


def _session_name(root):
    name = os.environ.get("PROTON_CLI_NAME", "proton")
    if name in ("", "-"):
        # Only the root writes to stdout; the others write files with base "proton".
        return "-" if root else os.environ.get("PROTON_CLI_FALLBACK_BASE", "proton")
    return name


def _gpu_driver_present():
    # Tests set PROTON_TEST_GPU_DRIVER=1 to take the GPU-machine paths with the fake driver.
    if os.environ.get("PROTON_TEST_GPU_DRIVER") == "1":
        return True
    return os.path.exists("/proc/driver/nvidia/version") or os.path.exists("/dev/nvidiactl")


def _start_session(scopes_only=False):
    c = _state["c"]
    root = _is_root()
    _state["root"] = root
    _state["finalized"] = False
    env = os.environ
    c.start_cli_session(name=_session_name(root),
                        context=env.get("PROTON_CLI_CONTEXT") or "shadow",
                        data=env.get("PROTON_CLI_DATA") or "tree",
                        backend=env.get("PROTON_CLI_BACKEND", ""),
                        mode=env.get("PROTON_CLI_MODE", ""),
                        scopes_only=scopes_only)


def finalize_now():
    """Writes this process's profile once: the root always, others if they recorded."""
    if _state["finalized"]:
        return
    _state["finalized"] = True
    c = _state["c"]
    if c is None:
        return
    try:
        # CUDA used while the driver never ran our injection: say why no kernel is recorded.
        c.warn_if_cuda_ran_unprofiled()
    except Exception:
        pass
    if not c.get_profiling_on():
        return  # finalized by the user already, or never started
    # A forked child's flag is its own: the C fork handler reset it with the parent's sessions.
    if not (_state["root"] or c.has_recorded_anything()):
        return
    # A second Ctrl-C must not cut the write short (§2.10): the process is exiting anyway.
    # `_signal` is the builtin the `signal` module wraps: importing `signal` itself pulls in enum,
    # functools and collections, ~10 ms at every exit.
    previous = None
    try:
        import _signal as signal
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (ValueError, OSError, TypeError):  # not the main thread, or no handler to restore
        previous = None
    try:
        profile = sys.modules.get("proton.profile")
        if profile is not None:
            profile.finalize()  # also unregisters hooks and flushes stdout
        else:
            sys.stdout.flush()
            c.set_profiling_on(False)
            c.finalize(None, "")
    except Exception as error:  # never turn the exit of the user's program into a crash
        sys.stderr.write("[proton] warning: could not write the profile: %s\n" % error)
    finally:
        if previous is not None:
            try:
                signal.signal(signal.SIGINT, previous)
            except (ValueError, OSError, TypeError):
                pass


def _restart_after_fork():
    """Session 0 for a forked child, through the C side (src/core/cli), which leaves the child
    unprofiled when its parent had a GPU backend (CUDA and CUPTI do not survive fork)."""
    library = os.environ.get("CUDA_INJECTION64_PATH", "")
    if library:
        import ctypes
        ctypes.CDLL(library).proton_cli_start()
    else:
        _start_session()


def _install_exit_handling():
    atexit.register(finalize_now)
    real_exit = os._exit

    def _exit(status):
        try:
            finalize_now()
        except BaseException:
            pass
        real_exit(status)

    _exit.__doc__ = real_exit.__doc__
    os._exit = _exit

    def _after_fork_child():
        # The C fork handler already dropped the parent's sessions; start this process's own
        # (on a GPU machine only through CUDA injection, as for any non-root process).
        _state["root"] = False
        _state["finalized"] = False
        if _gpu_driver_present():
            return
        try:
            _restart_after_fork()
        except Exception as error:
            sys.stderr.write("[proton] warning: no profiling session in forked pid %d: %s\n"
                             % (os.getpid(), error))

    os.register_at_fork(after_in_child=_after_fork_child)


def _install_script_error_line():
    previous = sys.excepthook

    def _excepthook(kind, value, traceback):
        if isinstance(kind, type) and issubclass(kind, Exception):
            try:
                sys.stdout.write("An error occurred while executing the script:\n")
                sys.stdout.flush()
            except Exception:
                pass
        previous(kind, value, traceback)

    sys.excepthook = _excepthook


def _alias_enabled():
    value = os.environ.get("PROTON_ALIAS_TRITON_PROFILER")
    if value is None:
        return True  # default on in CLI mode
    return value.strip().lower() in ("1", "true", "on")


def _install_triton_hook():
    try:
        import triton  # eager, as the reference does for -k triton: only the import matters
        del triton
    except ImportError:
        return  # -k triton in a process without Triton: no effect
    from proton.hooks import HookManager, LaunchHook
    HookManager.register(LaunchHook(), 0)


def bootstrap():
    c = _load_extension()
    _state["c"] = c
    c.set_command_line(True)
    if _alias_enabled():
        import _proton_alias
        _proton_alias.install()
    driver = _gpu_driver_present()
    if _is_root() or not driver:
        # With a driver and the injection set, the injection attaches the GPU backend at the
        # program's first cuInit; without the injection (no libproton.so) start it here.
        _start_session(scopes_only=driver and bool(os.environ.get("CUDA_INJECTION64_PATH")))
    else:
        # Lazy: the CUDA injection starts session 0 at this process's first CUDA call. Scopes
        # must reach the core by then (they are no-ops while the flag is off).
        c.set_profiling_on(True)
    _install_exit_handling()
    if _state["root"] and os.environ.get("PROTON_CLI_TARGET") == "script":
        _install_script_error_line()
    if os.environ.get("PROTON_CLI_HOOK") == "triton":
        try:
            _install_triton_hook()
        except Exception as error:
            sys.stderr.write("[proton] warning: -k triton: %s\n" % error)
