"""``proton.data`` (profiler.md §1.7): the collected data of a session, without writing a file.

These calls do not synchronise the GPU: call ``deactivate(session, flushing=True)`` first to
get every finished kernel.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _C


def _check_cli(session: int, verb: str) -> None:
    if _C.is_command_line() and session != 0:
        raise ValueError(f"Only one session can {verb} when running from the command line.")


def get(session: Optional[int] = 0, phase: int = 0) -> Any:
    """The hatchet document ``[root, devices]`` of ``session`` as Python objects."""
    if session is None:
        return None
    _check_cli(session, "be retrieved")
    # Built in C++ without recursion: json.loads of the text fails on deep trees.
    return _C.get_data(session, phase)


def get_msgpack(session: Optional[int] = 0, phase: int = 0) -> Optional[bytes]:
    """The ``.hatchet_msgpack`` encoding of ``session``'s data."""
    if session is None:
        return None
    _check_cli(session, "be retrieved")
    return _C.get_msgpack(session, phase)


def clear(session: Optional[int] = 0, phase: int = 0, clear_up_to_phase: bool = False) -> None:
    """Frees ``phase`` (or every phase up to it); a cleared current phase restarts empty."""
    if session is None:
        return None
    _check_cli(session, "be cleared")
    _C.clear(session, phase, bool(clear_up_to_phase))
    return None


def advance_phase(session: Optional[int] = 0) -> Optional[int]:
    """Starts the next phase of ``session`` and returns its number (profiler.md §3.11).

    New launches and scopes go to the new phase; records of kernels launched in an earlier
    phase still land in that phase, whenever they arrive."""
    if session is None:
        return None
    _check_cli(session, "advance phase")
    return _C.advance_phase(session)


def is_phase_complete(session: Optional[int] = 0, phase: int = 0) -> bool:
    """Whether ``phase`` of ``session`` is complete: sealed by a later ``advance_phase`` and
    every record of its kernels arrived (``deactivate(session, flushing=True)`` delivers them)."""
    if session is None:
        return False
    _check_cli(session, "check phase completion status")
    return _C.is_phase_complete(session, phase)


__all__ = ["get", "get_msgpack", "clear", "advance_phase", "is_phase_complete"]
