"""proton.viewer's exceptions against the reference's (viewer.md §11.10): the type and message
Triton's viewer raises where it raises one deliberately, open()'s exceptions and names for
file names, and the deep documents of proton.data.get()."""

import os
import pathlib
import shutil

import pytest

import proton.viewer as viewer
from helpers import run_python
from viewer_cases import ROOT

CUDA = os.path.join(ROOT, "tests", "compat", "viewer", "profiles", "cuda.json")
PYTHON_PROFILE = os.path.join(ROOT, "tests", "refdata", "ref_python.hatchet")
NOT_FOUND = "Metric {} is not found. Use the --list flag to list available metrics"


def open_error(name):
    """The exception open() raises for ``name``."""
    with pytest.raises(Exception) as raised:
        open(name, "rb").close()
    return raised.value


def assert_raises_like_open(call, name):
    expected = open_error(name)
    with pytest.raises(type(expected)) as raised:
        call()
    assert (type(raised.value), str(raised.value)) == (type(expected), str(expected))
    if isinstance(expected, OSError):
        assert raised.value.errno == expected.errno
        assert raised.value.filename == expected.filename


# ---- metrics: RuntimeError and ValueError with the reference's messages --------------------

def test_a_missing_flops_width_is_the_references_runtime_error():
    # Triton's tutorials catch RuntimeError around show_profile.
    with pytest.raises(RuntimeError) as raised:
        viewer.parse(["tflop16/s", "time/ms"], CUDA)
    assert str(raised.value) == NOT_FOUND.format("flops16")
    assert not isinstance(raised.value, ValueError)


def test_an_unknown_metric_is_the_references_runtime_error_in_lower_case():
    with pytest.raises(RuntimeError) as raised:
        viewer.parse(["No_Such_Metric"], CUDA)
    assert str(raised.value) == NOT_FOUND.format("no_such_metric")


def test_derive_metrics_raises_the_references_runtime_error():
    gf, inclusive, exclusive, device_info = viewer.read(PYTHON_PROFILE)
    with pytest.raises(RuntimeError) as raised:
        viewer.derive_metrics(gf, ["gbyte/s"], inclusive, exclusive, device_info)
    assert str(raised.value) == NOT_FOUND.format("bytes")


def test_apply_diff_profile_raises_the_references_runtime_error():
    gf, labels = viewer.parse(["bytes"], CUDA)
    with pytest.raises(RuntimeError) as raised:
        viewer.apply_diff_profile(gf, labels, PYTHON_PROFILE, ["bytes"], None, None, None)
    assert str(raised.value) == NOT_FOUND.format("bytes")


@pytest.mark.parametrize("item,unit", [("Time/s", "s"), ("time/xx", "xx"), ("count/x/y", "x")])
def test_an_unsupported_unit_is_the_references_value_error(item, unit):
    with pytest.raises(ValueError) as raised:
        viewer.parse([item], CUDA)
    assert str(raised.value) == f"Unsupported unit {unit}"


def test_include_with_exclude_filters_twice_as_the_reference_does(capsys):
    # The command refuses -i with -e; the reference's parse and filter_frames apply both.
    gf, labels = viewer.parse(["time/ns"], CUDA, include="foo[01]", exclude="foo1")
    assert list(gf.dataframe["name"]) == ["ROOT", "foo0"]
    full, _ = viewer.parse(["time/ns"], CUDA)
    again = viewer.filter_frames(full, include="foo[01]", exclude="foo1", metric=labels[0])
    assert list(again.dataframe["name"]) == ["ROOT", "foo0"]
    with pytest.raises(ValueError, match="^--exclude 'ROOT' removes every frame in "):
        viewer.parse(["time/ns"], CUDA, include="foo1", exclude="ROOT")


# ---- file names: open()'s exceptions, open()'s names ---------------------------------------

@pytest.mark.parametrize("reader", ["parse", "read", "get_raw_metrics", "apply_diff_profile"])
def test_a_missing_file_raises_what_open_raises(reader, tmp_path):
    missing = str(tmp_path / "missing.hatchet")
    calls = {
        "parse": lambda: viewer.parse(["time"], missing),
        "read": lambda: viewer.read(missing),
        "get_raw_metrics": lambda: viewer.get_raw_metrics(missing),
        "apply_diff_profile": lambda: viewer.apply_diff_profile(
            viewer.parse(["time"], CUDA)[0], ["time (ns) (inc)"], missing, ["time"], None, None,
            None),
    }
    assert_raises_like_open(calls[reader], missing)


