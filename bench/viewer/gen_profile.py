#!/usr/bin/env python3
"""Synthetic Proton tree profiles for the viewer benchmark (spec viewer.md §11.5).

Shaped like real profiles: nested Python-frame/scope contexts (shared prefixes), repeated
kernel names at the leaves, count/time/device_id/device_type on every kernel, flops16 and
bytes on about a third of them, root placeholders and a device table.

  gen_profile.py --nodes N [--format json|msgpack] [--layout old|current] [--seed S] OUT
  gen_profile.py --chain DEPTH [--format json|msgpack] OUT

JSON is byte-identical to what Triton 3.6 writes ("\\n" + json.dumps(doc, indent=4,
sort_keys=True) + "\\n", formats.md §2.1), but streamed iteratively (json.dumps with an indent
is slow and recursive). MessagePack follows formats.md §3 (key orders, smallest encodings).
The chain is one path of DEPTH frames with a kernel at the end; it is written compactly
(indentation would make it quadratic in size), like tests/compat/viewer/profiles/deep_chain.
Standard library only.
"""
import argparse
import random
import struct
import sys

DEVICE = {"arch": "90", "bus_width": 6016, "clock_rate": 1980000,
          "memory_clock_rate": 3201000, "num_sms": 132}
N_DEVICES = 8


def kernel_pool(rng):
    pool = []
    for i in range(240):
        kind = rng.randrange(4)
        if kind == 0:
            pool.append("triton_poi_fused_add_mul_%d" % i)
        elif kind == 1:
            pool.append("triton_red_fused_native_layer_norm_%d" % i)
        elif kind == 2:
            pool.append("_ZN2at6native54_GLOBAL__N__d8ecb2b1_21_DistributionNormal_cu_"
                        "0c5b6e8543distribution_elementwise_grid_stride_kernel%dIfLi4E" % i)
        else:
            pool.append("nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT_%d" % i)
    return pool


def frame_pool(rng):
    pool = []
    for i in range(400):
        pool.append("/home/user/project/models/layers/module_%d.py:%d@forward_%d"
                    % (i % 37, rng.randrange(20, 900), i))
    for i in range(60):
        pool.append("scope_%d" % i)
    return pool


class Gen:
    """Decides the tree top-down: each node gets a sorted list of distinct child names."""

    def __init__(self, nodes, seed, layout):
        self.rng = random.Random(seed)
        self.kernels = kernel_pool(self.rng)
        self.frames = frame_pool(self.rng)
        self.budget = nodes - 1
        self.layout = layout
        # Depth 8 and a fanout whose 8th power is about the node count.
        self.depth = 8
        self.fanout = max(1.2, (nodes ** (1.0 / self.depth)))

    def children(self, depth):
        if self.budget <= 0 or depth >= self.depth:
            return []
        hi = max(1, int(2 * self.fanout - 1))
        k = min(self.budget, self.rng.randint(1, hi) if depth > 0 else max(2, hi))
        pool = self.kernels if depth == self.depth - 1 else self.frames
        names = self.rng.sample(pool, min(k, len(pool)))
        # Some scopes launch kernels directly, next to their sub-scopes.
        if depth < self.depth - 1 and self.rng.random() < 0.3:
            names += self.rng.sample(self.kernels, 2)
        names = sorted(set(names))[:max(1, self.budget)]
        self.budget -= len(names)
        return names

    def metrics(self, name):
        if not (name.startswith("triton") or name.startswith("_Z") or name.startswith("nvjet")):
            return {}
        rng = self.rng
        m = {"count": rng.randint(1, 50), "device_id": str(rng.randrange(N_DEVICES)),
             "device_type": "CUDA", "time (ns)": rng.randint(1000, 5000000)}
        if rng.random() < 0.33:
            m["flops16"] = float(rng.randint(1, 1 << 30) * 1024)
            m["bytes"] = rng.randint(1 << 10, 1 << 30)
        return m

    def root_metrics(self):
        if self.layout == "old":
            return {"bytes": 0, "count": 0, "flops16": 0, "time (ns)": 0}
        return {"time (ns)": 0, "count": 0}


def jstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def jval(v):
    if isinstance(v, str):
        return jstr(v)
    return repr(v) if isinstance(v, float) else str(v)


def write_json(gen, out):
    w = out.write
    w("\n[\n")
    # Stack entries: (name, indent, depth, pending children list, index, metrics)
    stack = []

    def open_node(name, indent, depth):
        kids = gen.children(depth)
        # Drawn at open time (pre-order), like the MessagePack writer, so both forms of one
        # seed hold the same tree and values.
        m = gen.root_metrics() if depth == 0 else gen.metrics(name)
        pad = " " * indent
        w(pad + "{\n")
        if kids:
            w(pad + '    "children": [\n')
        else:
            w(pad + '    "children": [],\n')
        stack.append([name, indent, depth, kids, 0, m])

    open_node("ROOT", 4, 0)
    while stack:
        top = stack[-1]
        name, indent, depth, kids, i, m = top
        if i < len(kids):
            if i > 0:
                w(",\n")
            top[4] += 1
            open_node(kids[i], indent + 8, depth + 1)
            continue
        pad = " " * indent
        if kids:
            w("\n" + pad + "    ],\n")
        w(pad + '    "frame": {\n' + pad + '        "name": ' + jstr(name) + ",\n"
          + pad + '        "type": "function"\n' + pad + "    },\n")
        if m:
            items = sorted(m.items())
            w(pad + '    "metrics": {\n'
              + ",\n".join(pad + "        " + jstr(k) + ": " + jval(v) for k, v in items)
              + "\n" + pad + "    }\n")
        else:
            w(pad + '    "metrics": {}\n')
        w(pad + "}")
        stack.pop()
    w(",\n    {\n        \"CUDA\": {\n")
    devs = []
    for d in sorted(str(i) for i in range(N_DEVICES)):
        lines = ",\n".join("                " + jstr(k) + ": " + jval(v) for k, v in sorted(DEVICE.items()))
        devs.append('            "%s": {\n%s\n            }' % (d, lines))
    w(",\n".join(devs) + "\n        }\n    }\n]\n")


# ---- MessagePack (formats.md §3.2: smallest encodings).
def mp_uint(v):
    if v <= 0x7f:
        return bytes([v])
    if v <= 0xff:
        return b"\xcc" + bytes([v])
    if v <= 0xffff:
        return b"\xcd" + struct.pack(">H", v)
    if v <= 0xffffffff:
        return b"\xce" + struct.pack(">I", v)
    return b"\xcf" + struct.pack(">Q", v)


def mp_str(s):
    b = s.encode()
    n = len(b)
    if n <= 31:
        return bytes([0xa0 | n]) + b
    if n <= 0xff:
        return b"\xd9" + bytes([n]) + b
    if n <= 0xffff:
        return b"\xda" + struct.pack(">H", n) + b
    return b"\xdb" + struct.pack(">I", n) + b


def mp_len(n, fix, c16, c32):
    if n <= 15:
        return bytes([fix | n])
    if n <= 0xffff:
        return c16 + struct.pack(">H", n)
    return c32 + struct.pack(">I", n)


def mp_val(v):
    if isinstance(v, str):
        return mp_str(v)
    if isinstance(v, float):
        return b"\xcb" + struct.pack(">d", v)
    return mp_uint(v)


def mp_map(items):
    return mp_len(len(items), 0x80, b"\xde", b"\xdf") + b"".join(mp_str(k) + mp_val(v) for k, v in items)


FIXED = ["time (ns)", "count", "device_id", "device_type"]


def metric_items(m):
    fixed = [(k, m[k]) for k in FIXED if k in m]
    return fixed + sorted((k, v) for k, v in m.items() if k not in FIXED)


