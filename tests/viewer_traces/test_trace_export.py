"""proton-viewer --export OUT.perfetto_trace FILE... (viewer.md §11.17): the command line, the
errors, and the merged trace decoded on its own (perfetto_decode.py)."""
import json
import os
import subprocess

import pytest

from perfetto_decode import decode, process_of, slices

VIEWER = os.environ.get("PROTON_VIEWER", "proton-viewer")
BASE = 1700000000000000000
USAGE_START = "usage: proton-viewer [-h] [-l] [-m METRICS]"


def run(*args, stdin=None):
    return subprocess.run([VIEWER, *args], capture_output=True, text=True, stdin=stdin)


def chrome_trace(base=BASE, shift_us=0.0, kernels=("matmul", "add")):
    """Our layout (formats.md §6): a CPU thread launching each kernel on stream 7."""
    events = [
        {"args": {"name": "Trace"}, "name": "process_name", "ph": "M", "pid": 0},
        {"args": {"name": "CPU Thread 100"}, "name": "thread_name", "ph": "M", "pid": 0, "tid": 0},
        {"args": {"name": "GPU Stream 7"}, "name": "thread_name", "ph": "M", "pid": 0, "tid": 1},
    ]
    for i, name in enumerate(kernels):
        start = shift_us + 10 + 10 * i
        events.append({"args": {"call_stack": ["ROOT", "step", name]}, "cat": "kernel",
                       "dur": 5.0, "name": name, "ph": "X", "pid": 0, "tid": 1, "ts": start})
        events.append({"cat": "flow", "id": i + 1, "name": "launch->kernel", "ph": "s", "pid": 0,
                       "tid": 0, "ts": start - 3})
        events.append({"bp": "e", "cat": "flow", "id": i + 1, "name": "launch->kernel",
                       "ph": "f", "pid": 0, "tid": 1, "ts": start})
    doc = {} if base is None else {"baseTimeNanoseconds": base}  # first, as our profiler writes
    doc.update({"displayTimeUnit": "us", "traceEvents": events})
    return json.dumps(doc)


def _varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _int(field, v):
    return _varint(field << 3) + _varint(v)


def _msg(field, body):
    return _varint(field << 3 | 2) + _varint(len(body)) + body


def perfetto_trace():
    """Our layout (formats.md §7): one kernel on "GPU Stream 3", REALTIME clock."""
    def packet(*parts):
        return _msg(1, b"".join(parts) + _int(10, 1))
    interned = (_msg(1, _int(1, 1) + _msg(2, b"kernel")) + _msg(2, _int(1, 1) + _msg(2, b"gemm"))
                + _msg(3, _int(1, 1) + _msg(2, b"call_stack_0"))
                + _msg(29, _int(1, 1) + _msg(2, b"ROOT")))
    return b"".join([
        packet(_msg(6, _msg(1, _int(1, 1) + _int(2, BASE)) + _msg(1, _int(1, 6) + _int(2, 5))
                    + _int(2, 1))),
        packet(_int(13, 3), _msg(59, _int(58, 1)), _msg(12, interned)),
        packet(_msg(60, _int(1, 1) + _msg(3, _int(1, 99) + _msg(6, b"Trace")))),
        packet(_msg(60, _int(1, 2) + _int(5, 1) + _msg(2, b"GPU Stream 3"))),
        packet(_int(8, BASE + 2000), _int(13, 2),
               _msg(11, _int(9, 1) + _int(11, 2) + _int(10, 1) + _int(3, 1)
                    + _msg(4, _int(1, 1) + _int(17, 1)))),
        packet(_int(8, BASE + 9000), _int(13, 2), _msg(11, _int(9, 2) + _int(11, 2))),
    ])


@pytest.fixture
def files(tmp_path):
    def write(name, content):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        return str(path)
    return write


def test_ranks_become_processes_on_one_time_line(files, tmp_path):
    out = str(tmp_path / "all.perfetto_trace")
    inputs = [files("run.rank0.chrome_trace", chrome_trace()),
              files("run.rank1.chrome_trace", chrome_trace(base=BASE + 20000)),
              files("run.rank2.perfetto_trace", perfetto_trace())]
    r = run("--export", out, *inputs)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    trace = decode(open(out, "rb").read())
    names = sorted(p["name"] for p in trace["processes"].values())
    assert names == ["rank 0", "rank 1", "rank 2"]
    assert len({p["pid"] for p in trace["processes"].values()}) == 3
    assert len({p["seq"] for p in trace["processes"].values()}) == 3
    done = slices(trace)
    kernels = {}
    for s in done:
        if s["category"] == "kernel":
            key = (process_of(trace, s["track"]), s["name"])
            kernels[key] = kernels.get(key, 0) + 1
    assert kernels == {("rank 0", "matmul"): 1, ("rank 0", "add"): 1, ("rank 1", "matmul"): 1,
                       ("rank 1", "add"): 1, ("rank 2", "gemm"): 1}
    start = {(process_of(trace, s["track"]), s["name"]): s["start"] for s in done
             if s["category"] == "kernel"}
    assert start[("rank 0", "matmul")] == BASE + 10000
    assert start[("rank 1", "matmul")] - start[("rank 0", "matmul")] == 20000
    assert start[("rank 2", "gemm")] == BASE + 2000
    outs = [f for s in done for f in s["flows_out"]]
    ins = [f for s in done for f in s["flows_in"]]
    assert sorted(outs) == sorted(ins) == [1, 2, 3, 4]


