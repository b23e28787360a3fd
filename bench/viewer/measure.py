#!/usr/bin/env python3
"""Runs a command (stdout to /dev/null) and prints "<wall seconds> <peak RSS MiB> <CPU seconds>"
of that child alone (os.wait4 rusage; CPU = user + system), the best wall and best CPU time of
--repeat runs. CPU time is the steadier number on a shared machine. Standard library only."""
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
    return wall, ru.ru_maxrss / 1024.0, ru.ru_utime + ru.ru_stime


def main():
    repeat = 1
    args = sys.argv[1:]
    if args and args[0].startswith("--repeat="):
        repeat = int(args[0].split("=", 1)[1])
        args = args[1:]
    runs = [run_once(args) for _ in range(repeat)]
    wall = min(r[0] for r in runs)
    peak = max(r[1] for r in runs)
    cpu = min(r[2] for r in runs)
    print("%.4f %.1f %.4f" % (wall, peak, cpu))


if __name__ == "__main__":
    main()
