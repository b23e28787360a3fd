#!/usr/bin/env python3
"""An A/B of two builds of ours from one run_overhead.py run (--build-b), each profiled mode's
cost divided by the bare-CUPTI floor's cost in the same process. Stdlib only.

Why: the launch cost differs between processes by up to 50%, and ours and ours_b never share
a process, so their plain medians carry that spread. The floor takes turns with both in every
process and costs the same in both (it is one library), so mode/floor per process cancels the
process's speed; the medians of those ratios are what tells the builds apart.

    bench/overhead/ab_floor_ratio.py OUT/overhead.json
"""
import json
import statistics
import sys

from run_overhead import added_costs


def floor_ratios(processes):
    """{(kind, who, mode): [per process: median mode cost / median floor cost]}."""
    ratios = {}
    for p in processes:
        if "error" in p or p.get("who") not in ("ours", "ours_b"):
            continue
        added = added_costs(p["windows"])
        floor = statistics.median(added.get("floor") or [float("nan")])
        for mode, values in added.items():
            if mode in ("floor", "residual") or not floor > 0:
                continue
            ratios.setdefault((p["kind"], p["who"], mode), []).append(
                statistics.median(values) / floor)
    return ratios


def table(ratios):
    rows = ["| kind | mode | ours / floor | previous / floor | ours / previous |",
            "|---|---|---|---|---|"]
    for kind, who, mode in sorted(k for k in ratios if k[1] == "ours"):
        a = statistics.median(ratios[(kind, "ours", mode)])
        b_values = ratios.get((kind, "ours_b", mode))
        if not b_values:
            continue
        b = statistics.median(b_values)
        rows.append(f"| {kind} | {mode} | {a:.2f} | {b:.2f} | {a / b:.2f} |")
    return "\n".join(rows)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ab_floor_ratio.py OVERHEAD_JSON")
    try:
        with open(sys.argv[1]) as f:
            processes = json.load(f)["processes"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"ab_floor_ratio.py: {sys.argv[1]}: {e}")
    print(table(floor_ratios(processes)))


if __name__ == "__main__":
    main()
