"""Sessions (profiler.md §1.2, §1.3, §7.1 N12): ids, names, files, formats, errors."""

import json
import os

import pytest

import proton
from deep_readers import msgpack_decode
from helpers import load, node_at, plain, run_python

EMPTY_HATCHET = (
    "\n[\n    {\n        \"children\": [],\n        \"frame\": {\n"
    "            \"name\": \"ROOT\",\n            \"type\": \"function\"\n        },\n"
    "        \"metrics\": {}\n    },\n    {}\n]\n")


def test_session_ids_are_consecutive_and_never_reused(tmp_path):
    proc = run_python("""
        import proton
        a = proton.start("a")
        b = proton.start("b")
        proton.finalize(b)
        c = proton.start("c")
        again = proton.start("a")
        proton.finalize()
        print(a, b, c, again)
    """, tmp_path)
    assert proc.stdout.split() == [b"0", b"1", b"2", b"0"]
    for name in ("a", "b", "c"):
        assert (tmp_path / f"{name}.hatchet").exists()


def test_start_writes_named_file_in_cwd(tmp_path):
    session = proton.start("test")
    assert isinstance(session, int)
    assert proton.flags.flags.profiling_on is True
    proton.finalize()
    assert proton.flags.flags.profiling_on is False
    assert (tmp_path / "test.hatchet").read_text() == EMPTY_HATCHET


def test_profile_decorator_default_name(tmp_path):
    @proton.profile
    def work(x):
        with proton.scope("inside"):
            return x * 2

    assert work(21) == 42
    proton.finalize()
    doc = load(tmp_path / "proton.hatchet")
    node_at(doc, "inside")


def test_profile_decorator_with_arguments_and_raise(tmp_path):
    @proton.profile(name="decorated", context="shadow")
    def fails():
        with proton.scope("before_raise"):
            raise KeyError("boom")

    with pytest.raises(KeyError):
        fails()
    # The finally deactivated the session: reactivation by name gives the same id back.
    proton.finalize()
    node_at(load(tmp_path / "decorated.hatchet"), "before_raise")


def test_same_name_reactivates():
    first = proton.start("same")
    proton.deactivate(first)
    assert proton.start("same") == first
    other = proton.start("other")
    assert other != first


def test_name_keeps_suffix_and_creates_directories(tmp_path):
    proton.start("out.hatchet")
    proton.start(os.path.join("deep", "er", "x"))
    proton.finalize()
    assert (tmp_path / "out.hatchet.hatchet").exists()
    assert (tmp_path / "deep" / "er" / "x.hatchet").exists()


@pytest.mark.parametrize("env", [{"PROTON_DISABLE": "1"}, {"TRITON_PROTON_DISABLE": "true"},
                                 {"PROTON_DISABLE": "ON"}])
def test_disabled_by_environment(tmp_path, env):
    proc = run_python("""
        import proton
        s = proton.start("disabled")
        with proton.scope("x"):
            pass
        print(s, proton.flags.flags.profiling_on, proton.enter_scope("y"))
        proton.finalize()
    """, tmp_path, env=env)
    assert proc.stdout.split() == [b"None", b"False", b"None"]
    assert not (tmp_path / "disabled.hatchet").exists()


