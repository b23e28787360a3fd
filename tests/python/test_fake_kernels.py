"""Kernels through the core's fake backend (profiler.md §5.15) driven from Python: kernel
leaves under scopes and Python frames, ops of the Triton launch hook (§1.9, §3.7, N16),
launch-metadata frames (§3.6), thread inheritance at each launch (D9, N14), flushing
deactivate (G14 in miniature) and trace data."""

import json

from helpers import load, node_at, run_python
from test_launch_hook import FAKE_KNOBS_CHAIN, make_triton

PRELUDE = """
import json, sys, threading
sys.path.insert(0, ".")
import proton
import proton_fake
proton_fake.register_backend()
launch = proton_fake.launch
"""


def run(code, tmp_path):
    return run_python(PRELUDE + code, tmp_path)


def kernel(node):
    m = node["metrics"]
    assert m["device_type"] == "CUDA" and m["device_id"] == "0", m
    return m["count"], m["time (ns)"]


def test_kernels_under_scopes(tmp_path):
    run("""
s = proton.start("k", backend="fake")
launch("outside", 500)
with proton.scope("phase", {"flops16": 8}):
    for _ in range(3):
        launch("work_kernel", 1000)
proton.finalize()
""", tmp_path)
    doc = load(tmp_path / "k.hatchet")
    assert kernel(node_at(doc, "outside")) == (1, 500)
    assert kernel(node_at(doc, "phase", "work_kernel")) == (3, 3000)
    assert node_at(doc, "phase")["metrics"] == {"flops16": 8.0}
    assert doc[0]["metrics"] == {"count": 0, "flops16": 0, "time (ns)": 0}
    assert set(doc[1]) == {"CUDA"} and set(doc[1]["CUDA"]) == {"0"}


def test_flushing_deactivate_makes_data_complete(tmp_path):
    proc = run("""
s = proton.start("f", backend="fake")
launch("k", 100)
launch("k", 100)
proton.deactivate(s, flushing=True)
launch("not_recorded", 100)
doc = proton.data.get(s)
print(json.dumps([[c["frame"]["name"], c["metrics"].get("count")] for c in doc[0]["children"]]))
proton.finalize()
""", tmp_path)
    assert json.loads(proc.stdout) == [["k", 2]]


def test_helper_thread_follows_main_threads_current_stack(tmp_path):
    # D9: a thread without scopes of its own attributes each launch to the main thread's
    # stack at that moment (the reference copies it once, at the thread's first use).
    run("""
s = proton.start("d9", backend="fake")
go, done = threading.Event(), threading.Event()

def helper():
    for _ in range(2):
        go.wait(); go.clear()
        launch("backward_kernel", 10)
        done.set()

t = threading.Thread(target=helper)
t.start()
for name in ("A", "B"):
    with proton.scope(name):
        go.set(); done.wait(); done.clear()
t.join()
proton.finalize()
""", tmp_path)
    doc = load(tmp_path / "d9.hatchet")
    assert kernel(node_at(doc, "A", "backward_kernel")) == (1, 10)
    assert kernel(node_at(doc, "B", "backward_kernel")) == (1, 10)


def test_python_context_kernel_paths(tmp_path):
    run("""
def step():
    launch("k", 7)

s = proton.start("py", context="python", backend="fake")
for _ in range(2):
    step()
proton.finalize()
""", tmp_path)
    doc = load(tmp_path / "py.hatchet")
    script = str(tmp_path / "script.py")
    leaf = node_at(doc, f"{script}:14@<module>", f"{script}:10@step", "k")
    assert kernel(leaf) == (2, 14)


def test_python_context_lines_per_call_site(tmp_path):
    # Lines are looked up once per call site (code object, instruction offset) and cached:
    # two sites in one function, reached in alternation from two lines of a caller, must
    # keep their own lines, as must one site reached with different stacks above it.
    run("""
def step(first):
    if first:
        launch("k", 1)
    else:
        launch("k", 2)

s = proton.start("py", context="python", backend="fake")
for i in range(6):
    step(i % 2 == 0)
    step(False)
proton.finalize()
""", tmp_path)
    doc = load(tmp_path / "py.hatchet")
    script = str(tmp_path / "script.py")
    assert kernel(node_at(doc, f"{script}:17@<module>", f"{script}:11@step", "k")) == (3, 3)
    assert kernel(node_at(doc, f"{script}:17@<module>", f"{script}:13@step", "k")) == (3, 6)
    assert kernel(node_at(doc, f"{script}:18@<module>", f"{script}:13@step", "k")) == (6, 12)


