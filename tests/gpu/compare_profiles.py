#!/usr/bin/env python3
"""Structural comparison of our profiles with Triton's Proton (profiler.md §7.2). Stdlib only.

Usage:
    compare_profiles.py MANIFEST [--table FILE] [--json FILE]

MANIFEST is a tab-separated file written by tests/gpu/run.sh, one case per line:
    name  kind  ref_path  our_path  ref_rc  our_rc
kind is `hatchet`, `msgpack` (ours in .hatchet_msgpack, the reference's in .hatchet or
absent), `trace` (.chrome_trace), `perfetto` (ours a .perfetto_trace, the reference's the
.chrome_trace of the same workload), or `ours-only:<kind>` (the reference cannot produce it;
only our file is checked for validity). Prints a PASS/FAIL table; exits 1 if any case fails.

Checks for trees: the same set of paths (the reference's launcher and profiler frames removed,
§7.3 B), exact `count` per node, equal flexible metrics (numerically), equal ROOT metrics,
equal device table, and `time (ns)` per node within ±25% of the reference (nodes whose two
times differ by less than 2 µs are accepted: single tiny launches jitter more than 25%).
Checks for traces: the same number of events, kernel names and call stacks (as multisets),
the same number of streams, first `ts` 0.0, `ts` non-decreasing within each stream, the same
event keys. For `perfetto`: valid tracks (tests/python/perfetto_reader.py: time order, nesting,
flows), the reference's kernel names and call stacks, each launch before its kernel, and
CLOCK_REALTIME timestamps (within the hour before the file's clock snapshot). `cpu_time (ns)`
(host wall time) is compared by presence only.
"""
import collections
import json
import math
import re
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
from perfetto_reader import SLICE_BEGIN, call_stack, check_tracks, read_trace  # noqa: E402

KERNEL_METRICS = {"count", "time (ns)", "device_id", "device_type"}
# Host wall-clock metrics differ between any two runs: compared by presence only.
HOST_TIME_METRICS = {"cpu_time (ns)"}
TIME_TOLERANCE = 0.25
TIME_SLACK_NS = 2000

# Frames of the reference's launcher and scope implementation, which ours does not write
# (§2.8, §7.3 B): <venv>/bin/proton, triton/profiler/*.py, runpy.
REF_FRAME_DROP = re.compile(r"(/bin/proton:\d+@)|(/triton/profiler/[^/]+\.py:\d+@)|"
                            r"(<frozen runpy>:)|(/runpy\.py:\d+@)")


# ---------------------------------------------------------------------------------------------
# MessagePack (only what hatchet_msgpack uses)

def unpack_msgpack(data):
    """Decodes one MessagePack value (iteratively, so deep trees cannot overflow the stack)."""
    pos = 0

    def take(n):
        nonlocal pos
        chunk = data[pos:pos + n]
        if len(chunk) != n:
            raise ValueError("truncated msgpack")
        pos += n
        return chunk

    def scalar_or_header():
        b = take(1)[0]
        if b <= 0x7F: return ("v", b)
        if 0x80 <= b <= 0x8F: return ("map", b & 0x0F)
        if 0x90 <= b <= 0x9F: return ("arr", b & 0x0F)
        if 0xA0 <= b <= 0xBF: return ("v", take(b & 0x1F).decode())
        if b >= 0xE0: return ("v", b - 0x100)
        fixed = {0xC0: None, 0xC2: False, 0xC3: True}
        if b in fixed: return ("v", fixed[b])
        fmt = {0xCA: ">f", 0xCB: ">d", 0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q",
               0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
        if b in fmt:
            return ("v", struct.unpack(fmt[b], take(struct.calcsize(fmt[b])))[0])
        strs = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}
        if b in strs:
            n = struct.unpack(strs[b], take(struct.calcsize(strs[b])))[0]
            raw = take(n)
            return ("v", raw.decode() if b >= 0xD9 else raw)
        if b in (0xDC, 0xDD):
            f = ">H" if b == 0xDC else ">I"
            return ("arr", struct.unpack(f, take(struct.calcsize(f)))[0])
        if b in (0xDE, 0xDF):
            f = ">H" if b == 0xDE else ">I"
            return ("map", struct.unpack(f, take(struct.calcsize(f)))[0])
        raise ValueError(f"unsupported msgpack byte 0x{b:02x}")

    no_key = object()
    root = []
    # Each frame: container, items left, kind, pending map key.
    stack = [{"obj": root, "left": 1, "kind": "arr", "key": no_key}]
    while stack:
        frame = stack[-1]
        if frame["left"] == 0:
            stack.pop()
            continue
        tag, value = scalar_or_header()
        item = [] if tag == "arr" else {} if tag == "map" else value
        if frame["kind"] == "arr":
            frame["obj"].append(item)
            frame["left"] -= 1
        elif frame["key"] is no_key:
            if tag != "v":
                raise ValueError("msgpack map key must be a scalar")
            frame["key"] = item
            continue
        else:
            frame["obj"][frame["key"]] = item
            frame["key"] = no_key
            frame["left"] -= 1
        if tag in ("arr", "map") and value > 0:
            stack.append({"obj": item, "left": value, "kind": tag, "key": no_key})
    if pos != len(data):
        raise ValueError("trailing bytes after msgpack value")
    return root[0]


