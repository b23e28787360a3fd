#!/usr/bin/env python3
"""Converts a JSON tree profile to the .hatchet_msgpack layout (formats.md §3): node keys
frame, metrics, children; kernel metrics time (ns), count, device_id, device_type first,
then the others sorted; device fields in Proton's order; smallest encodings. Used to seed
the MessagePack fuzz corpus and to compare the two readers. Standard library only.

  json2msgpack.py IN.json OUT.hatchet_msgpack
"""
import json
import struct
import sys

FIXED = ["time (ns)", "count", "device_id", "device_type"]
DEVICE_ORDER = ["clock_rate", "memory_clock_rate", "bus_width", "arch", "num_sms"]


def enc(v, out):
    if v is None:
        out += b"\xc0"
    elif v is True or v is False:
        out += b"\xc3" if v else b"\xc2"
    elif isinstance(v, int):
        if 0 <= v <= 0x7f:
            out += bytes([v])
        elif -32 <= v < 0:
            out += struct.pack("b", v)
        elif v >= 0:
            for lim, code, fmt in ((0xff, 0xcc, ">B"), (0xffff, 0xcd, ">H"), (0xffffffff, 0xce, ">I")):
                if v <= lim:
                    out += bytes([code]) + struct.pack(fmt, v)
                    break
            else:
                out += b"\xcf" + struct.pack(">Q", v)
        else:
            for lim, code, fmt in ((-0x80, 0xd0, ">b"), (-0x8000, 0xd1, ">h"), (-0x80000000, 0xd2, ">i")):
                if v >= lim:
                    out += bytes([code]) + struct.pack(fmt, v)
                    break
            else:
                out += b"\xd3" + struct.pack(">q", v)
    elif isinstance(v, float):
        out += b"\xcb" + struct.pack(">d", v)
    elif isinstance(v, str):
        b = v.encode()
        n = len(b)
        out += bytes([0xa0 | n]) if n <= 31 else (b"\xd9" + bytes([n]) if n <= 0xff else
                                                  (b"\xda" + struct.pack(">H", n) if n <= 0xffff else
                                                   b"\xdb" + struct.pack(">I", n)))
        out += b
    elif isinstance(v, list):
        n = len(v)
        out += bytes([0x90 | n]) if n <= 15 else (b"\xdc" + struct.pack(">H", n) if n <= 0xffff
                                                  else b"\xdd" + struct.pack(">I", n))
        for x in v:
            enc(x, out)
    elif isinstance(v, dict):
        n = len(v)
        out += bytes([0x80 | n]) if n <= 15 else (b"\xde" + struct.pack(">H", n) if n <= 0xffff
                                                  else b"\xdf" + struct.pack(">I", n))
        for k, x in v.items():
            enc(k, out)
            enc(x, out)


def reorder(node):
    m = node.get("metrics", {})
    metrics = {k: m[k] for k in FIXED if k in m}
    metrics.update(sorted((k, v) for k, v in m.items() if k not in FIXED))
    return {"frame": node["frame"], "metrics": metrics,
            "children": [reorder(c) for c in node.get("children", [])]}


def main():
    doc = json.load(open(sys.argv[1]))
    out_doc = [reorder(doc[0])]
    if len(doc) > 1:
        out_doc.append({t: {i: {k: d[k] for k in DEVICE_ORDER if k in d} for i, d in devs.items()}
                        for t, devs in doc[1].items()})
    out = bytearray()
    enc(out_doc, out)
    open(sys.argv[2], "wb").write(out)


if __name__ == "__main__":
    main()
