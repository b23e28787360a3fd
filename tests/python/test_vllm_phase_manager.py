"""Phases the way vLLM's Proton backend drives them (profiler.md §1.3, §1.7, §3.11), re-created
from its public behaviour: one session per profiling run, scopes with metrics around annotated
regions, a phase manager per session that rotates phases, exports each sealed phase once it is
complete (get or get_msgpack to a temporary file, os.replace, clear), drains at the end, then
deactivate and finalize with or without output_format. Run synchronously and with a background
exporter thread, with records delivered immediately or only after later rotations, over
(sync|thread) x (json|msgpack) x (finalize with|without output_format) x (late|immediate)."""

import inspect
import json
import os

import pytest

import proton
import proton_fake
from deep_readers import msgpack_decode
from helpers import kernels, plain
from vllm_phase_manager import Exporter, PhaseManager, start_run, wait_for

proton_fake.register_backend()
launch = proton_fake.launch
flush = proton_fake.flush

STEPS = 4
KERNEL_NS = 100


def step_kernel(step):
    return f"kernel_{step % 2}"


def run_steps(manager, threaded, late):
    """Each step launches step+1 kernels in an annotated scope, then rotates. Late: records
    are delivered only every second step, after the rotation (two phases' records at once)."""
    exporter = Exporter(manager) if threaded else None
    if exporter:
        exporter.start()
    launched = 0
    for step in range(STEPS):
        with proton.scope(f"step{step}", metrics={"step": step, "tokens": 16 * (step + 1)}):
            for _ in range(step + 1):
                launch(step_kernel(step), KERNEL_NS)
                launched += 1
        manager.rotate()
        deliver = not late or step % 2 == 1
        if late and step % 2 == 0:
            assert not proton.data.is_phase_complete(manager.session, step)
        if deliver:
            flush()
            if not threaded:
                manager.poll()
    if exporter:
        # Every step's records are in: the exporter thread takes every step's phase.
        wait_for(lambda: len(manager.exported) == STEPS or exporter.error, "the exporter")
        exporter.stop.set()
        exporter.join(timeout=20)
        assert exporter.error is None, exporter.error
        assert manager.exported == {p: "exporter" for p in range(STEPS)}
    manager.drain()
    manager.close()
    return launched


def read_phase(name, phase, fmt):
    if fmt == "json":
        with open(f"{name}.phase_{phase}.json") as f:
            return json.load(f)
    with open(f"{name}.phase_{phase}.msgpack", "rb") as f:
        return plain(msgpack_decode(f.read()))


def test_finalize_takes_output_format():
    assert "output_format" in inspect.signature(proton.finalize).parameters
    assert "flushing" in inspect.signature(proton.deactivate).parameters


@pytest.mark.parametrize("late", [True, False], ids=["late", "immediate"])
@pytest.mark.parametrize("with_format", [True, False], ids=["with_format", "no_format"])
@pytest.mark.parametrize("fmt", ["json", "msgpack"])
@pytest.mark.parametrize("threaded", [False, True], ids=["sync", "thread"])
def test_phase_manager_call_sequence(tmp_path, threaded, fmt, with_format, late):
    for run in range(2):  # one session per run; the second starts after the first finalized
        session, name = start_run(tmp_path, "worker0", run)
        manager = PhaseManager(session, name, fmt)
        launched = run_steps(manager, threaded, late)
        proton.deactivate(session=session)
        if with_format:
            proton.finalize(session=session, output_format="hatchet_msgpack")
        else:
            proton.finalize(session=session)
        base = os.path.basename(name)
        last = STEPS + 1  # drain sealed phase STEPS (empty) and left STEPS + 1 current
        suffix = "hatchet_msgpack" if with_format else "hatchet"
        expected = {f"{base}.phase_{p}.{fmt}" for p in range(STEPS + 1)}
        expected.add(f"{base}.part_{last}.{suffix}")
        expected.add(f"{base}.done")  # the end marker after the last part (formats.md §5)
        assert {f for f in os.listdir(tmp_path) if f.startswith(base)} == expected
        assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
        total = 0
        for p in range(STEPS):
            doc = read_phase(name, p, fmt)
            assert kernels(doc) == {f"step{p}/{step_kernel(p)}": (p + 1, KERNEL_NS * (p + 1))}
            scope = doc[0]["children"][0]
            assert scope["frame"]["name"] == f"step{p}"
            assert scope["metrics"] == {"step": p, "tokens": 16 * (p + 1)}
            total += sum(count for count, _ in kernels(doc).values())
        assert kernels(read_phase(name, STEPS, fmt)) == {}
        assert total == launched == STEPS * (STEPS + 1) // 2
        with open(f"{name}.part_{last}.{suffix}", "rb") as f:
            data = f.read()
        last_doc = json.loads(data) if suffix == "hatchet" else plain(msgpack_decode(data))
        assert kernels(last_doc) == {}


def test_exported_phases_are_freed_and_the_session_keeps_recording(tmp_path):
    session, name = start_run(tmp_path, "w", 0)
    manager = PhaseManager(session, name, "json")
    launch("k", 10)
    manager.rotate()
    flush()
    manager.poll()
    with pytest.raises(RuntimeError, match=r"^\[PROTON\] Phase 0 has no data\.$"):
        proton.data.get(session, 0)
    launch("k", 10)
    launch("k", 10)
    manager.export()              # the export deactivates: this launch is not recorded
    launch("not_recorded", 10)
    manager.poll()
    assert kernels(read_phase(name, 1, "json")) == {"k": (2, 20)}
    proton.activate(session=session)
    launch("k", 10)
    manager.drain()
    assert kernels(read_phase(name, 2, "json")) == {"k": (1, 10)}
    proton.finalize(session=session)


def test_periodic_flushing_session_cannot_sit_next_to_manual_phases(tmp_path):
    manual, name = start_run(tmp_path, "m", 0)
    with pytest.raises(RuntimeError) as info:
        start_run(tmp_path, "p", 0, mode="periodic_flushing")
    assert str(info.value) == ("Cannot add a session with the same profiler but a different "
                               "mode than existing sessions")
    # The refused start leaves the manual session untouched.
    manager = PhaseManager(manual, name, "json")
    launch("k", 10)
    manager.rotate()
    flush()
    manager.drain()
    proton.finalize(session=manual)
    assert kernels(read_phase(name, 0, "json")) == {"k": (1, 10)}
    assert os.path.exists(f"{name}.part_2.hatchet")


def test_a_manager_on_a_periodic_flushing_session_finds_its_phases_taken(tmp_path):
    # With periodic flushing the core writes and frees each completed phase itself: a manager
    # that exports by hand then gets the "no data" error for that phase.
    session, name = start_run(tmp_path, "p", 0, mode="periodic_flushing")
    manager = PhaseManager(session, name, "json")
    launch("k", 10)
    manager.rotate()
    flush()
    wait_for(lambda: os.path.exists(f"{name}.part_0.hatchet"), "part 0")
    assert proton.data.is_phase_complete(session, 0)
    with pytest.raises(RuntimeError, match=r"^\[PROTON\] Phase 0 has no data\.$"):
        manager.poll()
    with open(f"{name}.part_0.hatchet") as f:
        assert kernels(json.load(f)) == {"k": (1, 10)}
    proton.finalize(session=session)
    # Phase 1 recorded nothing: no part for it (profiler.md §3.11).
    assert not os.path.exists(f"{name}.part_1.hatchet")
