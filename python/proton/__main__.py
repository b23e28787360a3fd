"""``python -m proton [options] target ...``: runs the ``proton`` launcher with this
interpreter as the Python for script and pytest targets (profiler.md §2)."""

import sys

from proton._cli import main

if __name__ == "__main__":
    sys.exit(main())
