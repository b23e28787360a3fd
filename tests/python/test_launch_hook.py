"""LaunchHook with a fake `triton` package (profiler.md §1.9, §3.6, §3.7, §7.1 N16 in
spirit: no GPU, so the op nodes carry only the launch-metadata metrics)."""

import textwrap

import pytest

from fake_triton36 import KNOBS_SOURCE, LAZY_DICT_SOURCE
from helpers import run_python

FAKE_KNOBS_PLAIN = """
class _Runtime:
    launch_enter_hook = None
    launch_exit_hook = None

runtime = _Runtime()
"""

FAKE_KNOBS_CHAIN = KNOBS_SOURCE

# A kernel launch as Triton 3.6 performs it: a LazyDict with the compiled name, then the
# enter hook, the (here absent) driver launch, and the exit hook.
LAUNCHER = """
import triton.knobs as knobs
""" + LAZY_DICT_SOURCE + """
def launch(kernel_name, launch_metadata=None, grid=(1,), args=None):
    md = LazyDict({"name": kernel_name, "function": 1234, "stream": 7})
    if launch_metadata is not None:
        md.add(launch_metadata, (grid, {"num_warps": 4}, args or {}))
    enter, exit_ = knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook
    if enter is not None:
        enter(md)
    if exit_ is not None:
        exit_(md)
"""


def make_triton(tmp_path, knobs_source):
    pkg = tmp_path / "triton"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "knobs.py").write_text(knobs_source)
    (tmp_path / "fake_launch.py").write_text(LAUNCHER)


@pytest.mark.parametrize("knobs_source", [FAKE_KNOBS_PLAIN, FAKE_KNOBS_CHAIN],
                         ids=["plain", "chain"])
def test_op_node_with_metadata_metrics(tmp_path, knobs_source):
    make_triton(tmp_path, knobs_source)
    proc = run_python("""
        import sys, json
        sys.path.insert(0, ".")
        import proton
        from proton.hooks import LaunchHook
        assert LaunchHook() is LaunchHook()
        import fake_launch

        def add_metadata(grid, metadata, args):
            # The metadata state is active while this runs.
            with proton.scope("in_metadata", {"seen": 1}):
                pass
            n = args["n"]
            return {"name": f"add_{n}", "flops32": n * 2, "bytes": n * 12.0,
                    "extra_metric": 5, "label": "not a number", "stream": 99}

        s = proton.start("hook", hook="triton")
        fake_launch.launch("add_kernel", add_metadata, args={"n": 1048576})
        with proton.scope("add_phase"):
            for _ in range(2):
                fake_launch.launch("add_kernel", add_metadata, args={"n": 1048576})
        fake_launch.launch("plain_kernel")
        with proton.scope("after"):
            pass
        print(json.dumps(proton.data.get(s)))
        proton.finalize()
        import triton.knobs as knobs
        enter = knobs.runtime.launch_enter_hook
        print("restored", enter is None or getattr(enter, "calls", None) == [])
    """, tmp_path)
    import json
    lines = proc.stdout.decode().splitlines()
    assert lines[-1] == "restored True"
    doc = json.loads(lines[0])
    root = doc[0]
    names = [c["frame"]["name"] for c in root["children"]]
    assert names == ["add_1048576", "add_phase", "after", "in_metadata", "plain_kernel"], names
    op = root["children"][0]
    assert op["metrics"] == {"flops32": 2097152.0, "bytes": 12582912, "extra_metric": 5}
    assert isinstance(op["metrics"]["flops32"], float)
    assert isinstance(op["metrics"]["bytes"], int)
    phase_op = root["children"][1]["children"][0]
    assert phase_op["frame"]["name"] == "add_1048576"
    assert phase_op["metrics"]["flops32"] == 2 * 2097152.0
    # Work done while evaluating launch metadata lands under the two metadata frames.
    meta = root["children"][3]
    assert meta["children"][0]["frame"]["name"] == "__proton_launch_metadata"
    assert meta["children"][0]["children"][0]["frame"]["name"] == "add_kernel"
    assert meta["children"][0]["children"][0]["metrics"] == {"seen": 1}
    # In add_phase, the metadata scope nests under the phase.
    phase_names = [c["frame"]["name"] for c in root["children"][1]["children"]]
    assert phase_names == ["add_1048576", "in_metadata"]
    # Without metadata the op is named after the compiled kernel, with no metrics.
    assert root["children"][4]["metrics"] == {}
    assert root["metrics"] == {"bytes": 0, "extra_metric": 0, "flops32": 0, "seen": 0}
    # The state was cleared after evaluation.
    assert root["children"][2]["children"] == []


