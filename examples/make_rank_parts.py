#!/usr/bin/env python3
"""Part files of a made-up 4-rank run, for trying --follow, --stragglers and --baseline
(README.md; viewer.md §11.14-§11.16) without a GPU: each part is the real H200 profile
tests/refdata/ref_shadow.hatchet (Triton add_kernel in scope add_phase, cuBLAS nvjet matmul in
matmul_phase) with its times scaled, as periodic flushing under torchrun would name them.
Rank 2's matmul is 40% slower in steps 2-5, and every time varies by up to 2%.

  make_rank_parts.py OUT_DIR [STEPS] [--pause S]   (default 6 steps; --pause: write them
                                                    one step at a time, S seconds apart)

Writes OUT_DIR/run.rank<r>.part_<step>.hatchet (atomically: a hidden temporary renamed into
place, as the profiler does), then OUT_DIR/run.rank<r>.done. Standard library only."""
import argparse
import json
import os
import random
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILE = os.path.join(HERE, "..", "tests", "refdata", "ref_shadow.hatchet")


def scaled(doc, rng, slow):
    doc = json.loads(json.dumps(doc))
    stack = [(doc[0], False)]
    while stack:
        node, in_matmul = stack.pop()
        in_matmul = in_matmul or node["frame"]["name"] == "matmul_phase"
        if node is not doc[0] and "time (ns)" in node["metrics"]:
            factor = (1.4 if slow and in_matmul else 1.0) * (1 + 0.02 * rng.random())
            node["metrics"]["time (ns)"] = int(node["metrics"]["time (ns)"] * factor)
        stack.extend((c, in_matmul) for c in node["children"])
    return doc


def write(path, text):
    temp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(temp, "w") as f:
        f.write(text)
    os.rename(temp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("steps", nargs="?", type=int, default=6)
    ap.add_argument("--pause", type=float, default=0.0)
    a = ap.parse_args()
    doc = json.load(open(PROFILE))
    rng = random.Random(7)
    os.makedirs(a.out_dir, exist_ok=True)
    for step in range(a.steps):
        for rank in range(4):
            part = scaled(doc, rng, slow=rank == 2 and 2 <= step <= 5)
            write(os.path.join(a.out_dir, f"run.rank{rank}.part_{step}.hatchet"), json.dumps(part))
        time.sleep(a.pause)
    for rank in range(4):
        write(os.path.join(a.out_dir, f"run.rank{rank}.done"), '{"parts":%d}\n' % a.steps)


if __name__ == "__main__":
    main()
