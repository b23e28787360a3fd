"""GPU check of .perfetto_trace (formats.md §7) with real CUPTI records: a trace written with
`proton -d trace -f perfetto_trace` decodes (tests/python/perfetto_reader.py), its tracks are
valid, it holds the kernels of the .chrome_trace of the same workload, its timestamps are
CLOCK_REALTIME ns (within the hour before the clock snapshot taken at write time), every launch
comes before its kernel, and the scopes cover the launches made inside them.

    python3 tests/gpu/perfetto_check.py RUN.perfetto_trace RUN.chrome_trace
Prints one line per check and exits 1 when any fails.
"""

import collections
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
from perfetto_reader import INSTANT, SLICE_BEGIN, SLICE_END, check_tracks, read_trace  # noqa: E402


def kernels_of_json(path):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    return collections.Counter(e["name"] for e in events if e.get("cat") == "kernel")


def flows(trace):
    """{flow id: (launch ts, kernel ts)}."""
    starts, ends = {}, {}
    for e in trace["events"]:
        for i in e["flow_ids"]:
            starts[i] = e["ts"]
        for i in e["terminating_flow_ids"]:
            ends[i] = e["ts"]
    return {i: (starts[i], ends.get(i)) for i in starts}


def scopes_cover_launches(trace):
    """The launches on a CPU track that lie inside some scope slice of that track."""
    inside, total = 0, 0
    open_scopes = collections.defaultdict(int)
    for e in trace["events"]:
        if not e["track"].startswith("CPU Thread "):
            continue
        if e["type"] == SLICE_BEGIN:
            open_scopes[e["track"]] += 1
        elif e["type"] == SLICE_END:
            open_scopes[e["track"]] -= 1
        elif e["type"] == INSTANT:
            total += 1
            inside += open_scopes[e["track"]] > 0
    return inside, total


def main(perfetto_path, json_path):
    with open(perfetto_path, "rb") as f:
        trace = read_trace(f.read())
    results = []

    def check(name, ok, detail):
        results.append(ok)
        print("%s  %s: %s" % ("PASS" if ok else "FAIL", name, detail))

    try:
        check_tracks(trace)
        check("tracks", True, "time order, nesting and flows hold on %d tracks" % (
            len(trace["tracks"]) - 1))
    except ValueError as e:
        check("tracks", False, str(e))
    ours = collections.Counter(e["name"] for e in trace["events"]
                               if e["type"] == SLICE_BEGIN and e["categories"] == ["kernel"])
    check("kernels", ours == kernels_of_json(json_path),
          "%d kernels, %d names, as in the .chrome_trace" % (sum(ours.values()), len(ours)))
    snapshot = trace["clocks"][1]
    times = [e["ts"] for e in trace["events"]]
    check("realtime", trace["primary_clock"] == 1 and trace["default_clock"] == 1 and
          all(snapshot - 3600e9 <= t <= snapshot for t in times),
          "%d timestamps in [snapshot - 1 h, snapshot = %d]" % (len(times), snapshot))
    pairs = flows(trace)
    late = [i for i, (launch, kernel) in pairs.items() if kernel is None or launch > kernel]
    check("flows", bool(pairs) and not late,
          "%d launches, each before its kernel (%d not)" % (len(pairs), len(late)))
    inside, total = scopes_cover_launches(trace)
    check("scopes", total > 0 and inside > 0, "%d of %d launches inside a scope" % (inside, total))
    print("tracks: " + ", ".join(sorted(t["name"] for t in trace["tracks"].values()
                                        if t["parent"])))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
