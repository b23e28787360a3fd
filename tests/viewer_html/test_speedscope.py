"""--speedscope (viewer.md §11.12): files valid against speedscope's own schema, with the
fields it requires, and weights that add up to the printed tree's values (with --merge: the
summed tree's, or the first column's medians)."""
import json
import math
from pathlib import Path

import jsonschema
import pytest

from report_helpers import REFDATA, printed_merge_tree, printed_tree, run_viewer, write_rank_files

SCHEMA = "https://www.speedscope.app/file-format-schema.json"
SCHEMA_FILE = Path(__file__).with_name("speedscope") / "file-format-schema.json"


def speedscope(tmp_path, *args):
    out = tmp_path / "profile.speedscope.json"
    printed = run_viewer(*args, "--speedscope", out)
    return json.loads(out.read_text()), printed_tree(printed.stdout)


def check_schema(doc):
    jsonschema.validate(doc, json.loads(SCHEMA_FILE.read_text()))
    # Required by the schema: $schema, shared.frames[].name, and per sampled profile type,
    # name, unit, startValue, endValue, samples, weights.
    assert doc["$schema"] == SCHEMA
    frames = doc["shared"]["frames"]
    assert all(isinstance(f["name"], str) for f in frames)
    assert len({f["name"] for f in frames}) == len(frames)
    (profile,) = doc["profiles"]
    assert profile["type"] == "sampled"
    assert isinstance(profile["name"], str)
    assert profile["unit"] in {"none", "nanoseconds", "microseconds", "milliseconds",
                               "seconds", "bytes"}
    assert len(profile["samples"]) == len(profile["weights"])
    for stack in profile["samples"]:
        assert all(0 <= f < len(frames) for f in stack)
    assert all(w > 0 for w in profile["weights"])
    assert profile["startValue"] == 0
    assert math.isclose(profile["endValue"], sum(profile["weights"]), rel_tol=1e-12)
    return frames, profile


@pytest.mark.parametrize("profile,metric,unit", [
    ("gpt2_shadow.hatchet", "time/us", "microseconds"),
    ("ref_python.hatchet", "time/ms", "milliseconds"),
    ("ref_hook.hatchet", "time", "nanoseconds"),
])
def test_weights_add_up_to_the_tree(tmp_path, profile, metric, unit):
    doc, tree = speedscope(tmp_path, "-m", metric, REFDATA / profile)
    frames, p = check_schema(doc)
    assert p["unit"] == unit
    # Every frame's subtree total, summed from the samples, is the printed value (%.3f; a
    # missing value, nan, weighs nothing).
    totals = {}
    for stack, weight in zip(p["samples"], p["weights"]):
        path = tuple(frames[f]["name"] for f in stack)
        for d in range(1, len(path) + 1):
            totals[path[:d]] = totals.get(path[:d], 0) + weight
    for row in tree:
        expected = 0 if math.isnan(row["value"]) else row["value"]
        assert totals.get(row["path"], 0) == pytest.approx(expected, abs=6e-4), row
    assert p["endValue"] == pytest.approx(tree[0]["value"], abs=6e-4)


@pytest.mark.parametrize("mode", ["sum", "stats"])
def test_merge_weights_are_the_printed_tree(tmp_path, mode):
    ranks = write_rank_files(tmp_path)
    out = tmp_path / "merge.speedscope.json"
    stdout = run_viewer("-m", "time/us", f"--merge={mode}", "--speedscope", out, *ranks).stdout
    tree = printed_merge_tree(stdout) if mode == "stats" else printed_tree(stdout)
    doc = json.loads(out.read_text())
    frames, p = check_schema(doc)
    assert doc["name"] == "<merge of 4 files>"
    assert p["unit"] == "microseconds"
    assert p["name"] == "time/us (inc)" + (":median" if mode == "stats" else "")
    # Each sample is one printed frame, weighing its value (the median with stats) less its
    # children's, never below 0.
    own = {row["path"]: row["value"] for row in tree}
    for row in tree:
        if len(row["path"]) > 1:
            own[row["path"][:-1]] -= row["value"]
    weights = {tuple(frames[f]["name"] for f in stack): w
               for stack, w in zip(p["samples"], p["weights"])}
    assert len(tree) == 7 and len(weights) == len(p["samples"])
    for path, weight in own.items():
        assert weights.get(path, 0) == pytest.approx(max(weight, 0), abs=2e-3), path
    if mode == "sum":
        assert p["endValue"] == pytest.approx(tree[0]["value"], abs=6e-4)
    else:  # the rank files make bwd's children's medians exceed its own
        assert own[("ROOT", "bwd")] < 0


def test_depth_and_filters_shape_the_samples(tmp_path):
    doc, tree = speedscope(tmp_path, "-m", "time/us", "-d", "2", "-e", "matmul",
                           REFDATA / "ref_shadow.hatchet")
    frames, p = check_schema(doc)
    assert max(len(s) for s in p["samples"]) == 2
    assert not any("matmul" in f["name"] for f in frames)
    assert p["endValue"] == pytest.approx(tree[0]["value"], abs=6e-4)


def test_the_schema_check_can_fail():
    doc = {"$schema": SCHEMA, "shared": {"frames": [{"name": "ROOT"}]},
           "profiles": [{"type": "sampled", "name": "x", "unit": "parsecs", "startValue": 0,
                         "endValue": 1, "samples": [[0]], "weights": [1]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, json.loads(SCHEMA_FILE.read_text()))
