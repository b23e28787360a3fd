#!/usr/bin/env python3
"""Start-up cost of the `proton` command (issue 5 goal: <= 50 ms added).

Runs `python3 empty.py` and `proton empty.py` (same interpreter, PROTON_PYTHON) alternately,
N times each after a warm-up, and prints the median and quartiles of each and the median
difference. Usage:
    bench/launcher/bench_startup.py [--launcher build/bin/proton] [--python /usr/bin/python3]
                                    [--runs 20] [--script FILE] [--env KEY=VALUE ...]
On a GPU machine the profiled run also initialises the CUDA driver and CUPTI in the root
process (as the reference does); `--env CUDA_VISIBLE_DEVICES=` hides the GPUs to measure the
command's own cost.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd, env, cwd, cpu=None):
    """Wall time in ms; appends the CPU time (user + sys of the command and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = (time.perf_counter() - start) * 1000.0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3)
    return wall


def summary(values):
    q = statistics.quantiles(values, n=4)
    return "median %7.1f ms  (q1 %7.1f, q3 %7.1f, min %7.1f)" % (
        statistics.median(values), q[0], q[2], min(values))


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser()
    parser.add_argument("--launcher", default=os.path.join(root, "build", "bin", "proton"))
    parser.add_argument("--python", default=os.path.realpath(sys.executable))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--script", default=None, help="script to run (default: empty)")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="extra environment for both commands (repeatable)")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="proton-bench-")
    script = args.script or os.path.join(work, "empty.py")
    if args.script is None:
        open(script, "w").close()
    # A user's environment: bytecode caches are used and written as usual.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PROTON_") and k != "PYTHONDONTWRITEBYTECODE"}
    env["PROTON_PYTHON"] = args.python
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    plain_cmd = [args.python, script]
    proton_cmd = [args.launcher, "-n", os.path.join(work, "out"), script]
    for _ in range(3):  # warm-up: page cache, pyc files
        timed(plain_cmd, env, work)
        timed(proton_cmd, env, work)
    plain, profiled, diffs, plain_cpu, profiled_cpu = [], [], [], [], []
    for _ in range(args.runs):  # interleaved, so machine noise hits both alike
        a = timed(plain_cmd, env, work, plain_cpu)
        b = timed(proton_cmd, env, work, profiled_cpu)
        plain.append(a)
        profiled.append(b)
        diffs.append(b - a)
    print("python : %s" % summary(plain))
    print("proton : %s" % summary(profiled))
    print("added  : median %.1f ms wall over %d interleaved pairs" % (
        statistics.median(diffs), args.runs))
    print("cpu    : python median %.1f ms, proton median %.1f ms (user+sys, all processes)" % (
        statistics.median(plain_cpu), statistics.median(profiled_cpu)))
    print("load   : %.2f %.2f %.2f on %d cores" % (os.getloadavg() + (os.cpu_count(),)))
    print("command: %s" % " ".join(proton_cmd))


if __name__ == "__main__":
    main()
