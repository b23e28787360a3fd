"""Periodic flushing under the `proton` command, with kernels on the fake GPU (fake_gpu.py):
part files appear during the run as each phase completes, every phase is written at exit,
rank names apply to parts, and parts written before a SIGKILL survive it whole
(profiler.md §1.10, §2.9, §2.10, §3.11, §5.14; formats.md §5)."""

import json
import os
import signal
import sys

import pytest

import fake_gpu
from conftest import base_env, died_by, hatchets, load, paths, run, write
from test_fake_gpu_kernels import FAKE_APP

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
from deep_readers import msgpack_decode  # noqa: E402  (tests/python: a standalone decoder)
from helpers import plain  # noqa: E402

pytestmark = pytest.mark.skipif(not (fake_gpu.FAKE_DIR and os.path.exists(FAKE_APP)),
                                reason="fake CUDA driver not built")

N = 3  # kernels per step

# argv: steps, part prefix, part suffix, then "kill" to SIGKILL itself after the last part.
# Each step launches N kernels of 100*(step+1) ns in scope step<i> (metric tokens=step+1),
# advances the phase, hands the records over and waits until the step's part file exists.
SCRIPT = """
    import os, signal, sys, time
    import fake_gpu, proton
    steps, prefix, suffix = int(sys.argv[1]), sys.argv[2], sys.argv[3]

    def wait(path):
        deadline = time.monotonic() + 30
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                sys.exit("timed out waiting for " + path)
            time.sleep(0.005)

    for step in range(steps):
        with proton.scope("step%d" % step, {"tokens": step + 1}):
            for _ in range(%N%):
                fake_gpu.launch("k", duration_ns=100 * (step + 1))
        assert proton.data.advance_phase() == step + 1
        fake_gpu.deliver()
        wait("%s.part_%d.%s" % (prefix, step, suffix))
        print("seen part %d" % step, flush=True)
    if sys.argv[4:] == ["kill"]:
        fake_gpu.launch("lost", duration_ns=5)
        os.kill(os.getpid(), signal.SIGKILL)
    with proton.scope("tail"):
        fake_gpu.launch("t", duration_ns=7)
""".replace("%N%", str(N))


def gpu_env(**extra):
    return fake_gpu.environment(base_env(**extra))


def kernel_counts(doc):
    return {"/".join(path): (node["metrics"]["count"], node["metrics"]["time (ns)"])
            for path, node in paths(doc) if node["metrics"].get("count")}


def check_step_part(doc, step):
    assert kernel_counts(doc) == {f"step{step}/k": (N, N * 100 * (step + 1))}
    scope = doc[0]["children"][0]
    assert scope["frame"]["name"] == f"step{step}"
    assert scope["metrics"] == {"tokens": step + 1}


def run_script(work, steps, prefix, suffix, mode="periodic_flushing", extra=(), **env):
    write(work, "script.py", SCRIPT)
    return run(["-m", mode, "-n", "run", "script.py", str(steps),
                os.path.join(str(work), prefix), suffix, *extra], work, env=gpu_env(**env))


def test_parts_appear_during_the_run_and_every_phase_is_written_at_exit(work):
    result = run_script(work, 3, "run", "hatchet")
    assert result.returncode == 0, result.stderr
    # The script saw each part on disk before it went on: written during the run.
    assert result.stdout.splitlines() == [f"seen part {p}" for p in range(3)]
    assert hatchets(work) == [f"run.part_{p}.hatchet" for p in range(4)]
    for p in range(3):
        with open(os.path.join(work, f"run.part_{p}.hatchet")) as f:
            text = f.read()
        assert not text.startswith("\n") and "\n" not in text  # compact, during the run
        check_step_part(json.loads(text), p)
    with open(os.path.join(work, "run.part_3.hatchet")) as f:
        text = f.read()
    assert text.startswith("\n[\n    {")  # written at exit: the normal layout
    assert kernel_counts(json.loads(text)) == {"tail/t": (1, 7)}


