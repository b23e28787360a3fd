"""proton: a drop-in for ``import triton.profiler as proton`` (profiler.md §1).

Importing this package loads ``proton._C`` (and libproton.so) only: it never imports
``torch`` or ``triton`` and never loads libcuda/libcupti; the GPU backend is loaded by the
first :func:`start`. Without an NVIDIA driver, sessions record scopes and metrics only.

Private interface for the ``proton`` command's bootstrap (python/proton_bootstrap) and
``proton._cli`` — not for users:

``proton._C.set_command_line(on: bool) -> None``
    Puts the process in command-line mode (or takes it out): ``flags.command_line`` and the
    core's CLI flag. From then on :func:`start` is ignored and returns None, and the
    session-0 rules of profiler.md §1.4 (D1, D2) apply.
``proton._C.is_command_line() -> bool``
    Whether the process is in command-line mode.
``proton._C.start_cli_session(name=None, context="shadow", data="tree", backend="", mode="", scopes_only=False)``
    Creates (or joins) session 0 for the command although :func:`start` ignores calls in
    command-line mode (core: ``StartCliSession``), and sets ``flags.profiling_on``. The
    arguments are the launcher's ``PROTON_CLI_*`` values (profiler.md §2.13); returns the
    session id (0), or None when profiling is disabled. Call it after
    ``set_command_line(True)``. ``scopes_only=True`` starts no GPU backend: the CUDA
    injection attaches it at the program's first ``cuInit``.
``proton._C.warn_if_cuda_ran_unprofiled() -> bool``
    In a ``proton`` run: when this process initialised CUDA but the driver never ran our
    injection (so no kernel was recorded), prints the one-line warning and returns True.
``proton._C.has_recorded_anything() -> bool``
    Whether this process recorded any scope, metric or kernel (§2.7: helper processes
    write a file only then).
``proton._C.set_profiling_on(on: bool) -> None``
    Sets ``flags.profiling_on`` (scopes and states are no-ops while it is False). A helper
    process whose session starts lazily (profiler.md §2.9) sets it to True so its first
    scope reaches the core.
``proton._C.set_frame_filters(dirs: list[str]) -> None``
    Directory prefixes whose frames the python context drops (§2.8). The package sets its own
    directory and a sibling ``proton_bootstrap``; a bootstrap installed elsewhere adds its
    directory with ``proton._frame_filters.add(dir)``.
``proton.hooks.HookManager.register(proton.hooks.LaunchHook(), 0)``
    What ``-k triton`` does for session 0 (imports ``triton.knobs``).
"""

from . import _frame_filters  # loads proton._C (and libproton.so) first
from . import flags
from .scope import scope, cpu_timed_scope, enter_scope, exit_scope
from .state import state, enter_state, exit_state, metadata_state
from .profile import start, activate, deactivate, finalize, profile, DEFAULT_PROFILE_NAME
from . import context, data, hooks, metric, mode, specs

_frame_filters.add_own_directories()

__version__ = "0.1.0"

__all__ = [
    "start", "activate", "deactivate", "finalize", "profile", "DEFAULT_PROFILE_NAME",
    "scope", "cpu_timed_scope", "enter_scope", "exit_scope",
    "state", "enter_state", "exit_state", "metadata_state",
    "context", "data", "hooks", "metric", "mode", "specs", "flags",
]
