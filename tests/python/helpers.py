"""Shared helpers of the proton pytest suite: subprocess runs and profile navigation. The
MessagePack decoder (independent of the profiler's own writer) is deep_readers.msgpack_decode."""

import json
import os
import subprocess
import sys
import textwrap

from deep_readers import OrderedPairs

HERE = os.path.dirname(os.path.abspath(__file__))


def under_address_sanitizer():
    """True when this interpreter runs with ASan's runtime (the ASan tree preloads it: gcc's
    libasan or clang's libclang_rt.asan)."""
    with open("/proc/self/maps") as f:
        maps = f.read()
    return "libasan" in maps or "libclang_rt.asan" in maps


def run_python(code, cwd, env=None, args=(), check=True, timeout=120):
    """Runs ``code`` (dedented) as a script file in ``cwd`` with this interpreter."""
    script = os.path.join(str(cwd), "script.py")
    with open(script, "w") as f:
        f.write(textwrap.dedent(code))
    full_env = dict(os.environ)
    for key in ("PROTON_DISABLE", "TRITON_PROTON_DISABLE"):
        full_env.pop(key, None)
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, script, *args], cwd=str(cwd), env=full_env,
                          capture_output=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"script failed ({proc.returncode})\nstdout:\n{proc.stdout.decode(errors='replace')}"
            f"\nstderr:\n{proc.stderr.decode(errors='replace')}")
    return proc


def load(path):
    with open(path) as f:
        return json.load(f)


def child(node, name):
    """The child of ``node`` named ``name`` (AssertionError listing the names if absent)."""
    names = [c["frame"]["name"] for c in node["children"]]
    for c in node["children"]:
        if c["frame"]["name"] == name:
            return c
    raise AssertionError(f"no child {name!r} among {names}")


def node_at(doc_or_root, *path):
    node = doc_or_root[0] if isinstance(doc_or_root, list) else doc_or_root
    assert node["frame"]["name"] == "ROOT"
    for name in path:
        node = child(node, name)
    return node


def child_names(node):
    return [c["frame"]["name"] for c in node["children"]]


def kernels(doc):
    """{"a/b/kernel": (count, time ns)} for every node of ``[root, devices]`` with a kernel
    count (iterative)."""
    out = {}
    stack = [(doc[0], ())]
    while stack:
        node, path = stack.pop()
        for c in node["children"]:
            p = path + (c["frame"]["name"],)
            if c["metrics"].get("count"):
                out["/".join(p)] = (c["metrics"]["count"], c["metrics"]["time (ns)"])
            stack.append((c, p))
    return out


def all_paths(root):
    """Every root-to-node path (without ROOT) in pre-order, iteratively."""
    out = []
    stack = [(root, ())]
    while stack:
        node, path = stack.pop()
        if path:
            out.append(path)
        for c in reversed(node["children"]):
            stack.append((c, path + (c["frame"]["name"],)))
    return out


# ---- MessagePack decoding: one decoder, in deep_readers (any depth) ---------------------------

def plain(value):
    """OrderedPairs → dict, recursively (iterative over nodes is not needed: tests are small)."""
    if isinstance(value, OrderedPairs):
        return {k: plain(v) for k, v in value}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