def test_msgpack_parts(work):
    result = run_script(work, 2, "run", "hatchet_msgpack",
                        mode="periodic_flushing:format=hatchet_msgpack")
    assert result.returncode == 0, result.stderr
    for p in range(2):
        with open(os.path.join(work, f"run.part_{p}.hatchet_msgpack"), "rb") as f:
            check_step_part(plain(msgpack_decode(f.read())), p)
    # The exit's finalize() writes the rest in the mode's part format too (formats.md §5): one
    # run, one format.
    # run.done: the end marker after the last part (formats.md §5).
    assert sorted(os.listdir(work)) == ["run.done", "run.part_0.hatchet_msgpack",
                                        "run.part_1.hatchet_msgpack",
                                        "run.part_2.hatchet_msgpack", "script.py"]
    with open(os.path.join(work, "run.done")) as f:
        assert f.read() == '{"parts":3}\n'
    with open(os.path.join(work, "run.part_2.hatchet_msgpack"), "rb") as f:
        assert kernel_counts(plain(msgpack_decode(f.read()))) == {"tail/t": (1, 7)}


def test_rank_process_names_its_parts(work):
    result = run_script(work, 2, "run.rank3", "hatchet", RANK="3", WORLD_SIZE="4")
    assert result.returncode == 0, result.stderr
    assert hatchets(work) == [f"run.rank3.part_{p}.hatchet" for p in range(3)]
    assert os.path.exists(os.path.join(work, "run.rank3.done"))  # the marker takes the rank too
    for p in range(2):
        check_step_part(load(os.path.join(work, f"run.rank3.part_{p}.hatchet")), p)


def test_parts_survive_sigkill(work):
    k = 3
    result = run_script(work, k, "run", "hatchet", extra=("kill",))
    assert died_by(result.returncode, signal.SIGKILL), (result.returncode, result.stderr)
    assert result.stdout.splitlines() == [f"seen part {p}" for p in range(k)]
    # Only the current phase is lost; no temporary file is left next to the parts, and no
    # end marker says the run ended.
    assert sorted(os.listdir(work)) == sorted(
        ["script.py"] + [f"run.part_{p}.hatchet" for p in range(k)])
    for p in range(k):
        check_step_part(load(os.path.join(work, f"run.part_{p}.hatchet")), p)


@pytest.mark.parametrize("mode,data,message", [
    ("periodic_flushing:format=bogus", "tree",
     "Unknown format for periodic_flushing: bogus (accepted: hatchet, hatchet_msgpack, "
     "chrome_trace, perfetto_trace)"),
    ("periodic_flushing:every=2", "tree", "Unknown option for mode periodic_flushing: every=2 "
                                          "(accepted: format=<value>)"),
    ("periodic_flushing:format=chrome_trace", "tree",
     "periodic_flushing:format=chrome_trace cannot write -d tree"),
    ("periodic_flushing:format=perfetto_trace", "tree",
     "periodic_flushing:format=perfetto_trace cannot write -d tree"),
])
def test_bad_mode_is_one_clear_error_before_the_target_runs(work, mode, data, message):
    # The launcher checks -m itself: before, every process ran unprofiled with a warning and
    # the run exited 0 (here the script's advance_phase then raised, with a traceback).
    write(work, "script.py", SCRIPT)
    result = run(["-m", mode, "-d", data, "-n", "run", "script.py", "1", "run", "hatchet"],
                 work, env=gpu_env())
    assert result.returncode == 2
    assert result.stderr == f"proton: error: argument -m/--mode: {message}\n"
    assert result.stdout == ""
    assert sorted(os.listdir(work)) == ["script.py"]


def test_a_run_that_never_advances_writes_the_plain_file(work):
    write(work, "plain.py", """
        import fake_gpu, proton
        with proton.scope("s"):
            fake_gpu.launch("k", duration_ns=50)
            fake_gpu.launch("k", duration_ns=50)
    """)
    result = run(["-m", "periodic_flushing", "-n", "run", "plain.py"], work, env=gpu_env())
    assert result.returncode == 0, result.stderr
    assert hatchets(work) == ["run.hatchet"]
    with open(os.path.join(work, "run.hatchet")) as f:
        text = f.read()
    assert text.startswith("\n[\n    {")
    assert kernel_counts(json.loads(text)) == {"s/k": (2, 100)}
