"""proton.data.get() (profiler.md §1.7): the document as Python objects for any depth the
profiler records, equal to json.loads of the same data written as a .hatchet file."""

import json

import proton
import proton_fake

proton_fake.register_backend()

# Names and values that exercise every part of the JSON text: escapes, control characters,
# characters outside the BMP, numbers of each kind.
TRICKY = ['q"uote', "back\\slash", "ctl\x01\x1f\t\n\r\b\f", "é漢😀", "/slash/", " spaced "]
METRICS = {"i": 7, "neg": -3, "big": 2**62, "f": 0.1, "tiny": 5e-324, "huge": 1.5e300,
           "nan": float("nan")}


def record(name, depth):
    session = proton.start(name, backend="fake")
    for text in TRICKY:
        proton.enter_scope(text, metrics=METRICS)
        proton_fake.launch("kernel_" + text, 10)
    for _ in range(depth):
        proton.enter_scope("d")
    proton_fake.launch("deepest", 100)
    for _ in range(depth + len(TRICKY)):
        proton.exit_scope()
    proton.deactivate(session, flushing=True)
    return session


def test_get_equals_json_loads_of_the_file_and_returns_10000_levels(tmp_path):
    # A shallow tree: the document json.loads reads from the .hatchet file of the same data.
    shallow = record(str(tmp_path / "shallow"), 20)
    doc = proton.data.get(shallow)
    proton.finalize(shallow)
    with open(tmp_path / "shallow.hatchet", encoding="utf-8") as f:
        assert _dump(doc) == _dump(json.load(f))  # NaN != NaN: compare as text
    node = doc[0]
    for text in TRICKY:
        node = next(c for c in node["children"] if c["frame"]["name"] == text)
        metrics = dict(node["metrics"])
        assert metrics.pop("nan") is None  # not finite: written as null (formats.md §2)
        assert metrics == {k: v for k, v in METRICS.items() if k != "nan"}
        assert type(metrics["i"]) is int and type(metrics["f"]) is float
    # 10,000 levels: json.loads raised RecursionError from about 500.
    deep = record(str(tmp_path / "deep"), 10000)
    node, depth = proton.data.get(deep)[0], 0
    while node["children"]:
        node = next(c for c in node["children"] if not c["frame"]["name"].startswith("kernel_"))
        depth += 1
    assert (depth, node["frame"]["name"], node["metrics"]["time (ns)"]) == \
        (len(TRICKY) + 10000 + 1, "deepest", 100)
    proton.finalize(deep, output_format="hatchet_msgpack")  # the .hatchet would be 2 GB


def _dump(value):
    """json.dumps without recursion (NaN written as NaN), for comparing deep documents."""
    out, stack = [], [(False, value)]
    while stack:
        raw, item = stack.pop()
        if raw:
            out.append(item)
            continue
        if isinstance(item, (dict, list)):
            is_dict = isinstance(item, dict)
            parts = [(True, "{" if is_dict else "[")]
            for key in item:
                if is_dict:
                    parts += [(True, json.dumps(key) + ":"), (False, item[key]), (True, ",")]
                else:
                    parts += [(False, key), (True, ",")]
            parts.append((True, "}" if is_dict else "]"))
            stack.extend(reversed(parts))
        else:
            out.append(json.dumps(item))
    return "".join(out)
