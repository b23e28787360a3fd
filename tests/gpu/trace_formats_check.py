#!/usr/bin/env python3
"""Traces of real GPU runs in both formats (formats.md §6 and §7), checked with the standard
library only, on the files tests/gpu/trace_formats.sh wrote (the GPU machine need not have the
viewer: copy the files anywhere and run this there).

  trace_formats_check.py DIR [MERGED]

For every workload W in DIR with W_tree.hatchet, W_json.chrome_trace and W_pb.perfetto_trace:
kernel counts per name are equal in the three, and the protobuf file is valid per track
(timestamps never go back, slices nest, every flow has both ends, every iid resolves).
Periodic-flushing parts phased.part_<k>.perfetto_trace are each valid and self-contained.
With MERGED (proton-viewer --export MERGED rank0.perfetto_trace rank1.perfetto_trace): one
process per input, the same kernel counts as the inputs, and the two processes, which ran at
the same time, overlap in time as much as the inputs do on their absolute clock.
Prints CHECK lines; exit status 1 when one fails."""

import collections
import glob
import json
import os
import sys

FAILED = []


def check(name, ok, details):
    print(f"CHECK {name} {'PASS' if ok else 'FAIL'} {details}")
    if not ok:
        FAILED.append(name)


def fields(buf):
    """(number, wire type, value) of each field of one message; bytes values as memoryview."""
    i, n = 0, len(buf)
    while i < n:
        key, i = varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 1:
            value, i = int.from_bytes(buf[i:i + 8], "little"), i + 8
        elif wire == 5:
            value, i = int.from_bytes(buf[i:i + 4], "little"), i + 4
        elif wire == 2:
            size, i = varint(buf, i)
            value, i = buf[i:i + size], i + size
        else:
            raise ValueError(f"wire type {wire}")
        if i > n:
            raise ValueError("truncated message")
        yield number, wire, value


def varint(buf, i):
    value = shift = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def interned(entries, table):
    """InternedData entries {iid 1, name 2} into table (EventName/EventCategory/InternedString)."""
    iid = name = None
    for number, _, value in fields(entries):
        if number == 1:
            iid = value
        elif number == 2:
            name = bytes(value).decode("utf-8", "replace")
    table[iid] = name


def read_pftrace(path):
    """Decoded packets of a Perfetto trace: tracks, processes and events per track, with the
    sequence's interned names resolved (an unresolved iid fails the file)."""
    data = memoryview(open(path, "rb").read())
    tracks, processes, events = {}, {}, collections.defaultdict(list)
    tables = {}  # sequence id -> {field: {iid: name}}
    unresolved = []
    for number, _, packet in fields(data):
        if number != 1:
            raise ValueError(f"top-level field {number}")
        p = collections.defaultdict(list)
        for n, _, v in fields(packet):
            p[n].append(v)
        seq = p[10][0] if p[10] else 0
        flags = p[13][0] if p[13] else 0
        if flags & 1:
            tables[seq] = {1: {}, 2: {}, 3: {}, 29: {}}
        table = tables.setdefault(seq, {1: {}, 2: {}, 3: {}, 29: {}})
        for blob in p[12]:
            for n, _, v in fields(blob):
                if n in table:
                    interned(v, table[n])
        for blob in p[60]:
            read_track(blob, tracks, processes)
        for blob in p[11]:
            ev = read_event(blob, table, unresolved)
            ev["ts"] = p[8][0] if p[8] else None
            events[ev["track"]].append(ev)
    return tracks, processes, events, unresolved


def read_track(blob, tracks, processes):
    t = {"uuid": None, "name": "", "parent": None, "pid": None}
    for n, _, v in fields(blob):
        if n == 1:
            t["uuid"] = v
        elif n == 2:
            t["name"] = bytes(v).decode()
        elif n == 5:
            t["parent"] = v
        elif n == 3:
            for pn, _, pv in fields(v):
                if pn == 1:
                    t["pid"] = pv
                elif pn == 6:
                    t["process_name"] = bytes(pv).decode()
    tracks[t["uuid"]] = t
    if t["pid"] is not None:
        processes[t["uuid"]] = t


def read_event(blob, table, unresolved):
    ev = {"type": None, "track": None, "name": None, "cats": [], "flows": [], "ends": []}
    for n, _, v in fields(blob):
        if n == 9:
            ev["type"] = v
        elif n == 11:
            ev["track"] = v
        elif n == 10:
            ev["name"] = resolve(table[2], v, unresolved)
        elif n == 23:
            ev["name"] = bytes(v).decode()
        elif n == 3:
            ev["cats"].append(resolve(table[1], v, unresolved))
        elif n in (36, 47):
            ev["flows"].append(v)
        elif n in (42, 48):
            ev["ends"].append(v)
        elif n == 4:
            for an, _, av in fields(v):
                if an == 1:
                    resolve(table[3], av, unresolved)
                elif an == 17:
                    resolve(table[29], av, unresolved)
    return ev


def resolve(table, iid, unresolved):
    if iid not in table:
        unresolved.append(iid)
        return None
    return table[iid]


