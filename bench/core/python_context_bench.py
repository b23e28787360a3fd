#!/usr/bin/env python3
"""Host cost per launch of the python context over the shadow context (no GPU needed).

Kernels are launched through the core's fake backend (`proton_fake.launch`) from a Python call
stack of a given depth. The innermost caller is a long function (300 lines before its launch
site: the line lookup of a frame scans its code object's line table), reached either
directly or through three short functions called afresh for every launch, as Triton's
`JITFunction.run` and launcher frames are. Best of 7 runs of N launches, per context:

    PYTHONPATH=build/python:build/python-test python3 bench/core/python_context_bench.py  # -n 20000
"""

import argparse
import os
import sys
import tempfile
import timeit

import proton


def fake_launch():
    """The fake backend's launch: the test-only module, or `_C` in builds before it moved
    (an A/B against an older build runs this file with that build's PYTHONPATH)."""
    try:
        import proton_fake
        proton_fake.register_backend()
        return proton_fake.launch
    except ImportError:
        from proton import _C
        _C._fake_backend_register()
        return _C._fake_launch


launch = fake_launch()

LONG_FUNCTION = ("def long_function(n, f):\n    a = 0\n"
                 + "".join(f"    a += {i}\n" for i in range(300))
                 + "    for _ in range(n):\n        f()\n    return a\n")
_namespace = {}
exec(LONG_FUNCTION, _namespace)
long_function = _namespace["long_function"]


def direct():
    launch("k", 1)


def fresh_3():
    fresh_2()


def fresh_2():
    fresh_1()


def fresh_1():
    launch("k", 1)


def nest(depth, n, f):
    if depth == 0:
        return long_function(n, f)
    return nest(depth - 1, n, f)


def per_launch_us(path, context, depth, f, n):
    proton.start(path, context=context, backend="fake")
    best = min(timeit.repeat(lambda: nest(depth, n, f), number=1, repeat=7)) / n * 1e6
    proton.finalize()
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--number", type=int, default=20000)
    args = parser.parse_args()
    path = os.path.join(tempfile.mkdtemp(prefix="proton_pyctx_bench_"), "p")
    print(f"python {sys.version.split()[0]}, proton from {os.path.dirname(proton.__file__)}")
    per_launch_us(path, "shadow", 2, direct, args.number)  # one-time costs of the first session
    for depth in (2, 10):
        for label, f in (("direct", direct), ("3 fresh frames", fresh_3)):
            shadow = per_launch_us(path, "shadow", depth, f, args.number)
            python = per_launch_us(path, "python", depth, f, args.number)
            print(f"depth {depth:2} {label:15}: shadow {shadow:6.3f}  python {python:6.3f}  "
                  f"python context costs {python - shadow:6.3f} µs more per launch")


if __name__ == "__main__":
    main()
