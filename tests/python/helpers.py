"""Shared helpers of the proton pytest suite: subprocess runs, profile navigation and a tiny
MessagePack decoder (independent of the profiler's own writer)."""

import json
import os
import struct
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))


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


# ---- MessagePack decoding (the subset plus the common types) ------------------------------

class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("truncated MessagePack")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def unpack(self, fmt):
        return struct.unpack(">" + fmt, self.take(struct.calcsize(">" + fmt)))[0]


def _decode(r):
    b = r.take(1)[0]
    if b <= 0x7F:
        return b
    if b >= 0xE0:
        return b - 0x100
    if 0x80 <= b <= 0x8F:
        return _map(r, b & 0x0F)
    if 0x90 <= b <= 0x9F:
        return [_decode(r) for _ in range(b & 0x0F)]
    if 0xA0 <= b <= 0xBF:
        return r.take(b & 0x1F).decode("utf-8")
    simple = {0xC0: None, 0xC2: False, 0xC3: True}
    if b in simple:
        return simple[b]
    ints = {0xCC: "B", 0xCD: "H", 0xCE: "I", 0xCF: "Q", 0xD0: "b", 0xD1: "h", 0xD2: "i",
            0xD3: "q", 0xCA: "f", 0xCB: "d"}
    if b in ints:
        return r.unpack(ints[b])
    strs = {0xD9: "B", 0xDA: "H", 0xDB: "I"}
    if b in strs:
        return r.take(r.unpack(strs[b])).decode("utf-8")
    bins = {0xC4: "B", 0xC5: "H", 0xC6: "I"}
    if b in bins:
        return bytes(r.take(r.unpack(bins[b])))
    if b in (0xDC, 0xDD):
        n = r.unpack("H" if b == 0xDC else "I")
        return [_decode(r) for _ in range(n)]
    if b in (0xDE, 0xDF):
        return _map(r, r.unpack("H" if b == 0xDE else "I"))
    raise ValueError(f"unsupported MessagePack byte 0x{b:02x}")


class OrderedPairs(list):
    """A decoded map: keeps the key order of the encoding (a list of pairs) and converts."""

    def to_dict(self):
        return {k: v for k, v in self}


def _map(r, n):
    return OrderedPairs((_decode(r), _decode(r)) for _ in range(n))


def msgpack_decode(data):
    """Decodes one MessagePack value that must span all of ``data``; maps are OrderedPairs."""
    r = _Reader(data)
    value = _decode(r)
    if r.pos != len(data):
        raise ValueError(f"{len(data) - r.pos} trailing bytes")
    return value


def plain(value):
    """OrderedPairs → dict, recursively (iterative over nodes is not needed: tests are small)."""
    if isinstance(value, OrderedPairs):
        return {k: plain(v) for k, v in value}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
