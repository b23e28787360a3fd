"""One process of the in-process overhead benchmark (run by run_overhead.py; needs a GPU).

    ab_workload.py KIND N ROUNDS MODES [FLOOR_LIB]

The profiler is whatever `import triton.profiler` reaches: Triton's Proton, or ours when the
runner's environment installs our alias. KIND is `torch` (torch.add) or `triton` (a tiny
Triton kernel with launch_metadata). MODES is a comma list of proton, proton_python,
proton_hook, proton_trace. With FLOOR_LIB (cupti_floor.cc built as a library), windows of the
bare-CUPTI floor, started and stopped through ctypes, take turns with the profiler's, so ours
and the floor are compared inside one process (the reference's own libcupti is another copy,
which is why the floor runs with ours). FLOOR_OURS=1 adds windows of the floor with every
callback our backend enables (label floor_ours).

Why in one process, in short windows: the unprofiled launch cost on the H200 machine differs
between processes by up to 50% (12.6-19.3 µs per Triton launch), and within a process it
shifts by as much for seconds at a time, far more than the 1 µs differences being measured.
So every profiled window is timed between two unprofiled windows of the same process, a few
tens of milliseconds apart, and compared with their mean. Both profilers detach completely at
finalize (cuptiUnsubscribe + cuptiFinalize), so the windows after one do not carry its cost;
the runner checks that (its "cost left after finalize": later unprofiled windows minus the
first).

Prints one JSON line: the time of every window, in order.
"""
import ctypes
import json
import os
import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit(launch_metadata=lambda grid, kernel, args: {"name": "tiny", "bytes": 3 * args["n"] * 4})
def tiny(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1, mask=m)


def loop(kind, n, x, y):
    if kind == "torch":
        for _ in range(n):
            torch.add(x, 1, out=y)
    else:
        for _ in range(n):
            tiny[(1,)](x, y, 64, BLOCK=64)


def timed_us(kind, n, x, y):
    """µs per launch of n launches, after 200 untimed ones (the first launches after a
    profiler starts pay its one-time set-up, which is not per-launch cost)."""
    loop(kind, 200, x, y)
    torch.cuda.synchronize()
    t = time.perf_counter()
    loop(kind, n, x, y)
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / n * 1e6


def loaded_cupti():
    """Paths of the libcupti copies mapped into this process."""
    with open("/proc/self/maps") as maps:
        return sorted({line.split()[-1] for line in maps if "libcupti" in line})


class Floor:
    """The bare-CUPTI subscriber, loaded on first use: after our profiler's first window has
    loaded its libcupti, so that the floor's DT_NEEDED libcupti.so.13 resolves (by soname)
    to that same copy and the floor pays what the same CUPTI costs."""

    def __init__(self, lib):
        self.path = lib
        self.lib = None

    def start(self, mode, _path):
        if self.lib is None:
            self.lib = ctypes.CDLL(self.path)
        # floor_ours: the floor with every callback our backend enables, not just launches.
        if self.lib.cupti_floor_start_with(int(mode == "floor_ours")) != 0:
            raise SystemExit("cupti_floor_start failed")

    def finalize(self):
        self.lib.cupti_floor_stop()


class Profiler:
    def __init__(self):
        import triton.profiler as proton
        self.proton = proton

    def start(self, mode, path):
        self.proton.start(path, context="python" if "python" in mode else "shadow",
                          hook="triton" if "hook" in mode else None,
                          data="trace" if "trace" in mode else "tree")

    def finalize(self):
        self.proton.finalize()


def main():
    kind, n, rounds, modes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        sys.argv[4].split(",")
    out = os.environ.get("OUT", "/tmp")
    profilers = dict.fromkeys(modes, Profiler())
    if len(sys.argv) > 5:  # the floor takes turns with our modes (it comes last in round 0)
        floors = ["floor", "floor_ours"] if os.environ.get("FLOOR_OURS") == "1" else ["floor"]
        modes += floors
        profilers.update(dict.fromkeys(floors, Floor(sys.argv[5])))
    x = torch.zeros(64, device="cuda")
    y = torch.empty_like(x)
    windows = [{"label": "warm", "us": timed_us(kind, n, x, y)},
               {"label": "base", "us": timed_us(kind, n, x, y)}]
    cupti = None
    for r in range(rounds):
        # Rotated so that no mode always follows the same one.
        for mode in modes[r % len(modes):] + modes[:r % len(modes)]:
            path = f"{out}/ovh_ab_{mode}_{kind}"
            profilers[mode].start(mode, path)
            us = timed_us(kind, n, x, y)
            cupti = cupti or loaded_cupti()
            t0 = time.perf_counter()
            profilers[mode].finalize()
            window = {"label": mode, "us": us, "finalize_s": time.perf_counter() - t0}
            trace = path + ".chrome_trace"
            if mode == "proton_trace" and os.path.exists(trace):
                window["file_bytes"] = os.path.getsize(trace)
            windows.append(window)
            windows.append({"label": "base", "us": timed_us(kind, n, x, y)})
    print(json.dumps({"kind": kind, "n": n, "cupti": cupti, "windows": windows}))


if __name__ == "__main__":
    main()