# ---------------------------------------------------------------------------------------------
# Trees

def load_tree(path, kind):
    if kind == "msgpack":
        with open(path, "rb") as f:
            return unpack_msgpack(f.read())
    with open(path) as f:
        return json.load(f)


def flatten(doc, drop_frames):
    """path tuple -> merged metrics dict; ROOT metrics; device table."""
    root, devices = doc[0], doc[1]
    nodes = collections.OrderedDict()
    stack = [(root, ())]
    while stack:
        node, path = stack.pop()
        name = node["frame"]["name"]
        if path or name != "ROOT":
            if not (drop_frames and REF_FRAME_DROP.search(name)):
                path = path + (name,)
        if path:
            merged = nodes.setdefault(path, {})
            for key, value in node.get("metrics", {}).items():
                if key in ("device_id", "device_type"):
                    merged[key] = value
                elif isinstance(value, list):
                    old = merged.get(key)
                    merged[key] = value if old is None else [a + b for a, b in zip(old, value)]
                else:
                    merged[key] = merged.get(key, 0) + value
        for child in reversed(node.get("children", [])):
            stack.append((child, path))
    return nodes, root.get("metrics", {}), devices


def close(a, b):
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
            close(x, y) for x, y in zip(a, b))
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
    except (TypeError, ValueError):
        return a == b


def is_pc_sampling_metric(key):
    return key in ("num_samples", "num_stalled_samples") or key.startswith("stalled_")


def same_metric(key, ref, ours):
    """PC-sampling counters are statistical: the same counters must be sampled (non-zero) on
    both sides, not the same numbers."""
    if is_pc_sampling_metric(key):
        return bool(ref) == bool(ours)
    return close(ref, ours)


def short(path):
    text = "/".join(p if len(p) <= 40 else p[:37] + "..." for p in path)
    return text if len(text) <= 160 else "..." + text[-157:]


def compare_trees(ref_doc, our_doc):
    problems, notes = [], []
    ref_nodes, ref_root, ref_dev = flatten(ref_doc, drop_frames=True)
    our_nodes, our_root, our_dev = flatten(our_doc, drop_frames=False)
    missing = [p for p in ref_nodes if p not in our_nodes]
    extra = [p for p in our_nodes if p not in ref_nodes]
    if missing:
        problems.append(f"{len(missing)} reference paths missing, e.g. {short(missing[0])}")
    if extra:
        problems.append(f"{len(extra)} extra paths, e.g. {short(extra[0])}")
    bad_count = bad_flex = bad_time = 0
    worst_time = None
    for path, ref_m in ref_nodes.items():
        our_m = our_nodes.get(path)
        if our_m is None:
            continue
        if ref_m.get("count", 0) != our_m.get("count", 0):
            bad_count += 1
            if bad_count == 1:
                problems.append(f"count {our_m.get('count', 0)} != {ref_m.get('count', 0)} at "
                                f"{short(path)}")
        ref_flex = {k: v for k, v in ref_m.items() if k not in KERNEL_METRICS}
        our_flex = {k: v for k, v in our_m.items() if k not in KERNEL_METRICS}
        if set(ref_flex) != set(our_flex) or any(not same_metric(k, ref_flex[k], our_flex[k])
                                                 for k in ref_flex
                                                 if k not in HOST_TIME_METRICS):
            bad_flex += 1
            if bad_flex == 1:
                problems.append(f"flexible metrics {our_flex} != {ref_flex} at {short(path)}")
        if ("device_type" in ref_m) != ("device_type" in our_m):
            problems.append(f"device metrics differ at {short(path)}")
        rt, ot = ref_m.get("time (ns)", 0), our_m.get("time (ns)", 0)
        if rt or ot:
            diff = abs(ot - rt)
            if diff > TIME_TOLERANCE * rt and diff > TIME_SLACK_NS:
                bad_time += 1
                if worst_time is None or diff > worst_time[0]:
                    worst_time = (diff, path, rt, ot)
    if bad_count > 1:
        problems.append(f"{bad_count} nodes with a different count")
    if bad_time:
        _, path, rt, ot = worst_time
        problems.append(f"{bad_time} nodes outside ±25% time, worst {short(path)}: "
                        f"{ot} ns vs {rt} ns")
    if not all(k in our_root and close(our_root[k], v) for k, v in ref_root.items()) or \
            set(ref_root) != set(our_root):
        problems.append(f"ROOT metrics {our_root} != {ref_root}")
    if our_dev != ref_dev:
        problems.append(f"device table {json.dumps(our_dev)} != {json.dumps(ref_dev)}")
    total = sum(m.get("count", 0) for m in our_nodes.values())
    notes.append(f"{len(our_nodes)} nodes, {total} kernels")
    return problems, notes


