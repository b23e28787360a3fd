#!/usr/bin/env python3
"""A JSON tree profile of a given size that only the general JSON readers can read.

Written like Triton 3.6 writes profiles ("\\n" + json.dumps(doc, indent=4, sort_keys=True) +
"\\n", formats.md §2.1), but every kernel carries a vector metric (`sm_cycles`, one value per
SM slice), which the fast path (src/format/json_fast_reader.cc) hands over. Above 4 GiB the
document is then read by the streaming reader (viewer.md §11.4), which is what this file is
for: bench/viewer/RESULTS.md, "JSON over 4 GiB".

  gen_huge_json.py --bytes N OUT     (e.g. --bytes 4400000000)

ROOT holds scopes named scope_<i>, each with the same 100 kernels (4-space indented, ~2.2 KB
a kernel); scopes are added until the file reaches N bytes. Standard library only; the scope
text is rendered once and its name substituted, so writing is disk-bound.
"""
import argparse
import json

KERNELS = 100
PLACEHOLDER = "@@SCOPE@@"


def scope_text():
    kernels = []
    for k in range(KERNELS):
        kernels.append({
            "children": [],
            "frame": {"name": "_ZN7cutlass6KernelINS_4gemm6kernel13GemmUniversalI%dEEEEvNT_6ParamsE_"
                              "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x256x64_%d" % (k, k),
                      "type": "function"},
            "metrics": {"bytes": 1048576 * (k + 1), "count": 1, "device_id": str(k % 8),
                        "device_type": "CUDA", "flops16": 2.5e9 * (k + 1),
                        "sm_cycles": [1000 + k + i for i in range(33)],
                        "time (ns)": 1000 + 37 * k},
        })
    scope = {"children": kernels, "frame": {"name": PLACEHOLDER, "type": "function"},
             "metrics": {}}
    text = json.dumps(scope, indent=4, sort_keys=True)
    return "\n".join("            " + line for line in text.split("\n"))


def write(out, size):
    """Writes the profile of about `size` bytes to the path `out`; returns (scopes, nodes)."""
    head = '\n[\n    {\n        "children": [\n'
    tail = ('\n        ],\n        "frame": {\n            "name": "ROOT",\n'
            '            "type": "function"\n        },\n        "metrics": {\n'
            '            "bytes": 0,\n            "count": 0,\n            "flops16": 0,\n'
            '            "time (ns)": 0\n        }\n    },\n    {\n        "CUDA": {\n'
            + ",\n".join('            "%d": {\n                "arch": "90",\n'
                         '                "bus_width": 6016,\n'
                         '                "clock_rate": 1980000,\n'
                         '                "memory_clock_rate": 3201000,\n'
                         '                "num_sms": 132\n            }' % d for d in range(8))
            + '\n        }\n    }\n]\n')
    template = scope_text()
    written = 0
    scopes = 0
    with open(out, "w", encoding="utf-8") as f:
        f.write(head)
        written += len(head)
        while written + len(tail) < size:
            chunk = ("" if scopes == 0 else ",\n") + template.replace(PLACEHOLDER,
                                                                     "scope_%d" % scopes)
            f.write(chunk)
            written += len(chunk)
            scopes += 1
        f.write(tail)
    return scopes, 1 + scopes * (KERNELS + 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bytes", type=int, required=True)
    ap.add_argument("out")
    args = ap.parse_args()
    scopes, nodes = write(args.out, args.bytes)
    print("%s: %d scopes, %d nodes" % (args.out, scopes, nodes))


if __name__ == "__main__":
    main()
