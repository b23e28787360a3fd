"""``python -m proton`` (profiler.md §2): finds the ``proton`` launcher next to this package
and runs it with this interpreter as the default Python for script and pytest targets. The
per-process side of a run lives in ``proton_bootstrap`` (loaded by the launcher through
PYTHONPATH).
"""

import os
import sys


def launcher_path():
    """The launcher binary: a copy inside the package, or the build tree's bin/proton."""
    package = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(package, "_bin", "proton"),
                      os.path.join(package, os.pardir, os.pardir, "bin", "proton")):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.normpath(candidate)
    return None


def main(argv=None):
    """Replaces this process with the launcher; returns an exit status only on error."""
    args = sys.argv[1:] if argv is None else list(argv)
    launcher = launcher_path()
    if launcher is None:
        sys.stderr.write("proton: error: the proton launcher was not found next to the "
                         "proton package (%s)\n" % os.path.dirname(os.path.abspath(__file__)))
        return 1
    env = dict(os.environ)
    env.setdefault("PROTON_PYTHON", sys.executable)  # PROTON_PYTHON set by the user wins
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(launcher, ["proton"] + args, env)
    return 1  # not reached
