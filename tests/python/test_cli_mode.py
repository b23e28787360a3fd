"""Command-line mode through the private switch (profiler.md §1.4, D1/D2, §7.1 N9)."""

from helpers import load, node_at, run_python

PRELUDE = """
import proton
from proton import _C
_C.set_command_line(True)
assert proton.flags.flags.command_line is True
import os
session = _C.start_cli_session(os.environ["CLI_TEST_NAME"])
assert session == 0, session
assert proton.flags.flags.profiling_on is True

def expect(fn, message, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except ValueError as e:
        assert str(e) == message, (str(e), message)
    else:
        raise AssertionError("no ValueError for " + message)
"""

def run_cli(code, tmp_path):
    env = {"CLI_TEST_NAME": str(tmp_path / "cli_out")}
    return run_python(PRELUDE + code, tmp_path, env=env)


def test_start_is_ignored(tmp_path):
    run_cli("""
assert proton.start() is None
assert proton.start("other", context="python", hook="triton", mode="pcsampling") is None
assert "triton" not in __import__("sys").modules
proton.finalize()
""", tmp_path)
    assert (tmp_path / "cli_out.hatchet").exists()
    assert not (tmp_path / "other.hatchet").exists()


def test_activate_deactivate_rows(tmp_path):
    run_cli("""
proton.activate(0)
proton.deactivate(0, flushing=True)
proton.activate()          # D1: session 0
proton.deactivate()        # D1: session 0
proton.activate(None)
expect(proton.activate, "Only one session can be activated when running from the command line.", 1)
expect(proton.deactivate, "Only one session can be deactivated when running from the command line.", 2)
expect(proton.deactivate, "Only one session can be deactivated when running from the command line.", 1, True)
""", tmp_path)


def test_data_rows(tmp_path):
    run_cli("""
with proton.scope("s", {"foo": 1.0}):
    assert proton.context.depth(0) == 1
assert proton.data.get()[0]["children"][0]["metrics"]["foo"] == 1.0
assert isinstance(proton.data.get_msgpack(0), bytes)
for fn in (proton.data.get, proton.data.get_msgpack):
    expect(fn, "Only one session can be retrieved when running from the command line.", 1)
expect(proton.data.clear, "Only one session can be cleared when running from the command line.", 3)
expect(proton.data.advance_phase, "Only one session can advance phase when running from the command line.", 1)
expect(proton.data.is_phase_complete,
       "Only one session can check phase completion status when running from the command line.", 1, 0)
assert proton.data.get(None) is None
assert proton.data.get_msgpack(None) is None
assert proton.data.clear(None) is None
assert proton.data.advance_phase(None) is None
assert proton.data.is_phase_complete(None) is False
proton.data.clear(0)
assert proton.data.get(0)[0]["children"] == []
""", tmp_path)


def test_profile_decorator_runs_function_only(tmp_path):
    run_cli("""
@proton.profile
def bare(x):
    with proton.scope("bare_scope"):
        return x + 1

@proton.profile(name="ignored", hook="triton")
def with_args():
    return "ok"

assert bare(1) == 2
assert with_args() == "ok"
proton.finalize(0)
""", tmp_path)
    doc = load(tmp_path / "cli_out.hatchet")
    node_at(doc, "bare_scope")
    assert not (tmp_path / "ignored.hatchet").exists()


def test_finalize_rows(tmp_path):
    run_cli("""
expect(proton.finalize, "Only one session can be finalized when running from the command line.", 1)
with proton.scope("kept"):
    pass
proton.finalize()
assert proton.flags.flags.profiling_on is False
with proton.scope("after_finalize"):
    pass
proton.finalize()
""", tmp_path)
    doc = load(tmp_path / "cli_out.hatchet")
    node_at(doc, "kept")
    assert [c["frame"]["name"] for c in doc[0]["children"]] == ["kept"]


def test_states_and_metrics_work_on_session_0(tmp_path):
    run_cli("""
with proton.scope("a", {"flops16": 2}):
    with proton.state("st"):
        with proton.cpu_timed_scope("b"):
            pass
proton.finalize(0)
""", tmp_path)
    doc = load(tmp_path / "cli_out.hatchet")
    assert node_at(doc, "a")["metrics"] == {"flops16": 2.0}
    assert node_at(doc, "a", "b", "st")["metrics"]["cpu_time (ns)"] > 0