def test_a_directory_raises_what_open_raises(tmp_path):
    assert_raises_like_open(lambda: viewer.parse(["time"], str(tmp_path)), str(tmp_path))


def test_dash_is_a_file_name_not_standard_input(tmp_path):
    assert_raises_like_open(lambda: viewer.read("-"), "-")
    shutil.copy(CUDA, tmp_path / "-")
    os.chdir(tmp_path)
    assert viewer.read("-")[1] == viewer.read(CUDA)[1]


@pytest.mark.parametrize("reader", ["parse", "read", "apply_diff_profile"])
def test_a_name_with_nul_raises_value_error_as_open_does(reader, tmp_path):
    # a.hatchet exists: the name must not be cut at the NUL and read.
    shutil.copy(CUDA, tmp_path / "a.hatchet")
    name = str(tmp_path / "a.hatchet") + "\0b"
    calls = {
        "parse": lambda: viewer.parse(["time"], name),
        "read": lambda: viewer.read(name),
        "apply_diff_profile": lambda: viewer.apply_diff_profile(
            viewer.parse(["time"], CUDA)[0], ["time (ns) (inc)"], name, ["time"], None, None,
            None),
    }
    assert_raises_like_open(calls[reader], name)
    assert str(open_error(name)) == "embedded null byte"
    assert_raises_like_open(lambda: viewer.get_raw_metrics(pathlib.Path(name)), name)


def test_bytes_and_non_utf8_names_read_as_open_reads_them(tmp_path, capsys):
    raw = os.fsencode(str(tmp_path)) + b"/\xff.hatchet"
    shutil.copy(CUDA, raw)
    viewer.print_tree(*viewer.parse(["time/ns", "count"], CUDA))
    expected = capsys.readouterr().out
    for name in (raw, pathlib.Path(os.fsdecode(raw)), os.fsdecode(raw)):
        viewer.print_tree(*viewer.parse(["time/ns", "count"], name))
        assert capsys.readouterr().out == expected, name
    assert viewer.read(raw)[1] == viewer.read(CUDA)[1]


def test_an_error_quotes_a_non_utf8_name_as_fsdecode_does(tmp_path):
    raw = os.fsencode(str(tmp_path)) + b"/\xfe.hatchet"
    shutil.copy(CUDA, raw)
    with pytest.raises(ValueError) as raised:
        viewer.parse(["time"], raw, include="matches_nothing")
    assert str(raised.value) == f"--include 'matches_nothing' matches no frame in " \
                                f"'{os.fsdecode(raw)}'"


def test_a_name_over_name_max_raises_what_open_raises(tmp_path):
    name = str(tmp_path / ("n" * 300))
    assert_raises_like_open(lambda: viewer.parse(["time"], name), name)


def test_a_file_descriptor_is_not_a_file_name():
    with pytest.raises(TypeError, match="expected str, bytes or os.PathLike object, not int"):
        viewer.read(0)
    with pytest.raises(TypeError, match="not float"):
        viewer.parse(["time"], 1.5)


# ---- proton.data.get()'s document of any depth ---------------------------------------------

DEEP = """
import sys
import proton, proton_fake
import proton.viewer as viewer
proton_fake.register_backend()
s = proton.start("deep", backend="fake")
for _ in range(10000):
    proton.enter_scope("d")
proton_fake.launch("k", 100)
proton.deactivate(s, flushing=True)
doc = proton.data.get(s)
gf, inclusive, exclusive, device_info = viewer.get_raw_metrics(doc)
labels = viewer.derive_metrics(gf, ["time/ns"], inclusive, exclusive, device_info)
df = gf.dataframe
print(len(df), df["depth"].max(), df["name"].iloc[-1], df[labels[0]].iloc[0])
proton.finalize(s, output_format="hatchet_msgpack")
"""


def test_the_document_of_a_10000_level_tree_is_read(tmp_path):
    proc = run_python(DEEP, tmp_path, timeout=120)
    assert proc.stdout.decode().split() == ["10002", "10001", "k", "100.0"]
    # The document is written without recursion, and a container holding itself is refused
    # as json.dumps refuses it, not walked forever.
    doc = [{"frame": {"name": "ROOT", "type": "function"}, "metrics": {}, "children": []}, {}]
    doc[0]["children"].append(doc[0])
    with pytest.raises(ValueError, match="^Circular reference detected$"):
        viewer.get_raw_metrics(doc)
