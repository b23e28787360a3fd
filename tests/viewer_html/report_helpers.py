"""Shared by the --html/--speedscope tests: running proton-viewer and reading its tree, and
the rank files of the --merge reports."""
import json
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


# ---- --merge: small rank files (as tests/compat/extras/merge_check.py writes them) ----
DEVICE = {"arch": "90", "bus_width": 6016, "clock_rate": 1980000,
          "memory_clock_rate": 3201000, "num_sms": 132}
RANKS = 4
SLOW_RANK = 3      # twice as slow in `fwd_matmul` and `bwd_matmul`
MISSING_RANK = 1   # lacks `bwd_allreduce`


def rank_kernels(rank):
    """{(scope, kernel): time (ns)} of one rank: every rank alike but for SLOW_RANK's
    matmuls (imbalance 2.0 when they take three times the others': max 3t, mean 1.5t with
    four ranks) and the kernel MISSING_RANK lacks."""
    slow = 3 if rank == SLOW_RANK else 1
    kernels = {("fwd", "fwd_add"): 1_000_000 + 10_000 * rank,
               ("fwd", "fwd_matmul"): 2_000_000 * slow,
               ("bwd", "bwd_matmul"): 1_500_000 * slow,
               ("bwd", "bwd_allreduce"): 400_000 + 20_000 * rank}
    if rank == MISSING_RANK:
        del kernels[("bwd", "bwd_allreduce")]
    return kernels


def write_rank_files(directory):
    """The RANKS files run.rank<R>.hatchet in `directory`, in rank order."""
    paths = []
    for rank in range(RANKS):
        root = {"frame": {"name": "ROOT", "type": "function"},
                "metrics": {"time (ns)": 0, "count": 0}, "children": []}
        scopes = {}
        for (scope, kernel), time in rank_kernels(rank).items():
            if scope not in scopes:
                scopes[scope] = {"frame": {"name": scope, "type": "function"},
                                 "metrics": {}, "children": []}
                root["children"].append(scopes[scope])
            scopes[scope]["children"].append({
                "frame": {"name": kernel, "type": "function"}, "children": [],
                "metrics": {"time (ns)": time, "count": 1, "device_id": str(rank),
                            "device_type": "CUDA"}})
        path = Path(directory) / f"run.rank{rank}.hatchet"
        path.write_text(json.dumps([root, {"CUDA": {str(rank): DEVICE}}]))
        paths.append(path)
    return paths


def printed_merge_tree(stdout):
    """printed_tree of --merge=stats output with one -m item: each row's statistics
    (median is "value") split off its name."""
    rows = printed_tree(stdout)
    path = []
    for row in rows:
        parts = row["name"].split(" ", 6)
        row["name"] = parts[-1]
        path = path[:row["depth"]] + [row["name"]]
        row["path"] = tuple(path)
        stats = [float(v) for v in [row["value"]] + parts[:-1]]
        row.update(median=stats[0], min=stats[1], mean=stats[2], max=stats[3],
                   imbalance=stats[4], argmax=int(stats[5]), files=int(stats[6]))
    return rows
