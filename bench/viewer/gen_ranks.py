#!/usr/bin/env python3
"""The rank files of one job, for the --merge benchmark (spec viewer.md §11.11).

  gen_ranks.py --ranks R [--nodes N] [--seed S] OUT_DIR

Writes OUT_DIR/run.rank<r>.hatchet_msgpack for r = 0..R-1: the tree of gen_profile.py's
MessagePack profile (N nodes, seed S) in every file, with each rank's own kernel times
(the base time scaled by 0.8-1.2, and 1.3 on every 97th rank: stragglers) and about 0.1 %
of its kernels renamed, so that the union has frames that only some files hold. The base
file is built once and each rank is spliced from it, so 1,024 files take seconds, not the
minutes of 1,024 generator runs. Standard library only.
"""
import argparse
import io
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_profile  # noqa: E402

TIME_KEY = gen_profile.mp_str("time (ns)")
NAME_KEY = gen_profile.mp_str("name")
KERNEL_PREFIXES = (b"triton", b"_Z", b"nvjet")


def value_end(data, i):
    """End of the MessagePack unsigned integer starting at i."""
    tag = data[i]
    return i + {0xcc: 2, 0xcd: 3, 0xce: 5, 0xcf: 9}.get(tag, 1)


def str_payload(data, i):
    """(start, end) of the payload of the MessagePack string starting at i."""
    tag = data[i]
    if tag & 0xe0 == 0xa0:
        return i + 1, i + 1 + (tag & 0x1f)
    if tag == 0xd9:
        return i + 2, i + 2 + data[i + 1]
    n = int.from_bytes(data[i + 1:i + 3], "big") if tag == 0xda else int.from_bytes(data[i + 1:i + 5], "big")
    start = i + (3 if tag == 0xda else 5)
    return start, start + n


def spots(base):
    """Kernel time values [(start, end, value)] and kernel name payloads [(start, end)]."""
    times = []
    for m in re.finditer(re.escape(TIME_KEY), base):
        i = m.end()
        end = value_end(base, i)
        value = int.from_bytes(base[i + 1:end], "big") if end - i > 1 else base[i]
        if value:  # the root's placeholder stays 0
            times.append((i, end, value))
    names = []
    for m in re.finditer(re.escape(NAME_KEY), base):
        start, end = str_payload(base, m.end())
        if base[start:end].startswith(KERNEL_PREFIXES):
            names.append((start, end))
    return times, names


def rank_bytes(base, times, names, rank, seed):
    rng = random.Random(seed * 1000003 + rank)
    scale = 1.3 if rank % 97 == 5 else 1.0
    patches = [(s, e, gen_profile.mp_uint(max(1, int(v * scale * (0.8 + 0.4 * rng.random())))))
               for s, e, v in times]
    for s, e in rng.sample(names, max(1, len(names) // 1000)):
        patches.append((e - 1, e, b"x"))  # same length: the layout stays valid
    patches.sort()
    out = io.BytesIO()
    at = 0
    for s, e, b in patches:
        out.write(base[at:s])
        out.write(b)
        at = e
    out.write(base[at:])
    return out.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    buf = io.BytesIO()
    gen_profile.write_msgpack(gen_profile.Gen(a.nodes, a.seed, "current"), buf)
    base = buf.getvalue()
    times, names = spots(base)
    os.makedirs(a.out_dir, exist_ok=True)
    for r in range(a.ranks):
        with open(os.path.join(a.out_dir, "run.rank%04d.hatchet_msgpack" % r), "wb") as f:
            f.write(rank_bytes(base, times, names, r, a.seed))


if __name__ == "__main__":
    sys.exit(main())
