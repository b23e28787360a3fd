"""What the command-level checks of proton-viewer's extensions share: running the viewer
given as the first argument, recording failed checks, and the exit status."""
import math
import subprocess
import sys

VIEWER = sys.argv[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    """(status, stdout, stderr) of the viewer run with `args`."""
    p = subprocess.run([VIEWER, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def close(a, b):
    """Equal up to rounding; None and NaN (missing values) equal only each other."""
    a_missing = a is None or (isinstance(a, float) and math.isnan(a))
    b_missing = b is None or (isinstance(b, float) and math.isnan(b))
    if a_missing or b_missing:
        return a_missing and b_missing
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9)


def finish(name):
    """Prints the count of failed checks and exits with status 1 if any failed."""
    print("%s: %d failed" % (name, len(failures)))
    sys.exit(1 if failures else 0)
