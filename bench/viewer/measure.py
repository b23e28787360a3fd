#!/usr/bin/env python3
"""Runs a command (stdout to /dev/null) and prints "<wall seconds> <peak RSS MiB>" of that
child alone (os.wait4 rusage), best wall time of --repeat runs. Standard library only."""
import os
import subprocess
import sys
import time


def run_once(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit("command failed (%d): %s" % (code, " ".join(cmd)))
    return wall, ru.ru_maxrss / 1024.0


def main():
    repeat = 1
    args = sys.argv[1:]
    if args and args[0].startswith("--repeat="):
        repeat = int(args[0].split("=", 1)[1])
        args = args[1:]
    runs = [run_once(args) for _ in range(repeat)]
    wall = min(r[0] for r in runs)
    peak = max(r[1] for r in runs)
    print("%.4f %.1f" % (wall, peak))


if __name__ == "__main__":
    main()
