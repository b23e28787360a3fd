"""Kernels under the `proton` command without a GPU: scripts launch kernels on the fake GPU of
the fake driver and fake CUPTI (fake_gpu.py), so the real CUPTI backend, correlation, data and
writers run end to end, and each profile's counts and times are known exactly (profiler.md
§2.9, §2.10, §3.4, §3.10, §5.4, §5.15)."""

import os
import signal
import subprocess
import time

import pytest

import fake_gpu
from conftest import LAUNCHER, base_env, died_by, hatchets, load, paths, run, write

FAKE_APP = os.environ.get("PROTON_TEST_FAKE_CUDA_APP", "")

pytestmark = pytest.mark.skipif(not (fake_gpu.FAKE_DIR and os.path.exists(FAKE_APP)),
                                reason="fake CUDA driver not built")

H200 = {"CUDA": {"0": {"arch": "90", "bus_width": 6016, "clock_rate": 1980000,
                       "memory_clock_rate": 3201000, "num_sms": 132}}}


def gpu_env(**extra):
    return fake_gpu.environment(base_env(**extra))


def profile(work, name, source, args=(), **extra_env):
    write(work, f"{name}.py", source)
    result = run(["-n", name, *args, f"{name}.py"], work, env=gpu_env(**extra_env))
    assert result.returncode == 0, result.stderr
    return result


def kernel_metrics(doc):
    """{"a/b/kernel": metrics} for every node that has a kernel count."""
    return {"/".join(path): node["metrics"] for path, node in paths(doc)
            if node["metrics"].get("count")}


def test_launches_in_a_scope_give_count_and_time(work):
    profile(work, "s", """
        import fake_gpu, proton
        with proton.scope("s"):
            for _ in range(5):
                fake_gpu.launch("gemm", duration_ns=1234)
    """)
    doc = load(os.path.join(work, "s.hatchet"))
    metrics = kernel_metrics(doc)
    assert list(metrics) == ["s/gemm"]
    assert metrics["s/gemm"]["count"] == 5
    assert metrics["s/gemm"]["time (ns)"] == 5 * 1234
    assert metrics["s/gemm"]["device_id"] == "0"
    assert doc[1] == H200


def test_kernels_land_under_the_shadow_paths(work):
    # No NVTX: the shadow context alone names the paths, the main thread's scopes nested, a
    # thread with scopes of its own under those, a launch outside any scope under ROOT.
    profile(work, "shadow", """
        import threading
        import fake_gpu, proton
        with proton.scope("outer"):
            with proton.scope("inner"):
                fake_gpu.launch("k", duration_ns=10)
            fake_gpu.launch("k", duration_ns=20)
        def worker():
            with proton.scope("worker"):
                fake_gpu.launch("w", duration_ns=30, stream=9)
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        fake_gpu.launch("top", duration_ns=40)
    """)
    metrics = kernel_metrics(load(os.path.join(work, "shadow.hatchet")))
    assert {path: m["time (ns)"] for path, m in metrics.items()} == {
        "outer/inner/k": 10, "outer/k": 20, "worker/w": 30, "top": 40}


def test_trace_has_one_event_per_launch(work):
    profile(work, "tr", """
        import fake_gpu, proton
        with proton.scope("s"):
            for i in range(4):
                fake_gpu.launch("k%d" % (i % 2), duration_ns=2000, stream=3 + i)
    """, args=("-d", "trace"))
    events = load(os.path.join(work, "tr.chrome_trace"))["traceEvents"]
    lanes = {e["tid"]: e["args"]["name"] for e in events
             if e.get("ph") == "M" and e["name"] == "thread_name"}
    kernels = [e for e in events if e.get("cat") == "kernel"]
    assert [(e["name"], lanes[e["tid"]], e["dur"]) for e in kernels] == [
        ("k0", "GPU Stream 3", 2.0), ("k1", "GPU Stream 4", 2.0),
        ("k0", "GPU Stream 5", 2.0), ("k1", "GPU Stream 6", 2.0)]
    assert [e["args"]["call_stack"] for e in kernels] == [
        ["ROOT", "s", "k0"], ["ROOT", "s", "k1"]] * 2
    # The fake GPU runs them back to back with a 1 µs gap (ts shares the CPU events' origin).
    first = kernels[0]["ts"]
    assert [round(e["ts"] - first, 3) for e in kernels] == [0.0, 3.0, 6.0, 9.0]


