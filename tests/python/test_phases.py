"""Phases and periodic flushing through the core's fake backend (profiler.md §1.7, §1.10,
§3.11, §5.14; formats.md §5): phase numbers, where late records land, exact completion, the
per-phase get/clear calls and their errors, the files finalize writes after advancing, and the
part files the phase writer writes during the run (each read back and opened with
proton-viewer).

The fake backend holds every record until `proton_fake.flush([order])` delivers it, so each test
decides when (and in which order) the records of a phase arrive."""

import glob
import json
import os
import re
import subprocess
import time

import pytest

import proton
import proton_fake
from deep_readers import msgpack_decode
from helpers import kernels, plain, run_python

proton_fake.register_backend()
launch = proton_fake.launch
flush = proton_fake.flush

# <build>/python/proton/__init__.py -> <build>/bin/proton-viewer
VIEWER = os.environ.get("PROTON_TEST_VIEWER") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(proton.__file__)))),
    "bin", "proton-viewer")


def no_data(phase):
    return re.escape(f"[PROTON] Phase {phase} has no data.")


def wait_for(predicate, what, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


def wait_file(path):
    wait_for(lambda: os.path.exists(path), path)
    return path


def viewer_reads(path, kernel):
    """proton-viewer opens the part as a complete profile and shows its kernel."""
    assert os.path.exists(VIEWER), f"proton-viewer not built at {VIEWER}"
    proc = subprocess.run([VIEWER, "-m", "count", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert kernel in proc.stdout, proc.stdout


def parts(directory, name):
    """The profiles of run `name`, without its end marker (`name.done`, formats.md §5)."""
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(str(directory), name + ".*"))
                  if not p.endswith(".done"))


def end_marker(directory, name):
    """The content of run `name`'s end marker, None when there is none."""
    path = os.path.join(str(directory), name + ".done")
    return open(path).read() if os.path.exists(path) else None


# ---- phase numbers, late records, completion ----------------------------------------------

def test_advance_phase_returns_consecutive_numbers_per_session():
    s = proton.start("n", backend="fake")
    t = proton.start("m", backend="fake")
    assert [proton.data.advance_phase(s) for _ in range(3)] == [1, 2, 3]
    assert proton.data.advance_phase(t) == 1
    assert proton.data.advance_phase(s) == 4


def test_late_records_land_in_their_launch_phase_in_any_order():
    s = proton.start("late", backend="fake")
    launch("k0", 100)                          # queue index 0, phase 0
    assert proton.data.advance_phase(s) == 1
    with proton.scope("step", {"flops": 5}):
        launch("k1", 200)                      # 1
        launch("k1", 200)                      # 2
    assert proton.data.advance_phase(s) == 2
    launch("k2", 300)                          # 3
    assert proton.data.advance_phase(s) == 3
    launch("k3", 400)                          # 4, the current phase
    # Three advances later, one buffer with records of phases 2, 0 and 1 in that order.
    flush([3, 0, 2])
    assert proton.data.is_phase_complete(s, 0)
    assert not proton.data.is_phase_complete(s, 1)  # one k1 still outstanding
    assert proton.data.is_phase_complete(s, 2)
    flush()
    assert proton.data.is_phase_complete(s, 1)
    assert not proton.data.is_phase_complete(s, 3)  # current: never complete before finalize
    assert kernels(proton.data.get(s, 0)) == {"k0": (1, 100)}
    doc1 = proton.data.get(s, 1)
    assert kernels(doc1) == {"step/k1": (2, 400)}
    assert doc1[0]["children"][0]["metrics"] == {"flops": 5.0}
    assert kernels(proton.data.get(s, 2)) == {"k2": (1, 300)}
    assert kernels(proton.data.get(s, 3)) == {"k3": (1, 400)}


def test_scope_open_across_an_advance_goes_to_the_new_phase():
    s = proton.start("open", backend="fake")
    with proton.scope("outer"):
        launch("before", 10)
        proton.data.advance_phase(s)
        launch("after", 20)
    flush()
    assert kernels(proton.data.get(s, 0)) == {"outer/before": (1, 10)}
    assert kernels(proton.data.get(s, 1)) == {"outer/after": (1, 20)}


def test_is_phase_complete_only_for_sealed_phases_with_every_record_in():
    s = proton.start("c", backend="fake")
    launch("k", 1)
    flush()
    assert not proton.data.is_phase_complete(s, 0)  # current, though nothing is outstanding
    proton.data.advance_phase(s)
    assert proton.data.is_phase_complete(s, 0)
    launch("k", 1)
    proton.data.advance_phase(s)
    assert not proton.data.is_phase_complete(s, 1)  # sealed, its record not delivered
    assert not proton.data.is_phase_complete(s, 2)
    assert not proton.data.is_phase_complete(s, 7)
    assert not proton.data.is_phase_complete(s, -1)
    flush()
    assert proton.data.is_phase_complete(s, 1)


def test_flushing_deactivate_completes_every_phase_below_the_current_one():
    s = proton.start("d", backend="fake")
    for p in range(3):
        for _ in range(p + 1):
            launch(f"k{p}", 50)
        proton.data.advance_phase(s)
    assert [proton.data.is_phase_complete(s, p) for p in range(4)] == [False] * 4
    proton.deactivate(s, flushing=True)
    assert [proton.data.is_phase_complete(s, p) for p in range(4)] == [True, True, True, False]
    for p in range(3):
        assert kernels(proton.data.get(s, p)) == {f"k{p}": (p + 1, 50 * (p + 1))}
    assert kernels(proton.data.get(s, 3)) == {}


# ---- get / get_msgpack / clear --------------------------------------------------------------

def test_get_and_get_msgpack_per_phase():
    s = proton.start("g", backend="fake")
    for p in range(3):
        if p:
            proton.data.advance_phase(s)
        for _ in range(p + 1):
            launch(f"k{p}", 100)
    flush()
    for p in range(3):
        doc = proton.data.get(s, p)
        assert kernels(doc) == {f"k{p}": (p + 1, 100 * (p + 1))}
        assert plain(msgpack_decode(proton.data.get_msgpack(s, p))) == doc
    # The default phase is 0.
    assert kernels(proton.data.get(s)) == {"k0": (1, 100)}


def test_get_of_a_phase_that_never_existed_raises():
    s = proton.start("g", backend="fake")
    proton.data.advance_phase(s)
    for phase in (2, 5):
        with pytest.raises(RuntimeError, match="^" + no_data(phase) + "$"):
            proton.data.get(s, phase)
        with pytest.raises(RuntimeError, match="^" + no_data(phase) + "$"):
            proton.data.get_msgpack(s, phase)


def test_clear_one_phase_up_to_a_phase_and_the_current_phase(tmp_path):
    s = proton.start("cl", backend="fake")
    for p in range(4):
        if p:
            proton.data.advance_phase(s)
        launch(f"k{p}", 10)
    flush()
    proton.data.clear(s, 1)
    with pytest.raises(RuntimeError, match=no_data(1)):
        proton.data.get(s, 1)
    assert kernels(proton.data.get(s, 0)) == {"k0": (1, 10)}
    assert kernels(proton.data.get(s, 2)) == {"k2": (1, 10)}
    proton.data.clear(s, 2, clear_up_to_phase=True)
    for p in (0, 1, 2):
        with pytest.raises(RuntimeError, match=no_data(p)):
            proton.data.get(s, p)
        with pytest.raises(RuntimeError, match=no_data(p)):
            proton.data.get_msgpack(s, p)
    assert kernels(proton.data.get(s, 3)) == {"k3": (1, 10)}
    # A cleared current phase restarts empty and keeps recording.
    proton.data.clear(s, 3)
    assert kernels(proton.data.get(s, 3)) == {}
    launch("after", 20)
    flush()
    assert kernels(proton.data.get(s, 3)) == {"after": (1, 20)}
    assert proton.data.advance_phase(s) == 4
    launch("k4", 30)
    flush()
    proton.data.clear(s, 4, clear_up_to_phase=True)  # phase 3 and the current phase 4
    assert kernels(proton.data.get(s, 4)) == {}
    with pytest.raises(RuntimeError, match=no_data(3)):
        proton.data.get(s, 3)
    launch("again", 40)
    flush()
    proton.finalize(s)
    # Cleared phases are gone for good: only the current phase is left to write.
    assert parts(tmp_path, "cl") == ["cl.part_4.hatchet"]
    with open(tmp_path / "cl.part_4.hatchet") as f:
        assert kernels(json.load(f)) == {"again": (1, 40)}


def test_clear_of_a_phase_that_never_existed_is_a_no_op(tmp_path):
    # As the reference's clearPhase: nothing raises and nothing recorded is lost.
    s = proton.start("keep", backend="fake")
    launch("k0", 10)
    proton.data.advance_phase(s)
    launch("k1", 20)
    proton.data.clear(s, 9)
    flush()
    assert kernels(proton.data.get(s, 0)) == {"k0": (1, 10)}
    assert kernels(proton.data.get(s, 1)) == {"k1": (1, 20)}
    proton.finalize(s)
    assert parts(tmp_path, "keep") == ["keep.part_0.hatchet", "keep.part_1.hatchet"]


# ---- session errors -------------------------------------------------------------------------

def test_phase_calls_on_unknown_or_finalized_session_name_it():
    for call in (lambda n: proton.data.advance_phase(n),
                 lambda n: proton.data.is_phase_complete(n, 0)):
        with pytest.raises(RuntimeError, match=r"^Session has not been initialized: 42$"):
            call(42)
    s = proton.start("gone", backend="fake")
    proton.finalize(s)
    for call in (lambda n: proton.data.advance_phase(n),
                 lambda n: proton.data.is_phase_complete(n, 0),
                 lambda n: proton.data.get(n, 0),
                 lambda n: proton.data.clear(n, 0)):
        with pytest.raises(RuntimeError, match=rf"^Session has not been initialized: {s}$"):
            call(s)


def test_session_none_returns_none_or_false():
    proton.start("none", backend="fake")
    assert proton.data.advance_phase(None) is None
    assert proton.data.is_phase_complete(None, 0) is False
    assert proton.data.get(None) is None
    assert proton.data.get_msgpack(None) is None
    assert proton.data.clear(None) is None


# ---- finalize -------------------------------------------------------------------------------

def test_finalize_after_advancing_writes_a_pretty_part_per_phase(tmp_path):
    s = proton.start("fin", backend="fake")
    for p in range(3):
        if p:
            proton.data.advance_phase(s)
        for _ in range(p + 1):
            launch(f"k{p}", 100)
    proton.finalize(s)   # no flush before: finalize delivers every record
    assert parts(tmp_path, "fin") == [f"fin.part_{p}.hatchet" for p in range(3)]
    assert end_marker(tmp_path, "fin") == '{"parts":3}\n'  # after the last part
    for p in range(3):
        path = tmp_path / f"fin.part_{p}.hatchet"
        text = path.read_text()
        assert text.startswith("\n[\n    {") and text.endswith("\n"), text[:40]
        assert kernels(json.loads(text)) == {f"k{p}": (p + 1, 100 * (p + 1))}
        viewer_reads(path, f"k{p}")


def test_finalize_without_advancing_writes_the_plain_file(tmp_path):
    s = proton.start("plain", backend="fake")
    launch("k", 5)
    proton.finalize(s)
    assert parts(tmp_path, "plain") == ["plain.hatchet"]
    assert end_marker(tmp_path, "plain") is None  # no parts, no marker
    with open(tmp_path / "plain.hatchet") as f:
        assert kernels(json.load(f)) == {"k": (1, 5)}


# ---- periodic flushing ----------------------------------------------------------------------

def test_periodic_flushing_writes_each_completed_phase_compact_and_frees_it(tmp_path):
    name = str(tmp_path / "pf")
    s = proton.start(name, backend="fake", mode="periodic_flushing")
    launch("k0", 100)
    launch("k0", 100)
    proton.data.advance_phase(s)
    # Sealed but a record outstanding: not complete, so certainly not written.
    assert not proton.data.is_phase_complete(s, 0)
    assert not os.path.exists(name + ".part_0.hatchet")
    assert end_marker(tmp_path, "pf") is None  # the run goes on
    launch("k1", 200)
    flush([0])   # one of phase 0's two records
    assert not proton.data.is_phase_complete(s, 0)
    flush()
    text = open(wait_file(name + ".part_0.hatchet"), "rb").read()
    assert not text.startswith(b"\n") and b"\n" not in text and b"    " not in text
    assert kernels(json.loads(text)) == {"k0": (2, 200)}
    # Written means freed.
    with pytest.raises(RuntimeError, match=no_data(0)):
        proton.data.get(s, 0)
    with pytest.raises(RuntimeError, match=no_data(0)):
        proton.data.get_msgpack(s, 0)
    proton.data.clear(s, 0)  # nothing left to free: a no-op
    assert proton.data.is_phase_complete(s, 0)
    proton.data.advance_phase(s)
    launch("k2", 300)
    flush()
    wait_file(name + ".part_1.hatchet")
    assert kernels(proton.data.get(s, 2)) == {"k2": (1, 300)}
    proton.finalize(s)
    assert parts(tmp_path, "pf") == [f"pf.part_{p}.hatchet" for p in range(3)]
    assert end_marker(tmp_path, "pf") == '{"parts":3}\n'
    with open(name + ".part_1.hatchet") as f:
        assert kernels(json.load(f)) == {"k1": (1, 200)}
    last = open(name + ".part_2.hatchet").read()
    assert last.startswith("\n[\n    {")  # finalize's parts have the normal layout
    assert kernels(json.loads(last)) == {"k2": (1, 300)}
    for p in range(3):
        viewer_reads(f"{name}.part_{p}.hatchet", f"k{p}")


@pytest.mark.parametrize("output_format,last_suffix", [
    ("", "hatchet_msgpack"), ("hatchet", "hatchet"), ("hatchet_msgpack", "hatchet_msgpack")])
def test_periodic_flushing_msgpack_parts(tmp_path, output_format, last_suffix):
    name = str(tmp_path / "mp")
    s = proton.start(name, backend="fake", mode="periodic_flushing:format=hatchet_msgpack")
    with proton.scope("s0", {"bytes": 64}):
        launch("k0", 100)
    proton.data.advance_phase(s)
    launch("k1", 200)
    launch("k1", 200)
    flush()
    data = open(wait_file(name + ".part_0.hatchet_msgpack"), "rb").read()
    doc0 = plain(msgpack_decode(data))
    assert kernels(doc0) == {"s0/k0": (1, 100)}
    assert doc0[0]["children"][0]["metrics"] == {"bytes": 64}
    with pytest.raises(RuntimeError, match=no_data(0)):
        proton.data.get(s, 0)
    # finalize writes the rest in the mode's part format, or in the output format it is given.
    proton.finalize(s, output_format)
    assert parts(tmp_path, "mp") == ["mp.part_0.hatchet_msgpack", f"mp.part_1.{last_suffix}"]
    last = open(f"{name}.part_1.{last_suffix}", "rb").read()
    doc1 = json.loads(last) if last_suffix == "hatchet" else plain(msgpack_decode(last))
    assert kernels(doc1) == {"k1": (2, 400)}
    viewer_reads(name + ".part_0.hatchet_msgpack", "k0")
    viewer_reads(f"{name}.part_1.{last_suffix}", "k1")


@pytest.mark.parametrize("mode", ["periodic_flushing", "periodic_flushing:format=chrome_trace"])
def test_periodic_flushing_trace_parts(tmp_path, mode):
    name = str(tmp_path / "tr")
    s = proton.start(name, backend="fake", data="trace", mode=mode)
    with proton.scope("a"):
        launch("k0", 1000)
        launch("k0", 1000)
    proton.data.advance_phase(s)
    launch("k1", 2000)
    flush()
    with open(wait_file(name + ".part_0.chrome_trace")) as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("cat") == "kernel"]
    assert [(e["name"], e["dur"], e["args"]["call_stack"]) for e in events] == [
        ("k0", 1.0, ["ROOT", "a", "k0"])] * 2
    proton.finalize(s)
    assert parts(tmp_path, "tr") == ["tr.part_0.chrome_trace", "tr.part_1.chrome_trace"]
    with open(name + ".part_1.chrome_trace") as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("cat") == "kernel"]
    assert [(e["name"], e["dur"], e["args"]["call_stack"]) for e in events] == [
        ("k1", 2.0, ["ROOT", "k1"])]


