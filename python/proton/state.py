"""States (profiler.md §1.6): one per-thread label appended to the path of GPU work.

``__proton_launch_metadata:<kernel>`` is the state the Triton launch hook holds while it
evaluates a kernel's ``launch_metadata``; it expands to two frames in the tree (§3.6).
"""

from __future__ import annotations

import functools
from typing import Optional

from . import _C

COMPUTE_METADATA_SCOPE_NAME = "__proton_launch_metadata"
COMPUTE_METADATA_SCOPE_PREFIX = "__proton_launch_metadata:"


class state:
    """Context manager and decorator: ``enter_state(name)`` … ``exit_state()`` while profiling."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._entered = False

    def __enter__(self):
        self._entered = _C.get_profiling_on()
        if self._entered:
            _C.enter_state(self.name)
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        if self._entered:
            self._entered = False
            _C.exit_state()

    def __call__(self, func):
        name = self.name

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            entered = _C.get_profiling_on()
            if entered:
                _C.enter_state(name)
            try:
                return func(*args, **kwargs)
            finally:
                if entered:
                    _C.exit_state()

        return wrapper


def enter_state(name: str) -> None:
    """Sets the calling thread's state (unconditional; without a session it does nothing)."""
    _C.enter_state(name)


def exit_state() -> None:
    """Clears the calling thread's state."""
    _C.exit_state()


def metadata_state(kernel_name: Optional[str] = None) -> state:
    """The state under which launch metadata of ``kernel_name`` is evaluated."""
    if kernel_name is None:
        return state(COMPUTE_METADATA_SCOPE_NAME)
    return state(COMPUTE_METADATA_SCOPE_PREFIX + kernel_name)


__all__ = ["state", "enter_state", "exit_state", "metadata_state",
           "COMPUTE_METADATA_SCOPE_NAME", "COMPUTE_METADATA_SCOPE_PREFIX"]