def test_a_rank_child_writes_its_own_kernels(work):
    write(work, "child.py", """
        import fake_gpu, proton
        with proton.scope("child"):
            fake_gpu.launch("child_k", duration_ns=100)
            fake_gpu.launch("child_k", duration_ns=100)
    """)
    profile(work, "run", """
        import os, subprocess, sys
        import fake_gpu, proton
        with proton.scope("root"):
            fake_gpu.launch("root_k", duration_ns=50)
        env = dict(os.environ, RANK="1", WORLD_SIZE="2")
        subprocess.run([sys.executable, "child.py"], env=env, check=True)
    """)
    assert hatchets(work) == ["run.hatchet", "run.rank1.hatchet"]
    root = kernel_metrics(load(os.path.join(work, "run.hatchet")))
    child = kernel_metrics(load(os.path.join(work, "run.rank1.hatchet")))
    assert {p: (m["count"], m["time (ns)"]) for p, m in root.items()} == {"root/root_k": (1, 50)}
    assert {p: (m["count"], m["time (ns)"]) for p, m in child.items()} == {
        "child/child_k": (2, 200)}


def test_sigterm_mid_run_keeps_the_kernels_so_far(work):
    write(work, "sig.py", """
        import time
        import fake_gpu, proton
        with proton.scope("s"):
            for _ in range(3):
                fake_gpu.launch("done", duration_ns=700)
            open("ready", "w").close()
            time.sleep(60)
            fake_gpu.launch("never", duration_ns=1)
    """)
    proc = subprocess.Popen([LAUNCHER, "-n", "sig", "sig.py"], cwd=work, env=gpu_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not os.path.exists(os.path.join(work, "ready")) and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert died_by(proc.returncode, signal.SIGTERM), (proc.returncode, err)
    metrics = kernel_metrics(load(os.path.join(work, "sig.hatchet")))
    assert {p: (m["count"], m["time (ns)"]) for p, m in metrics.items()} == {
        "s/done": (3, 2100)}


def test_records_beyond_one_buffer_are_counted_once(work):
    # 4 KiB buffers hold fewer than 20 kernel records: the 1000 launches fill and complete
    # dozens of buffers during the run, and the first and last records are in different ones.
    profile(work, "many", """
        import fake_gpu, proton
        with proton.scope("a"):
            fake_gpu.launch("first", duration_ns=5)
        with proton.scope("b"):
            for _ in range(1000):
                fake_gpu.launch("k", duration_ns=3)
        with proton.scope("c"):
            fake_gpu.launch("last", duration_ns=7)
    """, PROTON_PROFILE_BUFFER_SIZE="4096")
    metrics = kernel_metrics(load(os.path.join(work, "many.hatchet")))
    assert {p: (m["count"], m["time (ns)"]) for p, m in metrics.items()} == {
        "a/first": (1, 5), "b/k": (1000, 3000), "c/last": (1, 7)}


def test_incomplete_records_are_dropped_and_reported(work):
    result = profile(work, "inc", """
        import fake_gpu, proton
        with proton.scope("s"):
            fake_gpu.launch("ok", duration_ns=10)
            fake_gpu.launch("running", duration_ns=0)
    """)
    metrics = kernel_metrics(load(os.path.join(work, "inc.hatchet")))
    assert {p: m["count"] for p, m in metrics.items()} == {"s/ok": 1}
    assert result.stderr.count("1 kernel records were lost") == 1, result.stderr


def test_records_delivered_during_the_run_are_counted_once(work):
    # CUPTI's own thread may complete a buffer at any time (fake_gpu.deliver); the flushes at
    # finalize must not hand those records over again.
    profile(work, "del", """
        import fake_gpu, proton
        with proton.scope("s"):
            fake_gpu.launch("k", duration_ns=10)
            fake_gpu.deliver()
            fake_gpu.launch("k", duration_ns=10)
            fake_gpu.deliver()
            fake_gpu.deliver()
    """)
    metrics = kernel_metrics(load(os.path.join(work, "del.hatchet")))
    assert {p: (m["count"], m["time (ns)"]) for p, m in metrics.items()} == {"s/k": (2, 20)}