def test_a_relative_trace_warns_and_starts_at_zero(files, tmp_path):
    out = str(tmp_path / "one.perfetto_trace")
    old = files("old.chrome_trace", chrome_trace(base=None))
    r = run("--export", out, old)
    assert r.returncode == 0
    assert r.stderr == ("proton-viewer: warning: '%s' has no absolute time (no "
                        "baseTimeNanoseconds, or not on the REALTIME clock): it is placed at its "
                        "own zero\n" % old)
    done = slices(decode(open(out, "rb").read()))
    assert min(s["start"] for s in done) == 7000  # the first launch, 7 us after zero


def test_standard_input(files, tmp_path):
    out = str(tmp_path / "in.perfetto_trace")
    with open(files("a.chrome_trace", chrome_trace()), "rb") as f:
        r = run("--export", out, "-", stdin=f)
    assert r.returncode == 0, r.stderr
    trace = decode(open(out, "rb").read())
    assert [p["name"] for p in trace["processes"].values()] == ["input 0"]
    assert [p["cmdline"] for p in trace["processes"].values()] == ["<stdin>"]


@pytest.mark.parametrize("args,message", [
    (["-m", "time"], "--export .perfetto_trace cannot be combined with -m/--metrics"),
    (["--merge"], "--export .perfetto_trace cannot be combined with --merge"),
    (["-d", "3"], "--export .perfetto_trace cannot be combined with -d/--depth"),
])
def test_tree_options_are_usage_errors(files, tmp_path, args, message):
    a = files("a.chrome_trace", chrome_trace())
    r = run(*args, "--export", str(tmp_path / "o.perfetto_trace"), a)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.startswith(USAGE_START)
    assert r.stderr.splitlines()[-1] == "proton-viewer: error: " + message


def test_a_bad_suffix_names_every_format(tmp_path):
    r = run("--export", str(tmp_path / "o.json"), "a")
    assert r.returncode == 2
    assert r.stderr.splitlines()[-1] == ("proton-viewer: error: argument --export: FILE must end "
                                         "in .csv, .jsonl, .sqlite or .perfetto_trace: '%s'"
                                         % (tmp_path / "o.json"))


@pytest.mark.parametrize("name,content,message", [
    ("p.hatchet", '[{"children":[],"frame":{"name":"ROOT"},"metrics":{}},{}]',
     "'{}' is a Proton tree profile, not a trace"),
    ("p.hatchet_msgpack", b"\x92\x80\x80", "'{}' is a Proton tree profile, not a trace"),
    ("cut.chrome_trace", chrome_trace()[:200],
     "cannot read '{}': the trace ends early (truncated after byte"),
    ("bad.chrome_trace", '{"traceEvents":[{"ph":"X","ts":"1"}]}',
     "cannot read '{}': invalid JSON at byte 31: \"ts\" is not a number"),
    ("noise", "hello", "cannot read '{}': not a Chrome (JSON) or Perfetto (protobuf) trace"),
    ("cut.perfetto_trace", perfetto_trace()[:-3], "cannot read '{}': the trace ends early"),
])
def test_bad_inputs_are_one_line_and_leave_out_alone(files, tmp_path, name, content, message):
    good = files("good.chrome_trace", chrome_trace())
    bad = files(name, content)
    out = tmp_path / "o.perfetto_trace"
    out.write_text("old")
    r = run("--export", str(out), good, bad)
    assert r.returncode == 1
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("proton-viewer: error: " + message.format(bad)), lines[0]
    assert out.read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == sorted(["good.chrome_trace", name, "o.perfetto_trace"])


def test_a_missing_input_is_named_before_anything_is_read(files, tmp_path):
    good = files("good.chrome_trace", chrome_trace())
    r = run("--export", str(tmp_path / "o.perfetto_trace"), good, str(tmp_path / "missing"))
    assert r.returncode == 1
    assert r.stderr == ("proton-viewer: error: cannot open '%s': No such file or directory\n"
                        % (tmp_path / "missing"))
    assert not (tmp_path / "o.perfetto_trace").exists()
