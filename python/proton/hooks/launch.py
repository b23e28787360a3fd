"""``LaunchHook``: Triton's launch hook (profiler.md §1.9, §3.6, §3.7).

For each Triton launch, ``enter`` evaluates the kernel's ``launch_metadata`` under the state
``__proton_launch_metadata:<compiled kernel name>`` (so GPU work it causes lands under that
frame), then opens an *op* named by the metadata's ``"name"`` (or the compiled name) and
attaches every other numeric or tensor entry as a metric. ``exit`` closes the op; the CUDA
launch in between attributes its kernel time and count to the op's node.

The per-launch work is in C (src/python/launch_hook.cc): Triton runs it around every launch.
This class holds the configuration and is the object ``HookManager`` registers.
"""

from __future__ import annotations

import threading

from .. import _C
from .hook import Hook


def _compile(patterns):
    if patterns is None:
        return None
    import re  # only when a filter is configured

    if isinstance(patterns, str):
        patterns = [patterns]
    return [re.compile(p) for p in patterns]


class LaunchHook(Hook):
    """Process-wide singleton: ``LaunchHook() is LaunchHook()``."""

    # Highest priority: runs first at enter and last at exit.
    priority = 100
    flops_width = [8, 16, 32, 64]
    metrics = [f"flops{width}" for width in flops_width] + ["bytes"] + ["flops"]
    # Metadata keys that are never metrics.
    reserved_keys = ("name", "function", "stream")

    _instance = None
    _instance_lock = threading.Lock()

    def __new__(cls):
        if cls._instance is None:
            with cls._instance_lock:
                if cls._instance is None:
                    instance = super().__new__(cls)
                    instance._include = None
                    instance._exclude = None
                    _C.set_launch_hook(instance, None)
                    cls._instance = instance
        return cls._instance

    def configure(self, *, include=None, exclude=None) -> None:
        """Limits the hook to kernels whose compiled name matches (``re.match``) ``include``
        and none of ``exclude``. Launches filtered out are recorded like unhooked launches."""
        self._include = _compile(include)
        self._exclude = _compile(exclude)
        filtered = self._include is not None or self._exclude is not None
        _C.set_launch_hook(self, self._selected if filtered else None)

    def _selected(self, kernel: str) -> bool:
        name = kernel or ""
        if self._include is not None and not any(p.match(name) for p in self._include):
            return False
        if self._exclude is not None and any(p.match(name) for p in self._exclude):
            return False
        return True

    def enter(self, metadata) -> None:
        _C.launch_enter(metadata)

    def exit(self, metadata) -> None:
        _C.launch_exit(metadata)


__all__ = ["LaunchHook"]
