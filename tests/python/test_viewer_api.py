"""proton.viewer's Python API (viewer.md §11.10) against the proton-viewer command: the same
output byte for byte, the same values and the same error lines, on every bundled profile."""

import contextlib
import io
import math
import os
import pty
import subprocess
import tty

import pytest

import proton.viewer as viewer
from viewer_cases import (ROOT, api_error, assert_same_as_command, bundled_profiles, command,
                          export_rows, first_child_pattern, metric_lists, viewer_executable)

PROFILES = bundled_profiles()
IDS = [os.path.relpath(p, ROOT) for p in PROFILES]
COMPAT = os.path.join(ROOT, "tests", "compat", "viewer", "profiles")


def parse_and_print(metrics, path, include=None, exclude=None, threshold=None, **print_args):
    def call():
        gf, labels = viewer.parse(metrics, path, include, exclude, threshold)
        viewer.print_tree(gf, labels, **print_args)
    return call


@pytest.mark.parametrize("path", PROFILES, ids=IDS)
def test_parse_and_print_tree_match_the_command(path):
    for metrics in metric_lists(path):
        assert_same_as_command(["-m", ",".join(metrics), path], parse_and_print(metrics, path))


@pytest.mark.parametrize("path", PROFILES, ids=IDS)
def test_print_options_match_the_command(path):
    cases = [(["-d", "1"], {"depth": 1}), (["-d", "0"], {"depth": 0}),
             (["--print-sorted"], {"print_sorted": True})]
    cases += [(["-f", f], {"format": f})
              for f in ("full", "file_function_line", "function_line", "file_function")]
    for args, print_args in cases:
        assert_same_as_command(["-m", "time/us,count"] + args + [path],
                               parse_and_print(["time/us", "count"], path, **print_args))


@pytest.mark.parametrize("path", PROFILES, ids=IDS)
def test_filters_match_the_command(path):
    try:
        pattern = first_child_pattern(path)
    except (OSError, RuntimeError):
        pattern = "x"  # an unreadable profile: both must report the same error
    cases = [(["-t", "1000"], {"threshold": 1000}), (["-t", "0.5"], {"threshold": 0.5}),
             (["-i", "nothing_matches_this"], {"include": "nothing_matches_this"})]
    if pattern is not None:
        cases += [(["-i", pattern], {"include": pattern}), (["-e", pattern], {"exclude": pattern}),
                  (["-e", pattern, "-t", "1"], {"exclude": pattern, "threshold": 1})]
    for args, filters in cases:
        assert_same_as_command(["-m", "time/ns,count"] + args + ["--print-sorted", path],
                               parse_and_print(["time/ns", "count"], path, print_sorted=True,
                                               **filters))


def same_value(exported, value):
    if exported is None:
        return math.isnan(value)
    return exported == value


@pytest.mark.parametrize("path", PROFILES, ids=IDS)
def test_values_equal_the_commands(path, tmp_path):
    if not command(["-m", "count", path])[0] == 0:
        pytest.skip("the command cannot read this profile (its error is compared elsewhere)")
    for metrics in metric_lists(path):
        if command(["-m", ",".join(metrics), path])[0] != 0:
            continue
        rows = export_rows(["-m", ",".join(metrics), path], tmp_path)
        gf, inclusive, exclusive, device_info = viewer.get_raw_metrics(path)
        labels = viewer.derive_metrics(gf, metrics, inclusive, exclusive, device_info)
        df = gf.dataframe
        assert len(df) == len(rows)
        assert [list(p) for p in df["path"]] == [row["path"] for row in rows]
        assert list(df["depth"]) == [row["depth"] for row in rows]
        for item, label in zip(metrics, labels):
            values = list(df[label])
            assert all(same_value(row[item], v) for row, v in zip(rows, values)), (path, item)


