"""Synthetic Proton profiles with known answers for the report tests (viewer.md §11.14-§11.16).

profile({"step/matmul": 3e6, "step/add": 1e6}) is a .hatchet document whose kernels are the
leaves of the given paths, each with that time in ns (count 1); scopes are the inner frames.
write_part(folder, "run.rank3", 7, kernels) writes run.rank3.part_7.hatchet atomically (a
hidden temporary renamed into place, as the profiler does)."""

import json
import os


def profile(kernels):
    root = {"children": {}, "name": "ROOT"}
    for path, ns in kernels.items():
        node = root
        for name in path.split("/"):
            node = node["children"].setdefault(name, {"children": {}, "name": name})
        node["time"] = node.get("time", 0) + int(ns)

    def encode(node):
        children = [encode(c) for _, c in sorted(node["children"].items())]
        metrics = {"count": 1, "device_id": "0", "device_type": "CUDA",
                   "time (ns)": node["time"]} if "time" in node else {}
        return {"children": children, "frame": {"name": node["name"], "type": "function"},
                "metrics": metrics}

    tree = encode(root)
    tree["metrics"] = {"count": 0, "time (ns)": 0}
    devices = {"CUDA": {"0": {"arch": "90", "bus_width": 6016, "clock_rate": 1980000,
                              "memory_clock_rate": 3201000, "num_sms": 132}}}
    return [tree, devices]


def write_atomic(path, text):
    folder, name = os.path.split(path)
    temp = os.path.join(folder, "." + name + ".tmp")
    with open(temp, "w") as f:
        f.write(text)
    os.rename(temp, path)


def write_profile(path, kernels):
    write_atomic(path, json.dumps(profile(kernels)))


def write_part(folder, prefix, phase, kernels, fmt="hatchet"):
    path = os.path.join(str(folder), f"{prefix}.part_{phase}.{fmt}")
    write_profile(path, kernels)
    return path


def write_end(folder, prefix, parts):
    write_atomic(os.path.join(str(folder), prefix + ".done"), '{"parts":%d}\n' % parts)
