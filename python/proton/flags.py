"""Process-wide profiler flags (``proton.flags.flags``), as in ``triton.profiler.flags``.

``profiling_on`` is True between a successful :func:`proton.start` (or the ``proton``
command's bootstrap) and ``finalize()``; scopes and states are no-ops while it is False.
``command_line`` is True in a process started by the ``proton`` command. The flags are
read-only for users; the values live in ``proton._C`` so the C scope fast path can read them.
"""

from . import _C


class ProfilerFlags:
    """Read-only view of the profiler's global flags."""

    __slots__ = ()

    @property
    def profiling_on(self) -> bool:
        return _C.get_profiling_on()

    @property
    def instrumentation_on(self) -> bool:
        # The instrumentation backend is not planned (profiler.md §1.1).
        return False

    @property
    def command_line(self) -> bool:
        return _C.is_command_line()

    def __repr__(self) -> str:
        return (f"ProfilerFlags(profiling_on={self.profiling_on}, "
                f"instrumentation_on={self.instrumentation_on}, "
                f"command_line={self.command_line})")


flags = ProfilerFlags()


def __getattr__(name):
    # `proton.flags.profiling_on` also works (some code reads the flags off the module).
    if name in ("profiling_on", "instrumentation_on", "command_line"):
        return getattr(flags, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
