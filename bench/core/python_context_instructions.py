#!/usr/bin/env python3
"""Instructions per launch of the shadow and python contexts, counted by callgrind (no GPU).

Timings of the launch path on a shared machine spread by more than the differences an A/B
of two builds looks for; instruction counts do not. Each context runs twice under
`valgrind --tool=callgrind`, with N1 and N2 launches of python_context_bench.py's workload
(depth 10, three fresh frames per launch, as Triton's launcher frames are), so that the
difference over N2 - N1 is the per-launch count without start-up and finalize:

    PYTHONPATH=build/python:build/python-test python3 bench/core/python_context_instructions.py

Run it once with each build's PYTHONPATH to compare two builds.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile


def workload(context, n):
    import proton
    from python_context_bench import fresh_3, nest  # registers the fake backend

    proton.start(os.path.join(tempfile.mkdtemp(prefix="proton_ctx_ir_"), "p"),
                 context=context, backend="fake")
    nest(10, 200, fresh_3)  # the first captures create the nodes and the line caches
    nest(10, n, fresh_3)
    proton.finalize()


def instructions(context, n):
    """Instructions callgrind counted over a whole run of `workload(context, n)`."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
               sys.executable, os.path.abspath(__file__), "--workload", context, str(n)]
        # A fixed hash seed: string hashing decides dict probing, which callgrind counts.
        env = dict(os.environ, PYTHONHASHSEED="0")
        run = subprocess.run(cmd, capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        sys.exit(f"python_context_instructions.py: callgrind run failed ({run.returncode}): "
                 + (run.stderr.strip().splitlines() or ["no output"])[-1])
    return int(found.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n1", type=int, default=1000)
    parser.add_argument("--n2", type=int, default=5000)
    parser.add_argument("--workload", nargs=2, metavar=("CONTEXT", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.workload:
        workload(args.workload[0], int(args.workload[1]))
        return
    if args.n2 <= args.n1:
        sys.exit("python_context_instructions.py: --n2 must be larger than --n1")
    counts = {}
    for context in ("shadow", "python"):
        delta = instructions(context, args.n2) - instructions(context, args.n1)
        counts[context] = delta / (args.n2 - args.n1)
        print(f"{context:6}: {counts[context]:7.0f} instructions per launch")
    print(f"python context over shadow: {counts['python'] - counts['shadow']:7.0f}")


if __name__ == "__main__":
    main()