def test_dataframe_columns_and_reference_values():
    gf, inclusive, exclusive, device_info = viewer.read(os.path.join(COMPAT, "cuda.json"))
    assert inclusive == ["count", "time (ns)", "flops8", "bytes"]
    assert exclusive == ["name", "device_id", "device_type"]
    labels = viewer.derive_metrics(gf, ["time/ns", "avg_time/ns", "util"], inclusive, exclusive,
                                   device_info)
    assert labels == ["time/ns (inc)", "avg_time/ns (inc)", "util"]
    df = gf.dataframe
    assert df.shape == (4, 16)
    assert list(df.columns) == [
        "name", "depth", "path", "count", "count (inc)", "time (ns)", "time (ns) (inc)",
        "flops8", "flops8 (inc)", "bytes", "bytes (inc)", "device_id", "device_type",
        "time/ns (inc)", "avg_time/ns (inc)", "util"]
    assert list(df["name"]) == ["ROOT", "foo0", "foo1", "foo2"]
    assert list(df["path"]) == [("ROOT",), ("ROOT", "foo0"), ("ROOT", "foo1"), ("ROOT", "foo2")]
    assert list(df["time/ns (inc)"]) == [614400, 204800, 204800, 204800]
    assert list(df["avg_time/ns (inc)"]) == [51200, 20480, 204800, 204800]
    assert list(df["count (inc)"]) == [12, 10, 1, 1]
    assert list(df["device_id"]) == [None, "1", "0", "2"]
    util = list(df["util"])
    assert math.isnan(util[0]) and [round(u, 6) for u in util[1:]] == [0.247044, 0.14783, 0.118451]
    assert set(device_info["CUDA"]) == {"0", "1", "2"}


def test_min_time_helpers_give_util():
    gf, inclusive, exclusive, device_info = viewer.read(os.path.join(COMPAT, "cuda.json"))
    viewer.derive_metrics(gf, ["util", "time/s"], inclusive, exclusive, device_info)
    df = gf.dataframe
    flops = viewer.get_min_time_flops(df, device_info)["min_time"]
    moved = viewer.get_min_time_bytes(df, device_info)["min_time"]
    expected = flops.combine(moved, max) / df["time/s (inc)"]
    for row in range(1, len(df)):
        assert df["util"][row] == pytest.approx(expected[row], rel=1e-12)
    assert flops[0] == 0 and moved[0] == 0  # ROOT is on no device


def test_filter_frames_and_format_frames_are_steps_of_parse():
    path = os.path.join(ROOT, "tests", "refdata", "ref_python.hatchet")
    gf, inclusive, exclusive, device_info = viewer.read(path)
    labels = viewer.derive_metrics(gf, ["time/ns"], inclusive, exclusive, device_info)
    rows_before = len(gf.dataframe)
    filtered = viewer.filter_frames(gf, threshold=1000, metric=labels[0])
    assert len(gf.dataframe) == rows_before  # the input is left as it was
    assert viewer.format_frames(filtered, "function_line") is filtered
    assert_same_as_command(["-m", "time/ns", "-t", "1000", "-f", "function_line", path],
                           lambda: viewer.print_tree(filtered, labels))
    assert viewer.filter_frames(gf) is gf
    with pytest.raises(ValueError, match="needs the metric"):
        viewer.filter_frames(gf, threshold=5)


DIFF_PAIRS = [("tests/refdata/ref_sessions_0.hatchet", "tests/refdata/ref_sessions_1.hatchet"),
              ("tests/refdata/gpt2_shadow.hatchet", "tests/refdata/ref_shadow.hatchet"),
              ("tests/compat/viewer/profiles/cuda.json", "tests/compat/viewer/profiles/hip.json")]


@pytest.mark.parametrize("left,right", DIFF_PAIRS)
def test_apply_diff_profile_matches_the_command(left, right):
    left, right = os.path.join(ROOT, left), os.path.join(ROOT, right)
    for metrics in (["time/us"], ["time/ns", "count"]):
        def call():
            gf, labels = viewer.parse(metrics, left)
            diff = viewer.apply_diff_profile(gf, labels, right, metrics, None, None, None)
            viewer.print_tree(diff, labels, print_sorted=True)
        assert_same_as_command(["-m", ",".join(metrics), "--diff-profile", right,
                                "--print-sorted", left], call)


