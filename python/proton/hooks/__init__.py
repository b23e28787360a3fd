"""Launch hooks (profiler.md §1.9): ``Hook``, ``HookManager`` and Triton's ``LaunchHook``."""

from .hook import Hook, HookManager
from .launch import LaunchHook

__all__ = ["Hook", "HookManager", "LaunchHook"]