def test_filter_reentry_and_chaining(tmp_path):
    make_triton(tmp_path, FAKE_KNOBS_PLAIN)
    proc = run_python("""
        import sys, json
        sys.path.insert(0, ".")
        import triton.knobs as knobs
        calls = []
        knobs.runtime.launch_enter_hook = lambda md: calls.append("prev_enter")
        knobs.runtime.launch_exit_hook = lambda md: calls.append("prev_exit")
        previous_enter = knobs.runtime.launch_enter_hook
        import proton
        from proton.hooks import LaunchHook
        import fake_launch

        def nested_metadata(grid, metadata, args):
            fake_launch.launch("helper_kernel", lambda *a: {"name": "never", "flops": 1})
            return {"name": "outer_op", "flops": 3}

        s = proton.start("f", hook="triton")
        LaunchHook().configure(include=["keep", "outer"], exclude=["keep_not"])
        fake_launch.launch("keep_me", lambda *a: {"flops8": 1})
        fake_launch.launch("keep_not_me", lambda *a: {"flops8": 1})
        fake_launch.launch("dropped", lambda *a: {"flops8": 1})
        fake_launch.launch("outer_kernel", nested_metadata)
        LaunchHook().configure()
        print(json.dumps(proton.data.get(s)))
        print(json.dumps(calls))
        proton.finalize()
        print(knobs.runtime.launch_enter_hook is previous_enter)
    """, tmp_path)
    import json
    lines = proc.stdout.decode().splitlines()
    doc = json.loads(lines[0])
    names = [c["frame"]["name"] for c in doc[0]["children"]]
    assert names == ["keep_me", "outer_op"], names
    assert doc[0]["children"][1]["metrics"] == {"flops": 3.0}
    calls = json.loads(lines[1])
    # The previously installed hooks still run for every launch (5 launches incl. nested).
    assert calls.count("prev_enter") == 5 and calls.count("prev_exit") == 5
    assert lines[2] == "True"


def test_hook_without_triton_is_harmless(tmp_path):
    run_python("""
        import proton
        s = proton.start("nohook", hook="triton")
        with proton.scope("x"):
            pass
        proton.finalize()
    """, tmp_path)
    assert (tmp_path / "nohook.hatchet").exists()


def test_hook_manager_priorities_and_sessions(tmp_path):
    make_triton(tmp_path, FAKE_KNOBS_CHAIN)
    proc = run_python(textwrap.dedent("""
        import sys
        sys.path.insert(0, ".")
        import proton
        from proton.hooks import Hook, HookManager, LaunchHook
        import triton.knobs as knobs
        order = []

        class Low(Hook):
            priority = 1
            def enter(self, md): order.append("low_enter")
            def exit(self, md): order.append("low_exit")
            def activate(self): order.append("low_on")
            def deactivate(self): order.append("low_off")

        low = Low()
        a = proton.start("a", hook="triton")
        HookManager.register(low, a)
        assert HookManager.active_hooks[0] is LaunchHook()
        HookManager.exit(None)   # no open op: nothing to close
        HookManager.enter({"name": "k"})
        HookManager.exit({"name": "k"})
        proton.deactivate(a)
        assert HookManager.active_hooks == []
        proton.activate(a)
        assert len(HookManager.active_hooks) == 2
        proton.finalize(a)
        assert knobs.runtime.launch_enter_hook.calls == []
        print(",".join(order))
    """), tmp_path)
    assert proc.stdout.decode().strip() == (
        "low_on,low_exit,low_enter,low_exit,low_off,low_on,low_off")


def test_failing_launch_metadata_raises_and_leaves_no_state(tmp_path):
    # The launch fails with the metadata function's error (Triton's launcher propagates it),
    # the metadata state is left, and the next launch and scope are recorded normally.
    make_triton(tmp_path, FAKE_KNOBS_CHAIN)
    proc = run_python("""
        import sys, json
        sys.path.insert(0, ".")
        import proton
        import fake_launch

        def broken(grid, metadata, args):
            raise ValueError("bad metadata")

        s = proton.start("h", hook="triton")
        try:
            fake_launch.launch("broken_kernel", broken)
        except ValueError as error:
            print("raised", error)
        fake_launch.launch("fine_kernel", lambda *a: {"name": "fine", "flops": 2})
        with proton.scope("after"):
            pass
        print(json.dumps(proton.data.get(s)))
        proton.finalize()
    """, tmp_path)
    import json
    lines = proc.stdout.decode().splitlines()
    assert lines[0] == "raised bad metadata"
    root = json.loads(lines[1])[0]
    assert sorted(c["frame"]["name"] for c in root["children"]) == ["after", "fine"]
    fine = [c for c in root["children"] if c["frame"]["name"] == "fine"][0]
    assert fine["metrics"] == {"flops": 2.0}