@pytest.mark.parametrize("call,error_type,args", [
    (lambda: viewer.parse(["time"], "/nonexistent/x.hatchet"), FileNotFoundError,
     ["-m", "time", "/nonexistent/x.hatchet"]),
    (lambda: viewer.parse(["time"], os.path.join(COMPAT, "truncated.hatchet")), RuntimeError,
     ["-m", "time", os.path.join(COMPAT, "truncated.hatchet")]),
    (lambda: viewer.parse(["no_such_metric"], os.path.join(COMPAT, "cuda.json")), RuntimeError,
     ["-m", "no_such_metric", os.path.join(COMPAT, "cuda.json")]),
    (lambda: viewer.parse(["time"], os.path.join(COMPAT, "cuda.json"), threshold=float("inf")),
     ValueError, ["-m", "time", "-t", "inf", os.path.join(COMPAT, "cuda.json")]),
    (lambda: viewer.parse(["time"], os.path.join(COMPAT, "cuda.json"), include="("),
     ValueError, ["-m", "time", "-i", "(", os.path.join(COMPAT, "cuda.json")]),
    (lambda: viewer.parse(["time", ""], os.path.join(COMPAT, "cuda.json")), ValueError,
     ["-m", "time,", os.path.join(COMPAT, "cuda.json")]),
])
def test_errors_raise_the_commands_line(call, error_type, args):
    with pytest.raises(error_type) as raised:
        call()
    status, _, error_line = command(args)
    assert status != 0
    expected_type, message = api_error(error_line)
    assert issubclass(error_type, expected_type)
    assert str(raised.value) == message


def test_bad_values_raise_clear_errors():
    path = os.path.join(COMPAT, "cuda.json")
    gf, labels = viewer.parse(["time/ns"], path)
    with pytest.raises(ValueError, match="invalid choice: 'tree'"):
        viewer.print_tree(gf, labels, format="tree")
    with pytest.raises(ValueError, match="'time/s \\(inc\\)' is not a column"):
        viewer.print_tree(gf, ["time/s (inc)"])
    with pytest.raises(TypeError, match="expected a file name"):
        viewer.get_raw_metrics(42)
    with pytest.raises(ValueError, match="no metric"):
        viewer.parse([], path)


def test_colour_on_a_terminal_matches_the_command(tmp_path):
    # The command colours when its standard output is a terminal; print_tree when sys.stdout is.
    path = os.path.join(COMPAT, "cuda.json")
    master, slave = pty.openpty()
    tty.setraw(slave)  # no "\n" -> "\r\n" translation
    proc = subprocess.Popen([viewer_executable(), "-m", "time/us,count", path], stdout=slave)
    os.close(slave)
    expected = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO once the child closed its end
            break
        if not chunk:
            break
        expected += chunk
    os.close(master)
    assert proc.wait() == 0
    assert b"\x1b[" in expected

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    out = Terminal()
    gf, labels = viewer.parse(["time/us", "count"], path)
    with contextlib.redirect_stdout(out):
        viewer.print_tree(gf, labels)
    assert out.getvalue().encode() == expected


def test_difference_dataframe_equals_the_commands_export(tmp_path):
    left, right = (os.path.join(ROOT, p) for p in DIFF_PAIRS[0])
    gf, labels = viewer.parse(["time/us", "count"], left)
    diff = viewer.apply_diff_profile(gf, labels, right, ["time/us", "count"], None, None, None)
    rows = export_rows(["-m", "time/us,count", "--diff-profile", right, left], tmp_path)
    df = diff.dataframe
    assert list(df.columns) == ["name", "depth", "path"] + labels
    assert [list(p) for p in df["path"]] == [row["path"] for row in rows]
    for item, label in zip(["time/us", "count"], labels):
        assert all(same_value(row[item], v) for row, v in zip(rows, df[label])), item
    with pytest.raises(ValueError, match="not supported on the difference"):
        viewer.derive_metrics(diff, ["count"])
    with pytest.raises(ValueError, match="not supported on the difference"):
        viewer.filter_frames(diff, include="x")