def test_launch_hook_op_with_kernel_and_metadata_kernels(tmp_path):
    make_triton(tmp_path, FAKE_KNOBS_CHAIN)
    run("""
import fake_launch

def add_metadata(grid, metadata, args):
    launch("reduce_helper", 3)         # GPU work while evaluating launch metadata
    n = args["n"]
    return {"name": f"add_{n}", "flops32": n * 2, "bytes": n * 24}

def triton_launch(n):
    md = fake_launch.LazyDict({"name": "add_kernel", "function": 1, "stream": 7})
    md.add(add_metadata, ((1,), {}, {"n": n}))
    rt = fake_launch.knobs.runtime
    rt.launch_enter_hook(md)
    launch("add_kernel", 100)          # the driver launch inside the op
    rt.launch_exit_hook(md)

s = proton.start("hook", hook="triton", backend="fake")
for _ in range(2):
    triton_launch(1048576)
with proton.scope("add_phase"):
    triton_launch(1048576)
launch("nvjet", 50)                    # an unhooked launch: leaf named by the kernel
proton.finalize()
""", tmp_path)
    doc = load(tmp_path / "hook.hatchet")
    op = node_at(doc, "add_1048576")
    assert kernel(op) == (2, 200)
    assert op["metrics"]["flops32"] == 2 * 2097152.0
    assert op["metrics"]["bytes"] == 2 * 25165824
    # The op creates no node for the CUDA launch inside it.
    assert op["children"] == []
    assert kernel(node_at(doc, "add_phase", "add_1048576")) == (1, 100)
    helper = node_at(doc, "__proton_launch_metadata", "add_kernel", "reduce_helper")
    assert kernel(helper) == (2, 6)
    node_at(doc, "add_phase", "__proton_launch_metadata", "add_kernel", "reduce_helper")
    assert kernel(node_at(doc, "nvjet")) == (1, 50)
    assert doc[0]["metrics"] == {"bytes": 0, "count": 0, "flops32": 0, "time (ns)": 0}


def test_trace_data_events(tmp_path):
    run("""
s = proton.start("tr", data="trace", backend="fake")
launch("k0", 1000)
with proton.scope("phase", {"loss": 2}):
    launch("k1", 2000, 13)
def worker():
    with proton.scope("worker"):
        launch("w", 500)
t = threading.Thread(target=worker)
t.start(); t.join()
proton.finalize()
""", tmp_path)
    text = (tmp_path / "tr.chrome_trace").read_text()
    assert text.endswith("\n") and text.count("\n") == 1
    with open(tmp_path / "tr.chrome_trace") as f:
        trace = json.load(f)
    assert trace["displayTimeUnit"] == "us" and trace["baseTimeNanoseconds"] > 0
    events = trace["traceEvents"]
    assert all(e["pid"] == 0 for e in events)
    lanes = {e["args"]["name"]: e["tid"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    cpu = sorted(name for name in lanes if name.startswith("CPU Thread "))
    assert len(cpu) == 2 and {"GPU Stream 7", "GPU Stream 13"} <= set(lanes)
    assert len(set(lanes.values())) == len(lanes) == 4
    kernels = {e["name"]: e for e in events if e.get("cat") == "kernel"}
    assert [kernels[k]["args"]["call_stack"] for k in ("k0", "k1", "w")] == [
        ["ROOT", "k0"], ["ROOT", "phase", "k1"], ["ROOT", "worker", "w"]]
    assert kernels["k1"]["dur"] == 2.0 and kernels["k1"]["tid"] == lanes["GPU Stream 13"]
    assert kernels["k0"]["tid"] == kernels["w"]["tid"] == lanes["GPU Stream 7"]
    assert all(e["ph"] == "X" for e in kernels.values())
    scopes = {e["name"]: e for e in events if e.get("cat") == "scope"}
    assert set(scopes) == {"phase", "worker"}
    assert scopes["phase"]["tid"] != scopes["worker"]["tid"]
    (metric,) = [e for e in events if e.get("cat") == "metric"]
    assert metric["name"] == "phase: <loss, 2>" and metric["tid"] == scopes["phase"]["tid"]
    # Flows: "s" on the launching thread's lane, "f" (bp "e") at the kernel, same id.
    flows = [e for e in events if e.get("cat") == "flow"]
    assert all(e["name"] == "launch->kernel" for e in flows)
    starts = {e["id"]: e for e in flows if e["ph"] == "s"}
    ends = {e["id"]: e for e in flows if e["ph"] == "f"}
    assert set(starts) == set(ends) and len(ends) == 3
    for fid, end in ends.items():
        assert end["bp"] == "e"
        (name,) = [k for k, e in kernels.items() if (e["tid"], e["ts"]) == (end["tid"], end["ts"])]
        start = starts[fid]
        assert start["ts"] <= end["ts"]
        if name == "w":
            assert start["tid"] == scopes["worker"]["tid"]
        else:
            assert start["tid"] == scopes["phase"]["tid"]
