#!/usr/bin/env python3
"""Host cost of the Triton launch hook per launch, without a GPU (issue 4: hook <= 4 µs).

Replays what Triton 3.6 does around every kernel launch (its source, printed on the H200:
`CompiledKernel.launch_metadata` builds a `LazyDict` and adds the kernel's `launch_metadata`
function; the generated C launcher calls `knobs.runtime.launch_enter_hook(metadata)`, a
`HookChain`, before `cuLaunchKernel` and `launch_exit_hook` after it) with a fake `triton`
package, and times it with the hook registered (`proton.start(hook="triton")`) and without
(the same chain, empty, as in an unprofiled Triton run). The difference is the hook's own
host cost: the part of the GPU benchmark's `proton_hook` row that the hook implementation
decides (the CUPTI part is the `proton` row's).

    PYTHONPATH=build/python python3 bench/overhead/hook_cpu_bench.py      # -n 200000 -r 15
"""

import argparse
import os
import sys
import tempfile
import timeit

# Triton 3.6's HookChain and LazyDict, verbatim (shared with the launch hook's tests).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "python"))
from fake_triton36 import KNOBS_SOURCE, LAZY_DICT_SOURCE  # noqa: E402

_namespace = {}
exec(LAZY_DICT_SOURCE, _namespace)
LazyDict = _namespace["LazyDict"]


def tiny_metadata(grid, kernel, args):  # tests/gpu/workloads/overhead.py's launch_metadata
    return {"name": "tiny", "bytes": 3 * args["n"] * 4}


ARG_NAMES = ("x_ptr", "y_ptr", "n", "BLOCK")


def launch(knobs, args):
    """One launch as Triton 3.6 performs it, minus the driver call."""
    metadata = LazyDict({"name": "tiny_kernel", "function": 1234, "stream": 0})
    arg_dict = {name: arg for name, arg in zip(ARG_NAMES, args)}
    metadata.add(tiny_metadata, ((1,), {"num_warps": 4}, arg_dict))
    knobs.runtime.launch_enter_hook(metadata)
    knobs.runtime.launch_exit_hook(metadata)


def per_launch_us(knobs, number, repeat):
    args = (0, 0, 64, 64)
    best = min(timeit.repeat(lambda: launch(knobs, args), number=number, repeat=repeat))
    return best / number * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--number", type=int, default=200_000)
    parser.add_argument("-r", "--repeat", type=int, default=15)
    args = parser.parse_args()
    fake = tempfile.mkdtemp(prefix="proton_hook_bench_")
    os.makedirs(os.path.join(fake, "triton"))
    for name, text in (("__init__.py", ""), ("knobs.py", KNOBS_SOURCE)):
        with open(os.path.join(fake, "triton", name), "w") as f:
            f.write(text)
    sys.path.insert(0, fake)
    os.chdir(fake)
    import triton.knobs as knobs
    import proton

    base = per_launch_us(knobs, args.number, args.repeat)
    proton.start("hook_bench", hook="triton")
    hooked = per_launch_us(knobs, args.number, args.repeat)
    proton.finalize()
    print(f"python {sys.version.split()[0]}, proton from {os.path.dirname(proton.__file__)}")
    print(f"launch without hook : {base:6.3f} µs")
    print(f"launch with hook    : {hooked:6.3f} µs")
    print(f"hook cost           : {hooked - base:6.3f} µs per launch (enter + exit)")


if __name__ == "__main__":
    main()