def track_problems(events):
    """Per-track validity (formats.md §7.4): the first problem found, or None."""
    starts, ends = set(), set()
    for track, evs in events.items():
        last, depth = None, 0
        for ev in evs:
            if ev["ts"] is None:
                return f"event without timestamp on track {track}"
            if last is not None and ev["ts"] < last:
                return f"time goes back on track {track}: {ev['ts']} after {last}"
            last = ev["ts"]
            depth += {1: 1, 2: -1}.get(ev["type"], 0)
            if depth < 0:
                return f"a slice end without a begin on track {track}"
            starts.update(ev["flows"])
            ends.update(ev["ends"])
        if depth != 0:
            return f"{depth} slices never end on track {track}"
    if starts != ends:
        return f"{len(starts ^ ends)} flows with one end only"
    return None


def pb_kernel_counts(events, tracks=None, process=None):
    counts = collections.Counter()
    for track, evs in events.items():
        if process is not None and tracks[track]["parent"] != process:
            continue
        for ev in evs:
            if ev["type"] == 1 and "kernel" in ev["cats"]:
                counts[ev["name"]] += 1
    return counts


def json_kernel_counts(path):
    doc = json.load(open(path))
    return collections.Counter(e["name"] for e in doc["traceEvents"] if e.get("cat") == "kernel")


def tree_kernel_counts(path):
    """Kernel counts per name: the `count` of every node below ROOT that has one."""
    counts = collections.Counter()
    stack = [json.load(open(path))[0]]
    while stack:
        node = stack.pop()
        c = node.get("metrics", {}).get("count", 0)
        if node["frame"]["name"] != "ROOT" and c:
            counts[node["frame"]["name"]] += c
        stack.extend(node.get("children", []))
    return counts


def kernel_span(events, tracks=None, process=None):
    """(first kernel start, last kernel start) over the kernel slices (of one process)."""
    ts = [ev["ts"] for track, evs in events.items() for ev in evs
          if ev["type"] == 1 and "kernel" in ev["cats"]
          and (process is None or tracks[track]["parent"] == process)]
    return (min(ts), max(ts)) if ts else (0, 0)


def check_workloads(d):
    for tree in sorted(glob.glob(os.path.join(d, "*_tree.hatchet"))):
        w = os.path.basename(tree)[:-len("_tree.hatchet")]
        tracks, _, events, unresolved = read_pftrace(os.path.join(d, w + "_pb.perfetto_trace"))
        t, j, p = (tree_kernel_counts(tree), json_kernel_counts(os.path.join(d, w + "_json.chrome_trace")),
                   pb_kernel_counts(events))
        check(f"{w}_counts", t == j == p and sum(t.values()) > 0,
              f"{sum(t.values())} kernels of {len(t)} names in the tree, {sum(j.values())} in JSON, "
              f"{sum(p.values())} in protobuf" + ("" if t == j == p else f"; differ: {(t - p) + (p - t)}"))
        problem = track_problems(events) or (f"{len(unresolved)} unresolved iids" if unresolved else None)
        check(f"{w}_protobuf_valid", problem is None, problem or f"{len(tracks)} tracks")


def check_parts(d):
    parts = sorted(glob.glob(os.path.join(d, "phased.part_*.perfetto_trace")))
    kernels = 0
    for path in parts:
        tracks, processes, events, unresolved = read_pftrace(path)
        problem = track_problems(events) or (f"{len(unresolved)} unresolved iids" if unresolved else None)
        if problem:
            check("phased_parts_valid", False, f"{os.path.basename(path)}: {problem}")
            return
        kernels += sum(pb_kernel_counts(events).values())
    check("phased_parts_valid", len(parts) > 1 and kernels > 0,
          f"{len(parts)} self-contained parts, {kernels} kernels")


def check_merge(d, merged):
    inputs = [read_pftrace(os.path.join(d, f"rank{r}.perfetto_trace")) for r in (0, 1)]
    tracks, processes, events, unresolved = read_pftrace(merged)
    check("merge_one_process_per_rank", len(processes) == 2,
          f"processes {[p.get('process_name') for p in processes.values()]}")
    problem = track_problems(events) or (f"{len(unresolved)} unresolved iids" if unresolved else None)
    check("merge_valid", problem is None, problem or f"{len(tracks)} tracks")
    by_rank = sorted(processes)
    spans_in = [kernel_span(i[2]) for i in inputs]
    spans_out = [kernel_span(events, tracks, p) for p in by_rank]
    counts_ok = all(pb_kernel_counts(i[2]) == pb_kernel_counts(events, tracks, p)
                    for i, p in zip(inputs, by_rank))
    check("merge_counts", counts_ok, f"{[sum(pb_kernel_counts(i[2]).values()) for i in inputs]} kernels per rank")
    overlap_in = min(spans_in[0][1], spans_in[1][1]) - max(spans_in[0][0], spans_in[1][0])
    overlap_out = min(spans_out[0][1], spans_out[1][1]) - max(spans_out[0][0], spans_out[1][0])
    check("merge_aligned", overlap_in > 0 and sorted(spans_in) == sorted(spans_out),
          f"the ranks' kernels overlap for {overlap_in / 1e6:.1f} ms in the inputs and "
          f"{overlap_out / 1e6:.1f} ms in the merge")


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    check_workloads(argv[1])
    check_parts(argv[1])
    if len(argv) > 2:
        check_merge(argv[1], argv[2])
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
