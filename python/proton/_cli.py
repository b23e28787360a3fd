"""The commands of an installed package: ``proton`` (also ``python -m proton``, profiler.md
§2) and ``proton-viewer``. Each finds its executable next to this package and replaces the
Python process with it. The per-process side of a run lives in ``proton_bootstrap`` (loaded by
the launcher through PYTHONPATH).

Where the executables are: ``proton/_bin`` (the copy the build tree keeps and the wheel
ships), else the build tree's ``bin/`` two levels up.
"""

import os
import sys


def executable_path(name):
    """The executable ``name`` (``proton`` or ``proton-viewer``) that belongs to this package,
    or None."""
    package = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(package, "_bin", name),
                      os.path.join(package, os.pardir, os.pardir, "bin", name)):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.normpath(candidate)
    return None


def launcher_path():
    """The launcher binary: a copy inside the package, or the build tree's bin/proton."""
    return executable_path("proton")


def not_built_reason(name):
    """Why the installed package has no ``name`` executable (the line setup.py wrote into
    ``_bin/NOT_BUILT``: the viewer's libraries were missing at build time), or None."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "NOT_BUILT")
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith(name + ": "):
                    return line[len(name) + 2:].rstrip("\n")
    except OSError:
        pass
    return None


def missing_executable_error(name):
    """The one error line for an executable that is not there."""
    reason = not_built_reason(name)
    if reason:
        return "%s: error: %s" % (name, reason)
    return "%s: error: the %s executable was not found next to the proton package (%s)" % (
        name, name, os.path.dirname(os.path.abspath(__file__)))


def _exec(name, args, env):
    executable = executable_path(name)
    if executable is None:
        sys.stderr.write(missing_executable_error(name) + "\n")
        return 1
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(executable, [name] + args, env)
    except OSError as e:  # E2BIG, ENOEXEC (another architecture), EACCES: one line, no traceback
        sys.stderr.write("%s: error: cannot execute %s: %s\n"
                         % (name, ascii(executable)[1:-1], e.strerror))
        return 126
    return 1  # not reached


def main(argv=None):
    """``proton``: replaces this process with the launcher; returns an exit status only on
    error. This interpreter becomes the default Python of script and pytest targets."""
    args = sys.argv[1:] if argv is None else list(argv)
    env = dict(os.environ)
    env.setdefault("PROTON_PYTHON", sys.executable)  # PROTON_PYTHON set by the user wins
    return _exec("proton", args, env)


def viewer_main(argv=None):
    """``proton-viewer``: replaces this process with the viewer executable, so that the
    command keeps its speed, exit status and terminal detection."""
    args = sys.argv[1:] if argv is None else list(argv)
    return _exec("proton-viewer", args, dict(os.environ))
