#!/usr/bin/env python3
"""Cost of `with proton.scope("x"):` from Python (issue 3 target: enter+exit <= 300 ns).

Run after building:  PYTHONPATH=build/python python3 bench/core/python_scope_bench.py
It starts a scopes-only session (no GPU needed), times the loop with timeit (best of 15
repeats) and subtracts the cost of an empty loop body, so the number is the scope's own
enter+exit. Also reports cpu_timed_scope, scope with metrics, enter_scope/exit_scope, and a
no-op scope while profiling is off.
"""

import argparse
import os
import sys
import tempfile
import threading
import timeit


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


_lock = threading.Lock()


def per_call_ns(stmt, setup, number, repeat):
    best = min(timeit.repeat(stmt, setup=setup, number=number, repeat=repeat, globals=globals()))
    return best / number * 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--number", type=int, default=100_000)
    parser.add_argument("-r", "--repeat", type=int, default=15)
    args = parser.parse_args()

    import proton  # noqa: F401  (timeit globals)
    globals()["proton"] = proton
    cases = [
        ("scope", 'with proton.scope("x"):\n    pass'),
        ("scope + metrics", 'with proton.scope("x", {"a": 1}):\n    pass'),
        ("cpu_timed_scope", 'with proton.cpu_timed_scope("x"):\n    pass'),
        ("enter_scope/exit_scope", 'proton.enter_scope("x"); proton.exit_scope()'),
    ]
    baseline = per_call_ns("pass", "", args.number, args.repeat)
    # Floors: what any context manager costs in this interpreter on this machine.
    floors = [
        ("floor: with <Python class>", "with _Null():\n    pass"),
        ("floor: with threading.Lock", "with _lock:\n    pass"),
        ("profiling off: scope", 'with proton.scope("x"):\n    pass'),
    ]
    floor_ns = [(label, per_call_ns(stmt, "", args.number, args.repeat) - baseline)
                for label, stmt in floors]
    workdir = tempfile.mkdtemp(prefix="proton_bench_")
    os.chdir(workdir)
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)  # the core's scopes-only warning goes to fd 2
    proton.start("bench")
    os.dup2(saved, 2)
    print(f"python {sys.version.split()[0]}, n={args.number}, best of {args.repeat}; "
          f"empty loop body {baseline:.1f} ns subtracted; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for label, ns in floor_ns:
        print(f"{label:28s} {ns:7.1f} ns")
    for label, stmt in cases:
        ns = per_call_ns(stmt, "", args.number, args.repeat) - baseline
        print(f"{label:28s} {ns:7.1f} ns")
    proton.finalize()


if __name__ == "__main__":
    main()
