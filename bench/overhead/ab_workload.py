"""One process of the in-process overhead benchmark (run by run_overhead.py; needs a GPU).

    ab_workload.py PROFILER KIND N ROUNDS MODES [FLOOR_LIB]

PROFILER is `profiler` (whatever `import triton.profiler` reaches: Triton's Proton, or ours when
the runner's environment installs our alias) or `floor` (the bare-CUPTI subscriber of
cupti_floor.cc, loaded with ctypes and started/stopped around a window). KIND is `torch`
(torch.add) or `triton` (a tiny Triton kernel with launch_metadata). MODES is a comma list of
proton, proton_python, proton_hook, proton_trace (ignored for `floor`).

Why in one process: the unprofiled launch cost differs between processes by up to 50% on the
H200 (12.6-19.3 µs per Triton launch), far more than the 1 µs differences being measured.
Inside one process it is steady, so every profiled window is timed between two unprofiled
windows of the same process and compared with their mean. Both profilers detach completely at
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
    def __init__(self, lib):
        # The floor must pay what the same CUPTI costs: the runner passes the libcupti that
        # our profiler loaded, which is then loaded first so that the floor's DT_NEEDED
        # libcupti.so.13 resolves to it (by soname) instead of the CUDA toolkit's copy.
        preload = os.environ.get("CUPTI_FLOOR_PRELOAD")
        if preload:
            ctypes.CDLL(preload, mode=ctypes.RTLD_GLOBAL)
        self.lib = ctypes.CDLL(lib)

    def start(self, _mode, _path):
        if self.lib.cupti_floor_start() != 0:
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
    which, kind, n, rounds, modes = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        int(sys.argv[4]), sys.argv[5].split(",")
    out = os.environ.get("OUT", "/tmp")
    profiler = Floor(sys.argv[6]) if which == "floor" else Profiler()
    if which == "floor":
        modes = ["floor"]
    x = torch.zeros(64, device="cuda")
    y = torch.empty_like(x)
    windows = [{"label": "warm", "us": timed_us(kind, n, x, y)},
               {"label": "base", "us": timed_us(kind, n, x, y)}]
    cupti = None
    for r in range(rounds):
        # Rotated so that no mode always follows the same one.
        for mode in modes[r % len(modes):] + modes[:r % len(modes)]:
            path = f"{out}/ovh_ab_{which}_{mode}_{kind}"
            profiler.start(mode, path)
            us = timed_us(kind, n, x, y)
            cupti = cupti or loaded_cupti()
            t0 = time.perf_counter()
            profiler.finalize()
            window = {"label": mode, "us": us, "finalize_s": time.perf_counter() - t0}
            trace = path + ".chrome_trace"
            if mode == "proton_trace" and os.path.exists(trace):
                window["file_bytes"] = os.path.getsize(trace)
            windows.append(window)
            windows.append({"label": "base", "us": timed_us(kind, n, x, y)})
    print(json.dumps({"profiler": which, "kind": kind, "n": n, "cupti": cupti,
                      "windows": windows}))


if __name__ == "__main__":
    main()
