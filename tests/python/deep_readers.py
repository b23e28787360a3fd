"""Readers for profiles too deep for Python's recursive json/MessagePack decoders: the indented
.hatchet is streamed line by line (its size is quadratic in depth), then both formats are
decoded with an explicit stack. Shared by tests/python and tests/launcher; the one MessagePack
decoder of the tests (helpers.py re-exports it)."""

import json
import re
import struct

_TOKEN = re.compile(r'[\[\]{}:,]|"(?:[^"\\]|\\.)*"|[^\[\]{}:,"\s]+')


def _compact_json_file(path):
    # Indentation only ever starts a line, and a JSON string cannot hold a raw newline.
    with open(path) as f:
        return "".join(line.strip(" \n") for line in f)


def _parse_json(text):
    root, stack, key = [], [], None  # stack: open containers; key: pending object key
    expect_key = False

    def add(value):
        nonlocal key
        if not stack:
            root.append(value)
        elif isinstance(stack[-1], dict):
            stack[-1][key] = value
            key = None
        else:
            stack[-1].append(value)

    for token in _TOKEN.findall(text):
        if token in "{[":
            container = {} if token == "{" else []
            add(container)
            stack.append(container)
            expect_key = token == "{"
        elif token in "}]":
            opened = stack.pop()
            if isinstance(opened, dict) != (token == "}"):
                raise ValueError("mismatched bracket")
            expect_key = False
        elif token == ",":
            expect_key = bool(stack) and isinstance(stack[-1], dict)
        elif token == ":":
            if key is None:
                raise ValueError("':' without a key")
        elif expect_key:
            key = json.loads(token)
            expect_key = False
        else:
            add(json.loads(token))
    if stack or len(root) != 1:
        raise ValueError("truncated or trailing JSON")
    return root[0]


def load_hatchet(path):
    """The [root, devices] document of a .hatchet file of any depth."""
    return _parse_json(_compact_json_file(path))


class OrderedPairs(list):
    """A decoded map: keeps the key order of the encoding (a list of pairs) and converts."""

    def to_dict(self):
        return {k: v for k, v in self}


_MAP = object()  # header marker: the container type depends on ``ordered``


def _msgpack_scalar_or_header(b, take, unpack):
    """(value, None) for a scalar; (empty container, count) for an array or map header."""
    if b <= 0x7F:
        return b, None
    if b >= 0xE0:
        return b - 0x100, None
    if 0x80 <= b <= 0x8F or b in (0xDE, 0xDF):
        return _MAP, b & 0x0F if b <= 0x8F else unpack("H" if b == 0xDE else "I")
    if 0x90 <= b <= 0x9F or b in (0xDC, 0xDD):
        return [], b & 0x0F if b <= 0x9F else unpack("H" if b == 0xDC else "I")
    if 0xA0 <= b <= 0xBF:
        return take(b & 0x1F).decode("utf-8"), None
    strs = {0xD9: "B", 0xDA: "H", 0xDB: "I"}
    if b in strs:
        return take(unpack(strs[b])).decode("utf-8"), None
    bins = {0xC4: "B", 0xC5: "H", 0xC6: "I"}
    if b in bins:
        return bytes(take(unpack(bins[b]))), None
    nums = {0xCC: "B", 0xCD: "H", 0xCE: "I", 0xCF: "Q", 0xD0: "b", 0xD1: "h", 0xD2: "i",
            0xD3: "q", 0xCA: "f", 0xCB: "d"}
    if b in nums:
        return unpack(nums[b]), None
    simple = {0xC0: None, 0xC2: False, 0xC3: True}
    if b in simple:
        return simple[b], None
    raise ValueError(f"unsupported MessagePack byte 0x{b:02x}")


def msgpack_decode(data, ordered=True):
    """Decodes one MessagePack value that must span all of ``data``, of any depth (an explicit
    stack, no recursion). Maps become OrderedPairs, or dicts with ``ordered=False``."""
    pos = 0

    def take(n):
        nonlocal pos
        if pos + n > len(data):
            raise ValueError("truncated MessagePack")
        pos += n
        return data[pos - n:pos]

    def unpack(fmt):
        return struct.unpack(">" + fmt, take(struct.calcsize(">" + fmt)))[0]

    # Each frame: [container, items left, pending key]; a map of n pairs holds 2n items, and
    # an item at an even count left is a key.
    result, stack = [], []

    def attach(value):
        if not stack:
            result.append(value)
            return
        frame = stack[-1]
        if isinstance(frame[0], list) and not isinstance(frame[0], OrderedPairs):
            frame[0].append(value)
        elif frame[1] % 2 == 0:
            frame[2] = value
        elif isinstance(frame[0], dict):
            frame[0][frame[2]] = value
        else:
            frame[0].append((frame[2], value))
        frame[1] -= 1

    while True:
        value, count = _msgpack_scalar_or_header(take(1)[0], take, unpack)
        is_map = value is _MAP
        if is_map:
            value = OrderedPairs() if ordered else {}
        attach(value)
        if count:
            stack.append([value, count * 2 if is_map else count, None])
            continue
        while stack and stack[-1][1] == 0:
            stack.pop()
        if not stack:
            break
    if pos != len(data):
        raise ValueError(f"{len(data) - pos} trailing bytes")
    return result[0]


def load_msgpack(path):
    """The document of a .hatchet_msgpack file of any depth (maps become dicts)."""
    with open(path, "rb") as f:
        return msgpack_decode(f.read(), ordered=False)


def chain(doc):
    """Walks a single-child chain from ROOT: (depth, names seen, the deepest node)."""
    node, depth, names = doc[0], 0, set()
    while node["children"]:
        if len(node["children"]) != 1:
            raise AssertionError("not a chain")
        node = node["children"][0]
        depth += 1
        names.add(node["frame"]["name"])
    return depth, names, node
