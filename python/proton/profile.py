"""Sessions (profiler.md §1.2–§1.4): ``start``, ``activate``, ``deactivate``, ``finalize`` and
the ``profile`` decorator.

Command-line mode (a process started by the ``proton`` command) has exactly one session, 0:
``start`` is ignored, ``activate()``/``deactivate()`` act on session 0 (D1), ``@profile`` only
runs the function (D2), and calls naming another session raise ``ValueError``.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Optional, Union

from . import _C
from .hooks import Hook, HookManager, LaunchHook
from .mode import BaseMode

DEFAULT_PROFILE_NAME = "proton"

_TRUE = ("1", "true", "on")


def _disabled() -> bool:
    """PROTON_DISABLE (or Triton's TRITON_PROTON_DISABLE), re-read at each start: Triton's
    ``knobs.proton.disable = True`` writes the variable while a script runs."""
    value = os.environ.get("PROTON_DISABLE")
    if value is None:
        value = os.environ.get("TRITON_PROTON_DISABLE")
    return value is not None and value.strip().lower() in _TRUE


def _flush_stdout() -> None:
    # A profile written to standard output must not interleave with buffered prints.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - closed or replaced streams
            pass


def start(
    name: Optional[str] = None,
    *,
    context: Optional[str] = "shadow",
    data: Optional[str] = "tree",
    backend: Optional[str] = None,
    mode: Optional[Union[str, BaseMode]] = None,
    hook: Optional[Union[str, Hook]] = None,
) -> Optional[int]:
    """Starts (or reactivates, for a live session of the same name) a profiling session.

    Returns the session id, or None in command-line mode or when profiling is disabled by
    ``PROTON_DISABLE``/``TRITON_PROTON_DISABLE``. ``name`` is the output path without suffix
    (``""`` or ``"-"``: standard output); ``context`` is ``"shadow"`` or ``"python"``;
    ``data`` is ``"tree"`` or ``"trace"``; ``backend`` None picks CUPTI when an NVIDIA driver
    is present, else records scopes only (with a warning); ``hook="triton"`` registers
    :class:`proton.hooks.LaunchHook`.
    """
    if _C.is_command_line() or _disabled():
        return None
    session = _C.start(
        name,
        "shadow" if context is None else str(context),
        "tree" if data is None else str(data),
        "" if backend is None else str(backend),
        "" if mode is None else str(mode),
    )
    if session is None:
        return None
    _C.set_profiling_on(True)
    if isinstance(hook, str) and hook == "triton":
        HookManager.register(LaunchHook(), session)
    elif isinstance(hook, Hook):
        HookManager.register(hook, session)
    elif hook is not None:
        raise ValueError(f"Unsupported hook: {hook!r}")
    return session


def _cli_session(session: Optional[int], verb: str) -> Optional[int]:
    """In command-line mode, None means session 0 (D1) and any other id raises."""
    if not _C.is_command_line():
        return session
    if session is None:
        return 0
    if session != 0:
        raise ValueError(f"Only one session can be {verb} when running from the command line.")
    return session


def activate(session: Optional[int] = None) -> None:
    """Resumes attributing launches to ``session`` (None: all sessions). Idempotent."""
    session = _cli_session(session, "activated")
    HookManager.activate(session)
    _C.activate(session)


def deactivate(session: Optional[int] = None, flushing: bool = False) -> None:
    """Stops attributing new launches to ``session`` (None: all sessions).

    Kernels launched while it was active are still recorded. ``flushing=True`` first waits
    for the GPU and drains the backend, so ``proton.data.get`` sees every finished kernel.
    """
    session = _cli_session(session, "deactivated")
    HookManager.deactivate(session)
    _C.deactivate(session, bool(flushing))


def finalize(session: Optional[int] = None, output_format: Optional[str] = "") -> None:
    """Writes ``session``'s profile and removes the session (None: all sessions, and
    profiling turns off). ``output_format``: ``""`` (the data kind's default), ``hatchet`` or
    ``hatchet_msgpack`` (``data="tree"``), ``chrome_trace`` or ``perfetto_trace``
    (``data="trace"``; a binary Perfetto protobuf trace, formats.md §7)."""
    output_format = "" if output_format is None else str(output_format)
    _flush_stdout()
    if session is None:
        _C.set_profiling_on(False)
        HookManager.unregister()
        _C.finalize(None, output_format)
    else:
        if _C.is_command_line() and session != 0:
            raise ValueError(
                "Only one session can be finalized when running from the command line.")
        HookManager.unregister(session)
        _C.finalize(session, output_format)


def _profiling(func, name, context, data, backend, mode, hook):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        session = start(name, context=context, data=data, backend=backend, mode=mode,
                        hook=hook)
        if session is None:  # command-line mode or disabled: run the function only (D2)
            return func(*args, **kwargs)
        try:
            return func(*args, **kwargs)
        finally:
            deactivate(session)

    return wrapper


def profile(
    func=None,
    *,
    name: Optional[str] = None,
    context: Optional[str] = "shadow",
    data: Optional[str] = "tree",
    backend: Optional[str] = None,
    mode: Optional[Union[str, BaseMode]] = None,
    hook: Optional[Union[str, Hook]] = None,
):
    """Decorator: each call starts the session, runs the function and deactivates the session
    (in a finally). It does not finalize: call :func:`finalize`. Usable bare or with
    arguments."""
    if func is None:
        return functools.partial(_profiling, name=name, context=context, data=data,
                                 backend=backend, mode=mode, hook=hook)
    return _profiling(func, name, context, data, backend, mode, hook)


__all__ = ["DEFAULT_PROFILE_NAME", "start", "activate", "deactivate", "finalize", "profile"]
