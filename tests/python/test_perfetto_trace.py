"""Trace sessions written as Perfetto protobuf traces (formats.md §7; profiler.md §1.2) through
the core's fake backend: finalize(output_format="perfetto_trace") writes
<name>.perfetto_trace holding the kernels, scopes, launches and absolute times of the
.chrome_trace of the same run, on valid tracks; tree data refuses the format; periodic
flushing writes self-contained perfetto parts. Files are decoded by perfetto_reader.py."""

import json
import os
import time

import pytest

import proton
import proton_fake
from helpers import run_python
from perfetto_reader import INSTANT, SLICE_BEGIN, call_stack, check_tracks, read_trace
from test_phases import parts, wait_file

proton_fake.register_backend()
launch = proton_fake.launch
flush = proton_fake.flush


def read(path):
    with open(path, "rb") as f:
        trace = read_trace(f.read())
    check_tracks(trace)
    return trace


def begins(trace, category):
    return [e for e in trace["events"]
            if e["type"] == SLICE_BEGIN and e["categories"] == [category]]


def test_finalize_writes_the_chrome_traces_content_as_perfetto(tmp_path):
    # Two sessions record the same run: one is written as Perfetto, the other as JSON.
    proc = run_python("""
        import os, sys, threading
        sys.path.insert(0, ".")
        import proton, proton_fake
        proton_fake.register_backend()
        launch = proton_fake.launch
        pf = proton.start("pf", data="trace", backend="fake")
        js = proton.start("js", data="trace", backend="fake")
        launch("k0", 1000)
        with proton.scope("phase", {"loss": 2, "rate": 0.5}):
            launch("k1", 2000, 13)
        def worker():
            with proton.scope("worker"):
                launch("w", 500)
        t = threading.Thread(target=worker)
        t.start(); t.join()
        proton.finalize(pf, output_format="perfetto_trace")
        proton.finalize(js)
        print(os.getpid())
    """, tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["js.chrome_trace", "pf.perfetto_trace", "script.py"]
    trace = read(tmp_path / "pf.perfetto_trace")
    process = [t for t in trace["tracks"].values() if t["parent"] == 0]
    assert [t["pid"] for t in process] == [int(proc.stdout)]
    assert trace["primary_clock"] == trace["default_clock"] == 1  # REALTIME
    assert abs(trace["clocks"][1] - time.time_ns()) < 600e9 and 6 in trace["clocks"]
    kernels = {e["name"]: e for e in begins(trace, "kernel")}
    assert {k: (e["track"], call_stack(e)) for k, e in kernels.items()} == {
        "k0": ("GPU Stream 7", ["ROOT", "k0"]),
        "k1": ("GPU Stream 13", ["ROOT", "phase", "k1"]),
        "w": ("GPU Stream 7", ["ROOT", "worker", "w"])}
    scopes = {e["name"]: e for e in begins(trace, "scope")}  # one slice per scope
    assert sorted(scopes) == ["phase", "worker"] and len(begins(trace, "scope")) == 2
    assert scopes["phase"]["annotations"] == {"metric.loss": 2, "metric.rate": 0.5}
    launches = [e for e in trace["events"] if e["type"] == INSTANT]
    assert sorted(e["name"] for e in launches) == ["k0", "k1", "w"]
    assert all(e["categories"] == ["launch"] and e["track"].startswith("CPU Thread ")
               for e in launches)
    # The kernels' absolute times are the JSON trace's (each session reads the CPU clock for
    # its own scope events, so only the kernels share their times).
    with open(tmp_path / "js.chrome_trace") as f:
        doc = json.load(f)
    base = doc["baseTimeNanoseconds"]
    json_kernels = [e for e in doc["traceEvents"] if e.get("cat") == "kernel"]
    assert sorted(e["name"] for e in json_kernels) == sorted(kernels)
    for e in json_kernels:
        assert kernels[e["name"]]["ts"] == base + round(e["ts"] * 1000), e["name"]


def test_the_format_name_is_case_insensitive_and_tree_data_refuses_it(tmp_path):
    tree = proton.start(str(tmp_path / "t"), backend="fake")
    with pytest.raises(RuntimeError) as info:
        proton.finalize(tree, "perfetto_trace")
    assert str(info.value) == "Output format not supported"
    proton.finalize(tree)
    trace = proton.start(str(tmp_path / "e"), data="trace", backend="fake")
    proton.finalize(trace, "PERFETTO_TRACE")
    assert sorted(os.listdir(tmp_path)) == ["e.perfetto_trace", "t.hatchet"]
    empty = read(tmp_path / "e.perfetto_trace")  # a trace without events is a valid file
    assert empty["events"] == [] and len(empty["tracks"]) == 1


def test_periodic_flushing_writes_self_contained_perfetto_parts(tmp_path):
    name = str(tmp_path / "pp")
    s = proton.start(name, backend="fake", data="trace",
                     mode="periodic_flushing:format=perfetto_trace")
    with proton.scope("a"):
        launch("k0", 1000)
        launch("k0", 1000)
    proton.data.advance_phase(s)
    launch("k1", 2000)
    flush()
    part0 = read(wait_file(name + ".part_0.perfetto_trace"))  # written during the run
    proton.finalize(s)  # the last phase keeps the mode's format
    assert parts(tmp_path, "pp") == ["pp.part_0.perfetto_trace", "pp.part_1.perfetto_trace"]
    part1 = read(name + ".part_1.perfetto_trace")  # decodes alone: its own clock and interning
    assert [(e["name"], call_stack(e)) for e in begins(part0, "kernel")] == [
        ("k0", ["ROOT", "a", "k0"])] * 2
    assert [(e["name"], call_stack(e)) for e in begins(part1, "kernel")] == [
        ("k1", ["ROOT", "k1"])]
    assert 1 in part0["clocks"] and 1 in part1["clocks"]
