"""The tree object of ``proton.viewer`` ("gf", viewer.md §11.10): a thin handle on the C++
viewer's ``ProfileTree`` held by the ``proton._viewer`` extension.

The extension is a module of its own, built only where the viewer is (it needs simdjson and
PCRE2); ``import proton`` works without it, and only a viewer call reports its absence.
"""

from __future__ import annotations

from typing import Any, List, Optional


def core():
    """The ``proton._viewer`` extension, or ImportError saying that it is not built."""
    try:
        from . import _viewer
    except ImportError as error:
        raise ImportError(
            "proton.viewer needs the proton._viewer extension, which is not built or not "
            "installed (it is built with the viewer: libsimdjson-dev, libpcre2-dev, "
            "libiberty-dev)") from error
    return _viewer


class GraphFrame:
    """One profile (or the difference of two) as the viewer sees it.

    ``dataframe`` is a pandas DataFrame with one row per node in print order; ``format`` is
    the frame-name format that :func:`proton.viewer.format_frames` set (``None`` = full).
    """

    def __init__(self, handle: Any, format: Optional[str] = None) -> None:
        self._handle = handle
        self.format = format

    @classmethod
    def read_fd(cls, fd: int, display_name: bytes) -> "GraphFrame":
        return cls(core().load_fd(fd, display_name))

    @classmethod
    def read_bytes(cls, data: bytes, display_name: str) -> "GraphFrame":
        return cls(core().load_bytes(data, display_name))

    def copy(self) -> "GraphFrame":
        return GraphFrame(core().copy(self._handle), self.format)

    @property
    def handle(self) -> Any:
        """The extension's capsule (private to proton.viewer)."""
        return self._handle

    def metric_names(self) -> "tuple[List[str], List[str]]":
        return core().metric_names(self._handle)

    def device_info(self) -> dict:
        return core().device_info(self._handle)

    def format_options(self) -> List[str]:
        return ["--format", self.format] if self.format else []

    @property
    def dataframe(self):
        """A pandas DataFrame: ``name``, ``depth``, ``path`` then the metric columns."""
        try:
            import pandas
        except ImportError as error:
            raise ImportError("GraphFrame.dataframe needs the pandas package, which is not "
                              "installed (Debian: python3-pandas)") from error
        from .viewer import _check_scan
        _check_scan(self.format_options())
        return pandas.DataFrame(core().table(self._handle, self.format or None))

    def __repr__(self) -> str:
        return "<proton.viewer.GraphFrame>"
