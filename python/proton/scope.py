"""Scopes (profiler.md §1.5): ``scope``, ``cpu_timed_scope``, ``enter_scope``, ``exit_scope``.

``scope`` and ``cpu_timed_scope`` are C types from ``proton._C`` (their ``__enter__`` and
``__exit__`` call the core directly); only the decorator form is written here.
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Dict, Optional

from . import _C
from .metric import _ensure_registered

scope = _C.scope
cpu_timed_scope = _C.cpu_timed_scope

thread_local_scopes = threading.local()


def _decorate(instance, func):
    """``@scope(name, metrics)``: each call enters a fresh scope and exits it in a finally."""
    cls, name, metrics = type(instance), instance.name, instance.metrics

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with cls(name, metrics):
            return func(*args, **kwargs)

    return wrapper


_C.set_scope_decorator(_decorate)
_ensure_registered()


def _stack() -> list:
    stack = getattr(thread_local_scopes, "scopes", None)
    if stack is None:
        stack = thread_local_scopes.scopes = []
    return stack


def enter_scope(name: str, *, metrics: Optional[Dict[str, Any]] = None) -> Optional[int]:
    """Enters scope ``name`` on this thread; returns its id, or None when profiling is off."""
    if not _C.get_profiling_on():
        return None
    if not isinstance(name, str):
        raise TypeError(f"scope name must be str, not {type(name).__name__}")
    scope_id = _C.new_scope_id()
    _stack().append((scope_id, name))
    _C.enter_scope(scope_id, name)
    if metrics:
        _C.add_metrics(scope_id, metrics)
    return scope_id


def exit_scope(name: Optional[str] = None, *,
               metrics: Optional[Dict[str, Any]] = None) -> Optional[int]:
    """Exits the innermost scope opened by :func:`enter_scope` on this thread.

    Returns its id, or None when profiling is off. Raises ``ValueError`` when ``name`` is given
    and differs from the popped scope's name, and ``IndexError`` on an empty stack.
    """
    if not _C.get_profiling_on():
        return None
    scope_id, popped_name = _stack().pop()
    if name and name != popped_name:
        raise ValueError(f"Scope name mismatch: {name} != {popped_name}")
    if metrics:
        _C.add_metrics(scope_id, metrics)
    _C.exit_scope(scope_id, popped_name)
    return scope_id


__all__ = ["scope", "cpu_timed_scope", "enter_scope", "exit_scope"]