def test_flush_timing_prints_one_line_per_part_written_during_the_run(tmp_path):
    proc = run_python("""
        import os, time
        import proton
        import proton_fake
        proton_fake.register_backend()
        s = proton.start("t", backend="fake", mode="periodic_flushing")
        def wait(path):
            deadline = time.monotonic() + 20
            while not os.path.exists(path):
                assert time.monotonic() < deadline, path
                time.sleep(0.005)
        for p in range(3):
            proton_fake.launch("k%d" % p, 10)
            proton.data.advance_phase(s)
            proton_fake.flush()
            wait("t.part_%d.hatchet" % p)
        proton.finalize(s)
    """, tmp_path, env={"PROTON_DATA_FLUSH_TIMING": "1"})
    lines = proc.stderr.decode().splitlines()
    timing = [l for l in lines if l.startswith("[proton] flushed phase")]
    assert len(timing) == 3, lines
    for p, line in enumerate(timing):
        assert re.fullmatch(rf"\[proton\] flushed phase {p} of session 0 to t\.part_{p}"
                            r"\.hatchet: [0-9]+ bytes in [0-9]+\.[0-9]{3} ms", line), line
    # Phase 3, after the last advance, recorded nothing: no part (profiler.md §3.11).
    assert parts(tmp_path, "t") == [f"t.part_{p}.hatchet" for p in range(3)]


