"""Shared by the --html/--speedscope tests: running proton-viewer and reading its tree."""
import os
import re
import subprocess
from pathlib import Path

VIEWER = os.environ.get("PROTON_VIEWER", "build/bin/proton-viewer")
SOURCE = Path(os.environ.get("PROTON_SOURCE_DIR", Path(__file__).resolve().parents[2]))
REFDATA = SOURCE / "tests" / "refdata"

# One tree line (viewer.md §7.3): the prefix of box-drawing characters, the values, the name,
# and a diff marker.
_LINE = re.compile(r"^((?:[│ ]  )*)(?:[├└]─ )?(\S+) (.*?)( ◀ | ▶ )?$")


def run_viewer(*args, check=True):
    result = subprocess.run([VIEWER, *map(str, args)], capture_output=True, text=True)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def printed_tree(stdout):
    """The printed tree as dicts in print order: depth, value, name, side, path."""
    rows = []
    path = []
    for line in stdout.split("\n"):
        if line == "":
            break
        m = _LINE.match(line)
        assert m, line
        depth = 0 if not rows else len(m.group(1)) // 3 + 1
        path = path[:depth] + [m.group(3)]
        side = {" ◀ ": 1, " ▶ ": 2}.get(m.group(4), 0)
        rows.append({"depth": depth, "value": float(m.group(2)), "name": m.group(3),
                     "side": side, "path": tuple(path)})
    return rows
