"""``proton.viewer``: runs the ``proton-viewer`` command (the C++ viewer, viewer.md).

``python -m proton.viewer [args]`` and ``proton.viewer.main()`` behave like
``proton-viewer [args]``. The executable is looked up next to this package's build or install
tree (``<prefix>/bin``), then on ``PATH``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


def _find_viewer() -> Optional[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "..", "..", "bin", "proton-viewer"),
                      os.path.join(here, "bin", "proton-viewer")):
        if os.access(candidate, os.X_OK):
            return os.path.normpath(candidate)
    return shutil.which("proton-viewer")


def main(argv: Optional[List[str]] = None) -> int:
    """Runs proton-viewer with ``argv`` (default: ``sys.argv[1:]``); returns its status."""
    args = sys.argv[1:] if argv is None else list(argv)
    viewer = _find_viewer()
    if viewer is None:
        print("proton-viewer: error: the proton-viewer executable was not found",
              file=sys.stderr)
        return 1
    return subprocess.call([viewer] + args)


if __name__ == "__main__":
    sys.exit(main())
