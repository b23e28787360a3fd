"""A short look at a .hatchet profile where proton-viewer was not built (scripts/quickstart.sh
on a machine without the viewer's libraries): the frames to depth 3, largest time first, with
their inclusive time in microseconds and kernel count. Standard library only; proton-viewer
remains the tool to read a profile (viewer.md).
    python3 scripts/lib/hatchet_summary.py PROFILE.hatchet"""

import json
import sys

MAX_DEPTH = 3
MAX_CHILDREN = 8


def inclusive(node, totals):
    """Fills totals[id(node)] with the node's (time ns, count) summed over its subtree: the
    file holds exclusive values, and scopes hold none of their own. Iterative: trees may be
    deep."""
    order, stack = [], [node]
    while stack:
        current = stack.pop()
        order.append(current)
        stack.extend(current.get("children", []))
    for current in reversed(order):
        metrics = current.get("metrics", {})
        time_ns, count = metrics.get("time (ns)", 0), metrics.get("count", 0)
        for child in current.get("children", []):
            time_ns += totals[id(child)][0]
            count += totals[id(child)][1]
        totals[id(current)] = (time_ns, count)


def print_frame(node, depth, totals):
    time_ns, count = totals[id(node)]
    name = node.get("frame", {}).get("name", "?")
    print("%12.3f %7d  %s%s" % (time_ns / 1000.0, count, "  " * depth, name[:100]))
    if depth + 1 >= MAX_DEPTH:
        return
    children = sorted(node.get("children", []), key=lambda child: -totals[id(child)][0])
    for child in children[:MAX_CHILDREN]:
        print_frame(child, depth + 1, totals)


def main(path):
    try:
        with open(path) as f:
            document = json.load(f)
    except (OSError, ValueError) as error:
        sys.exit("hatchet_summary: error: cannot read %s: %s" % (path, error))
    if not isinstance(document, list) or not document or not isinstance(document[0], dict):
        sys.exit("hatchet_summary: error: %s is not a .hatchet tree" % path)
    totals = {}
    inclusive(document[0], totals)
    print("%12s %7s  %s" % ("time (us)", "count", "frame (inclusive; depth <= %d, largest first)"
                                                      % MAX_DEPTH))
    print_frame(document[0], 0, totals)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: hatchet_summary.py PROFILE.hatchet")
    main(sys.argv[1])
