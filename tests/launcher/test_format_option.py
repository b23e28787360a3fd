"""The command's -f/--format (ours, profiler.md §2.1) with kernels on the fake GPU
(fake_gpu.py): `-d trace -f perfetto_trace` writes <name>.perfetto_trace (formats.md §7) in
every process, periodic_flushing's parts take -f's format, and a format of the other data kind
or a different periodic_flushing:format= is one clear error before the target runs."""

import os
import sys

import pytest

import fake_gpu
from conftest import base_env, run, write
from test_fake_gpu_kernels import FAKE_APP
from test_periodic_flushing import N, SCRIPT

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
from perfetto_reader import SLICE_BEGIN, call_stack, check_tracks, read_trace  # noqa: E402

pytestmark = pytest.mark.skipif(not (fake_gpu.FAKE_DIR and os.path.exists(FAKE_APP)),
                                reason="fake CUDA driver not built")


def gpu_env():
    return fake_gpu.environment(base_env())


def kernels(path):
    with open(path, "rb") as f:
        trace = read_trace(f.read())
    check_tracks(trace)
    return trace, [e for e in trace["events"]
                   if e["type"] == SLICE_BEGIN and e["categories"] == ["kernel"]]


def test_trace_data_written_as_perfetto(work):
    write(work, "tr.py", """
        import fake_gpu, proton
        with proton.scope("s"):
            for i in range(4):
                fake_gpu.launch("k%d" % (i % 2), duration_ns=2000, stream=3 + i)
    """)
    result = run(["-n", "tr", "-d", "trace", "-f", "perfetto_trace", "tr.py"], work,
                 env=gpu_env())
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(work)) == ["tr.perfetto_trace", "tr.py"]
    trace, events = kernels(os.path.join(work, "tr.perfetto_trace"))
    assert [(e["name"], e["track"], call_stack(e)) for e in events] == [
        ("k0", "GPU Stream 3", ["ROOT", "s", "k0"]), ("k1", "GPU Stream 4", ["ROOT", "s", "k1"]),
        ("k0", "GPU Stream 5", ["ROOT", "s", "k0"]), ("k1", "GPU Stream 6", ["ROOT", "s", "k1"])]
    # Each kernel lasts 2 µs on its own stream: its end is 2000 ns after its begin.
    ends = {e["track"]: e["ts"] for e in trace["events"] if e["type"] == 2}
    assert all(ends[e["track"]] - e["ts"] == 2000 for e in events)


def test_periodic_flushing_parts_take_the_format(work):
    write(work, "script.py", SCRIPT)
    result = run(["-m", "periodic_flushing", "-d", "trace", "-f", "perfetto_trace", "-n", "run",
                  "script.py", "2", os.path.join(str(work), "run"), "perfetto_trace"], work,
                 env=gpu_env())
    assert result.returncode == 0, result.stderr
    # The parts, and the run's end marker after the last one (formats.md §5).
    assert sorted(os.listdir(work)) == ["run.done"] + [
        f"run.part_{p}.perfetto_trace" for p in range(3)] + ["script.py"]
    for p in range(2):  # written during the run, each a file of its own
        trace, events = kernels(os.path.join(work, f"run.part_{p}.perfetto_trace"))
        assert [(e["name"], call_stack(e)) for e in events] == [("k", ["ROOT", f"step{p}", "k"])] * N
        scopes = [e for e in trace["events"] if e["categories"] == ["scope"]]
        assert [(e["name"], e["annotations"]) for e in scopes] == [
            (f"step{p}", {"metric.tokens": p + 1})]
    _, events = kernels(os.path.join(work, "run.part_2.perfetto_trace"))  # written at exit
    assert [(e["name"], call_stack(e)) for e in events] == [("t", ["ROOT", "tail", "t"])]


@pytest.mark.parametrize("args,message", [
    (["-f", "perfetto_trace"], "perfetto_trace cannot write -d tree"),
    (["-d", "trace", "--format=hatchet"], "hatchet cannot write -d trace"),
    (["-d", "trace", "-f", "perfetto_trace", "-m", "periodic_flushing:format=chrome_trace"],
     "perfetto_trace conflicts with -m periodic_flushing:format=chrome_trace"),
])
def test_a_format_that_cannot_be_written_is_one_clear_error(work, args, message):
    write(work, "script.py", "print('ran')\n")
    result = run(args + ["-n", "run", "script.py"], work, env=gpu_env())
    assert result.returncode == 2
    assert result.stderr == f"proton: error: argument -f/--format: {message}\n"
    assert result.stdout == ""
    assert sorted(os.listdir(work)) == ["script.py"]