@pytest.mark.parametrize("mode,data,message", [
    ("periodic_flushing:bogus=1", "tree",
     "Unknown option for mode periodic_flushing: bogus=1 (accepted: format=<value>)"),
    ("periodic_flushing:format=bogus", "tree",
     "Unknown format for periodic_flushing: bogus (accepted: hatchet, hatchet_msgpack, "
     "chrome_trace, perfetto_trace)"),
    ("periodic_flushing:format=chrome_trace", "tree",
     'periodic_flushing:format=chrome_trace cannot write data="tree" (chrome_trace and '
     'perfetto_trace are for data="trace", hatchet and hatchet_msgpack for data="tree")'),
    ("periodic_flushing:format=perfetto_trace", "tree",
     'periodic_flushing:format=perfetto_trace cannot write data="tree" (chrome_trace and '
     'perfetto_trace are for data="trace", hatchet and hatchet_msgpack for data="tree")'),
    ("periodic_flushing:format=hatchet_msgpack", "trace",
     'periodic_flushing:format=hatchet_msgpack cannot write data="trace" (chrome_trace and '
     'perfetto_trace are for data="trace", hatchet and hatchet_msgpack for data="tree")'),
    ("periodic", "tree", "Unknown mode: periodic (accepted: pcsampling, periodic_flushing)"),
])
def test_bad_mode_strings_raise_one_clear_line(tmp_path, mode, data, message):
    with pytest.raises(RuntimeError) as info:
        proton.start("bad", backend="fake", data=data, mode=mode)
    assert str(info.value) == message
    # No session was left behind: a session of another mode starts on the same backend.
    s = proton.start("good", backend="fake")
    proton.finalize(s)
    assert os.listdir(tmp_path) == ["good.hatchet"]
