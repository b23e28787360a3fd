"""Directories whose frames the python context leaves out (profiler.md §2.8): this package
and the launcher's bootstrap. Kept here so a bootstrap installed elsewhere can add itself."""

from __future__ import annotations

import os
from typing import List

from . import _C

_dirs: List[str] = []


def _variants(directory: str) -> List[str]:
    # Frames report co_filename as the module was found: raw, absolute or resolved.
    seen = []
    for form in (directory, os.path.abspath(directory), os.path.realpath(directory)):
        prefix = form.rstrip(os.sep) + os.sep
        if prefix not in seen:
            seen.append(prefix)
    return seen


def add(directory: str) -> None:
    """Drops frames of files under ``directory`` from python-context paths."""
    for prefix in _variants(directory):
        if prefix not in _dirs:
            _dirs.append(prefix)
    _C.set_frame_filters(_dirs)


def add_own_directories() -> None:
    """Drops the frames of this package and of a sibling ``proton_bootstrap``."""
    package_dir = os.path.dirname(__file__)
    add(package_dir)
    add(os.path.join(os.path.dirname(package_dir), "proton_bootstrap"))
