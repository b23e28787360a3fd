"""``json.dumps`` without recursion, for ``proton.viewer.get_raw_metrics(proton.data.get())``
(viewer.md §11.10): the json module recurses once per level and raises RecursionError from
about 1,000 levels, while the profiler records trees of any depth."""

from __future__ import annotations

import json
from typing import Any, List

_END = object()


def _key(key: Any) -> str:
    # The key conversions of json.dumps.
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return json.dumps(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def dumps(document: Any) -> str:
    """The text ``json.dumps(document)`` gives (default arguments), for any depth. Lists,
    tuples and dicts are walked with an explicit stack; every other value is json.dumps's.
    A container that holds itself raises ValueError("Circular reference detected") as
    json.dumps does."""
    try:
        return json.dumps(document)  # the C encoder, several times faster, while it suffices
    except RecursionError:
        pass
    out: List[str] = []
    stack: list = []  # [iterator, is_dict, first item still to come, container]
    open_ids: set = set()

    def begin(value: Any) -> None:
        is_dict = isinstance(value, dict)
        if not is_dict and not isinstance(value, (list, tuple)):
            out.append(json.dumps(value))
            return
        if id(value) in open_ids:
            raise ValueError("Circular reference detected")
        open_ids.add(id(value))
        out.append("{" if is_dict else "[")
        stack.append([iter(value.items()) if is_dict else iter(value), is_dict, True, value])

    begin(document)
    while stack:
        top = stack[-1]
        item = next(top[0], _END)
        if item is _END:
            out.append("}" if top[1] else "]")
            open_ids.discard(id(top[3]))
            stack.pop()
            continue
        if not top[2]:
            out.append(", ")
        top[2] = False
        if top[1]:
            out.append(json.dumps(_key(item[0])) + ": ")
            begin(item[1])
        else:
            begin(item)
    return "".join(out)
