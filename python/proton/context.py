"""``proton.context`` (profiler.md §1.7)."""

from __future__ import annotations

from typing import Optional

from . import _C


def depth(session: Optional[int] = 0) -> Optional[int]:
    """Open scopes on the calling thread for ``session`` (the Python stack depth in the python
    context); None when profiling is off."""
    if not _C.get_profiling_on() or session is None:
        return None
    return _C.context_depth(session)


__all__ = ["depth"]