# ---------------------------------------------------------------------------------------------
# Traces

def strip_stack(stack):
    return tuple(f for f in stack if not REF_FRAME_DROP.search(f))


def load_trace(path):
    """A .chrome_trace of either layout (formats.md §4): Triton 3.6's one object per stream and
    line (0 bytes when empty), or the 3.7+ single document. Returns one document."""
    text = open(path).read()
    try:
        return json.loads(text) if text.strip() else {"traceEvents": []}
    except json.JSONDecodeError:
        events = []
        for line in text.splitlines():
            if line.strip():
                events += json.loads(line).get("traceEvents", [])
        return {"displayTimeUnit": "us", "traceEvents": events}


def kernel_streams(doc):
    """Stream id of each kernel event: its tid in 3.6; in 3.7+ the id in its lane's name
    ("GPU Stream 7", "Graph: Stream 7")."""
    lanes = {e["tid"]: e["args"]["name"] for e in doc.get("traceEvents", [])
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    streams = []
    for e in doc.get("traceEvents", []):
        if e.get("cat") == "kernel":
            lane = lanes.get(e.get("tid"))
            streams.append(int(lane.rsplit(" ", 1)[1]) if lane else e.get("tid"))
    return streams


def compare_traces(ref_doc, our_doc):
    problems, notes = [], []
    ref_ev = [e for e in ref_doc.get("traceEvents", []) if e.get("cat") == "kernel"]
    our_ev = [e for e in our_doc.get("traceEvents", []) if e.get("cat") == "kernel"]
    if len(ref_ev) != len(our_ev):
        problems.append(f"{len(our_ev)} kernel events != {len(ref_ev)}")
    if collections.Counter(e["name"] for e in ref_ev) != collections.Counter(
            e["name"] for e in our_ev):
        problems.append("kernel names differ")
    ref_stacks = collections.Counter(strip_stack(e["args"]["call_stack"]) for e in ref_ev)
    our_stacks = collections.Counter(tuple(e["args"]["call_stack"]) for e in our_ev)
    if ref_stacks != our_stacks:
        diff = (our_stacks - ref_stacks) or (ref_stacks - our_stacks)
        problems.append(f"call stacks differ, e.g. {short(next(iter(diff)))}")
    if len(set(kernel_streams(ref_doc))) != len(set(kernel_streams(our_doc))):
        problems.append("different number of streams")
    ts = [e["ts"] for e in our_ev]
    # 3.6: ts from the first kernel; 3.7+: from baseTimeNanoseconds, the first event of any
    # kind (a CPU scope or launch precedes the first kernel).
    if ts and ("baseTimeNanoseconds" in our_doc and min(ts) < 0.0
               or "baseTimeNanoseconds" not in our_doc and min(ts) != 0.0):
        problems.append(f"first ts {min(ts)} is not where the trace starts")
    lanes = collections.defaultdict(list)  # our file: stream by stream, each in time order
    for e in our_ev:
        lanes[e.get("tid")].append(e["ts"])
    if any(lane != sorted(lane) for lane in lanes.values()):
        problems.append("ts not non-decreasing within a stream")
    # Kernel events keep the 3.6 keys; the 3.7+ layout adds pid.
    ref_keys = {tuple(sorted(set(e) - {"pid"})) for e in ref_ev}
    our_keys = {tuple(sorted(set(e) - {"pid"})) for e in our_ev}
    if ref_keys != our_keys:
        problems.append(f"event keys {sorted(our_keys)} != {sorted(ref_keys)}")
    ref_dur, our_dur = sum(e["dur"] for e in ref_ev), sum(e["dur"] for e in our_ev)
    if ref_dur and abs(our_dur - ref_dur) > TIME_TOLERANCE * ref_dur:
        problems.append(f"total kernel time {our_dur:.1f} us vs {ref_dur:.1f} us (>25%)")
    notes.append(f"{len(our_ev)} events")
    return problems, notes


def compare_perfetto(ref_doc, our_path):
    """Our .perfetto_trace (formats.md §7) against the reference's .chrome_trace of the same
    workload."""
    with open(our_path, "rb") as f:
        trace = read_trace(f.read())
    problems = []
    try:
        check_tracks(trace)
    except ValueError as e:
        problems.append(f"invalid tracks: {e}")
    ref_ev = [e for e in ref_doc.get("traceEvents", []) if e.get("cat") == "kernel"]
    ours = [e for e in trace["events"]
            if e["type"] == SLICE_BEGIN and e["categories"] == ["kernel"]]
    ref_stacks = collections.Counter(strip_stack(e["args"]["call_stack"]) for e in ref_ev)
    our_stacks = collections.Counter(tuple(call_stack(e)) for e in ours)
    if ref_stacks != our_stacks:
        diff = (our_stacks - ref_stacks) or (ref_stacks - our_stacks)
        problems.append(f"kernels or call stacks differ, e.g. {short(next(iter(diff)))}")
    starts, ends = {}, {}
    for e in trace["events"]:
        starts.update((i, e["ts"]) for i in e["flow_ids"])
        ends.update((i, e["ts"]) for i in e["terminating_flow_ids"])
    if not starts or any(starts[i] > ends.get(i, -1) for i in starts):
        problems.append("a launch without its kernel, or after it")
    snapshot = trace["clocks"].get(1, 0)
    if trace["primary_clock"] != 1 or not all(
            snapshot - 3600e9 <= e["ts"] <= snapshot for e in trace["events"]):
        problems.append("timestamps are not CLOCK_REALTIME up to the clock snapshot")
    return problems, [f"{len(ours)} kernels, {len(starts)} flows"]


# ---------------------------------------------------------------------------------------------

def check_ours_only(kind, path):
    """The reference cannot write this case: check that ours is a valid, non-empty profile."""
    doc = load_tree(path, kind) if kind != "trace" else load_trace(path)
    if kind == "trace":
        return ([] if doc.get("traceEvents") else ["no events"]), ["ours only"]
    nodes, root, _ = flatten(doc, drop_frames=False)
    kernels = sum(m.get("count", 0) for m in nodes.values())
    problems = [] if nodes and kernels > 0 else ["no kernel in the profile"]
    return problems, [f"ours only: {len(nodes)} nodes, {kernels} kernels"]


def run_case(name, kind, ref_path, our_path, ref_rc, our_rc):
    if our_rc == "98":
        return "FAIL", ["our run used Triton's triton.profiler, not ours (alias missing)"], []
    if our_rc != "0":
        return "FAIL", [f"our run exited {our_rc}"], []
    try:
        if kind.startswith("ours-only:"):
            problems, notes = check_ours_only(kind.split(":", 1)[1], our_path)
        else:
            if ref_rc != "0":
                return "SKIP", [f"reference run exited {ref_rc}"], []
            ref_kind = "hatchet" if kind == "msgpack" else kind
            if kind == "trace":
                problems, notes = compare_traces(load_trace(ref_path),
                                                 load_trace(our_path))
            elif kind == "perfetto":
                problems, notes = compare_perfetto(load_trace(ref_path), our_path)
            else:
                problems, notes = compare_trees(load_tree(ref_path, ref_kind),
                                                load_tree(our_path, kind))
    except FileNotFoundError as e:
        return "FAIL", [f"missing file {e.filename}"], []
    except (ValueError, KeyError, IndexError, TypeError) as e:
        return "FAIL", [f"unreadable profile: {e!r}"], []
    return ("FAIL" if problems else "PASS"), problems, notes


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    table_path = json_path = None
    if "--table" in argv:
        table_path = argv[argv.index("--table") + 1]
    if "--json" in argv:
        json_path = argv[argv.index("--json") + 1]
    rows = []
    with open(argv[1]) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6:
                continue
            status, problems, notes = run_case(*fields)
            rows.append({"case": fields[0], "kind": fields[1], "status": status,
                         "problems": problems, "notes": notes})
    width = max([len(r["case"]) for r in rows] + [4])
    lines = [f"{'case':<{width}}  result  details", f"{'-' * width}  ------  -------"]
    for r in rows:
        detail = "; ".join(r["problems"] + r["notes"])
        lines.append(f"{r['case']:<{width}}  {r['status']:<6}  {detail}")
    passed = sum(r["status"] == "PASS" for r in rows)
    failed = sum(r["status"] == "FAIL" for r in rows)
    lines.append(f"{passed} passed, {failed} failed, {len(rows) - passed - failed} skipped")
    text = "\n".join(lines)
    print(text)
    if table_path:
        with open(table_path, "w") as f:
            f.write(text + "\n")
    if json_path:
        with open(json_path, "w") as f:
            json.dump(rows, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