def test_disable_runtime_env_and_precedence(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_PROTON_DISABLE", "1")
    assert proton.start("off") is None
    # Ours wins over the Triton alias when both are set.
    monkeypatch.setenv("PROTON_DISABLE", "0")
    assert proton.start("on") is not None
    proton.finalize()
    assert (tmp_path / "on.hatchet").exists() and not (tmp_path / "off.hatchet").exists()


@pytest.mark.parametrize("name", ["-", ""])
def test_stdout_is_byte_identical_to_the_file(tmp_path, name):
    proc = run_python(f"""
        import proton
        out = proton.start({name!r})
        ref = proton.start("ref")
        with proton.scope("s", {{"m": 1.5}}):
            pass
        print("before", flush=True)
        proton.finalize(out)
        proton.finalize(ref)
    """, tmp_path)
    text = (tmp_path / "ref.hatchet").read_bytes()
    assert proc.stdout == b"before\n" + text
    assert not (tmp_path / ".hatchet").exists() and not (tmp_path / "-.hatchet").exists()


def test_stdout_msgpack_is_raw_bytes(tmp_path):
    proc = run_python("""
        import proton
        proton.start("-")
        with proton.scope("s", {"m": 2}):
            pass
        proton.finalize(None, "hatchet_msgpack")
    """, tmp_path)
    doc = plain(msgpack_decode(proc.stdout))
    assert doc[0]["children"][0]["frame"]["name"] == "s"
    assert doc[0]["children"][0]["metrics"] == {"m": 2}


def test_output_format_errors_leave_no_file(tmp_path):
    tree = proton.start("tree")
    with pytest.raises(RuntimeError) as info:
        proton.finalize(tree, "bogus")
    assert str(info.value) == "Unknown output format: bogus"
    with pytest.raises(RuntimeError) as info:
        proton.finalize(tree, "chrome_trace")
    assert str(info.value) == "Output format not supported"
    trace = proton.start("trace", data="trace")
    with pytest.raises(RuntimeError) as info:
        proton.finalize(trace, "hatchet")
    assert str(info.value) == "Output format not supported"
    assert sorted(os.listdir(tmp_path)) == []
    proton.finalize(tree, "HATCHET_MSGPACK")
    proton.finalize(trace)
    assert (tmp_path / "tree.hatchet_msgpack").exists()
    # A trace without events is the empty document, never a 0-byte file (formats.md §6).
    assert json.loads((tmp_path / "trace.chrome_trace").read_text()) == {
        "baseTimeNanoseconds": 0, "displayTimeUnit": "us", "traceEvents": []}


def test_msgpack_file_matches_json(tmp_path):
    session = proton.start("both")
    with proton.scope("a", {"x": 1, "y": 2.5, "v": [1, 2]}):
        with proton.scope("b"):
            pass
    expected = proton.data.get(session)
    proton.finalize(session, "hatchet_msgpack")
    data = (tmp_path / "both.hatchet_msgpack").read_bytes()
    assert data[0] == 0x92
    decoded = msgpack_decode(data)
    # Node maps are frame, metrics, children in this order (formats.md §3.1).
    root = decoded[0]
    assert [k for k, _ in root] == ["frame", "metrics", "children"]
    assert plain(decoded) == expected


def test_unknown_session_errors():
    with pytest.raises(RuntimeError) as info:
        proton.activate(99)
    assert str(info.value) == "Session has not been initialized: 99"
    with pytest.raises(RuntimeError) as info:
        proton.deactivate(98, flushing=True)
    assert str(info.value) == "Session has not been initialized: 98"
    proton.finalize(97)  # silently ignored


@pytest.mark.parametrize("kwargs,message", [
    ({"backend": "bogus"}, "Unknown profiler: bogus"),
    ({"context": "gpu"}, "Unknown context source: gpu"),
    ({"data": "flat"}, "Unknown data: flat"),
])
def test_start_validation_errors(kwargs, message):
    with pytest.raises(RuntimeError) as info:
        proton.start("bad", **kwargs)
    assert str(info.value) == message


def test_choices_are_case_insensitive(tmp_path):
    proton.start("upper", context="PYTHON", data="Tree")
    proton.finalize()
    assert (tmp_path / "upper.hatchet").exists()


def test_mode_mismatch(tmp_path):
    proton.start("m1")
    with pytest.raises(RuntimeError) as info:
        proton.start("m2", mode="periodic_flushing")
    assert str(info.value) == ("Cannot add a session with the same profiler but a different "
                               "mode than existing sessions")


def test_unsupported_hook_after_session_created(tmp_path):
    with pytest.raises(ValueError) as info:
        proton.start("hooked", hook="foo")
    assert str(info.value) == "Unsupported hook: 'foo'"
    # As in the reference, the session exists: the same name gives it back.
    session = proton.start("hooked")
    assert isinstance(session, int)
    with pytest.raises(ValueError) as info:
        proton.start("hooked2", hook=3)
    assert str(info.value) == "Unsupported hook: 3"


def test_activate_deactivate_all_and_idempotent(tmp_path):
    a = proton.start("a")
    b = proton.start("b")
    proton.deactivate()
    proton.deactivate()
    proton.activate()
    proton.activate(a)
    proton.activate(a)
    proton.deactivate(b, flushing=True)
    proton.activate(b)
    proton.finalize(a)
    proton.finalize(b)
    assert (tmp_path / "a.hatchet").exists() and (tmp_path / "b.hatchet").exists()
    # finalize(session) keeps profiling on (only finalize(None) turns it off).
    assert proton.flags.flags.profiling_on is True


def test_scopes_only_warning_once_and_valid_profile(tmp_path):
    if os.path.exists("/dev/nvidiactl"):
        pytest.skip("a GPU driver is present")
    proc = run_python("""
        import proton
        proton.start("one")
        proton.start("two")
        with proton.cpu_timed_scope("work", {"flops16": 4}):
            pass
        proton.finalize()
    """, tmp_path)
    warnings = [line for line in proc.stderr.decode().splitlines()
                if line.startswith("[proton] warning: no NVIDIA GPU driver found")]
    assert len(warnings) == 1, proc.stderr
    for name in ("one", "two"):
        doc = load(tmp_path / f"{name}.hatchet")
        assert doc[1] == {}
        work = node_at(doc, "work")
        assert work["metrics"]["flops16"] == 4.0
        assert work["metrics"]["cpu_time (ns)"] > 0
        assert doc[0]["metrics"] == {"flops16": 0}