def write_msgpack(gen, out):
    w = out.write
    w(b"\x92")
    stack = []

    def open_node(name, depth):
        kids = gen.children(depth)
        m = gen.root_metrics() if depth == 0 else gen.metrics(name)
        w(b"\x83" + mp_str("frame") + b"\x82" + mp_str("name") + mp_str(name) + mp_str("type")
          + mp_str("function") + mp_str("metrics") + mp_map(metric_items(m)) + mp_str("children")
          + mp_len(len(kids), 0x90, b"\xdc", b"\xdd"))
        stack.append([kids, 0, depth])

    open_node("ROOT", 0)
    while stack:
        top = stack[-1]
        if top[1] < len(top[0]):
            top[1] += 1
            open_node(top[0][top[1] - 1], top[2] + 1)
        else:
            stack.pop()
    dev = [("clock_rate", DEVICE["clock_rate"]), ("memory_clock_rate", DEVICE["memory_clock_rate"]),
           ("bus_width", DEVICE["bus_width"]), ("arch", DEVICE["arch"]), ("num_sms", DEVICE["num_sms"])]
    w(b"\x81" + mp_str("CUDA") + mp_len(N_DEVICES, 0x80, b"\xde", b"\xdf")
      + b"".join(mp_str(str(i)) + mp_map(dev) for i in range(N_DEVICES)))


def write_chain(depth, fmt, out):
    kernel = {"count": 1, "device_id": "0", "device_type": "CUDA", "time (ns)": 1000}
    if fmt == "json":
        w = out.write
        w('[{"children":[')
        for i in range(depth):
            w('{"children":[')
        w('{"children":[],"frame":{"name":"kernel","type":"function"},"metrics":{"count":1,'
          '"device_id":"0","device_type":"CUDA","time (ns)":1000}}')
        for i in range(depth - 1, -1, -1):
            w('],"frame":{"name":"f%06d","type":"function"},"metrics":{}}' % i)
        w('],"frame":{"name":"ROOT","type":"function"},"metrics":{"count":0,"time (ns)":0}},'
          '{"CUDA":{"0":{"arch":"90","bus_width":6016,"clock_rate":1980000,'
          '"memory_clock_rate":3201000,"num_sms":132}}}]\n')
        return
    w = out.write
    w(b"\x92\x83" + mp_str("frame") + b"\x82" + mp_str("name") + mp_str("ROOT") + mp_str("type")
      + mp_str("function") + mp_str("metrics") + mp_map([("time (ns)", 0), ("count", 0)])
      + mp_str("children") + b"\x91")
    for i in range(depth):
        w(b"\x83" + mp_str("frame") + b"\x82" + mp_str("name") + mp_str("f%06d" % i) + mp_str("type")
          + mp_str("function") + mp_str("metrics") + b"\x80" + mp_str("children") + b"\x91")
    w(b"\x83" + mp_str("frame") + b"\x82" + mp_str("name") + mp_str("kernel") + mp_str("type")
      + mp_str("function") + mp_str("metrics") + mp_map(metric_items(kernel)) + mp_str("children") + b"\x90")
    w(b"\x81" + mp_str("CUDA") + b"\x81" + mp_str("0") + mp_map(
        [("clock_rate", 1980000), ("memory_clock_rate", 3201000), ("bus_width", 6016),
         ("arch", "90"), ("num_sms", 132)]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--chain", type=int, default=0, help="write a chain of this depth instead")
    ap.add_argument("--format", choices=["json", "msgpack"], default="json")
    ap.add_argument("--layout", choices=["old", "current"], default="old")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.format == "json":
        out = open(a.out, "w", encoding="utf-8", newline="\n", buffering=1 << 22)
    else:
        out = open(a.out, "wb", buffering=1 << 22)
    with out:
        if a.chain:
            write_chain(a.chain, a.format, out)
        elif a.format == "json":
            write_json(Gen(a.nodes, a.seed, a.layout), out)
        else:
            write_msgpack(Gen(a.nodes, a.seed, "current"), out)


if __name__ == "__main__":
    sys.exit(main())
