"""Scopes, metrics, states, context.depth and data (profiler.md §1.5–§1.8, §3.2, §3.6,
§7.1 N13)."""

import threading

import pytest

import proton
from deep_readers import msgpack_decode
from helpers import child_names, node_at, plain
from test_surface import FakeTensor


@pytest.fixture
def session():
    return proton.start("scopes")


def root(session):
    return proton.data.get(session)[0]


def test_scope_context_manager_and_nesting(session):
    with proton.scope("outer") as s:
        assert isinstance(s, proton.scope)
        assert s.name == "outer" and isinstance(s.id, int)
        with proton.scope("inner"):
            pass
    assert child_names(node_at(root(session), "outer")) == ["inner"]
    assert node_at(root(session), "outer", "inner")["metrics"] == {}


def test_scope_data_get_metric(session):
    with proton.scope("test", {"foo": 1.0}):
        pass
    assert proton.data.get(session)[0]["children"][0]["metrics"]["foo"] == 1.0


def test_scope_decorator_exits_in_finally(session):
    @proton.scope("deco", {"calls": 1})
    def f(fail):
        assert proton.context.depth(session) == 1
        if fail:
            raise RuntimeError("x")
        return "ok"

    assert f(False) == "ok"
    with pytest.raises(RuntimeError):
        f(True)
    assert proton.context.depth(session) == 0
    assert f.__name__ == "f"
    assert node_at(root(session), "deco")["metrics"]["calls"] == 2


def test_recursive_decorated_function(session):
    @proton.scope("rec")
    def rec(n):
        return 0 if n == 0 else 1 + rec(n - 1)

    assert rec(3) == 3
    assert proton.context.depth(session) == 0
    node_at(root(session), "rec", "rec", "rec", "rec")


def test_repeated_scope_metrics_sum(session):
    for _ in range(2):
        with proton.scope("sum", {"a": 1.0, "n": 3}):
            pass
    metrics = node_at(root(session), "sum")["metrics"]
    assert metrics == {"a": 2.0, "n": 6}
    assert root(session)["metrics"] == {"a": 0, "n": 0}


def test_property_and_exclusive_suffixes(session):
    with proton.scope("p", {"last (pty)": 1, "ex (exc)": 5, "inc (inc)": 1}):
        pass
    with proton.scope("p", {"last (pty)": 7, "ex (exc)": 5}):
        pass
    metrics = node_at(root(session), "p")["metrics"]
    assert metrics == {"last": 7, "ex": 10, "inc": 1}
    # Only inclusive metrics get a ROOT placeholder.
    assert root(session)["metrics"] == {"inc": 0}


def test_exclusive_only_root_is_empty(session):
    with proton.scope("e", {"x(exc)": 2.0}):
        pass
    assert root(session)["metrics"] == {}


def test_vector_metrics_sum_elementwise(session):
    for _ in range(2):
        with proton.scope("vec", {"v": [1, 2, 3], "w": [0.5, 1.5]}):
            pass
    metrics = node_at(root(session), "vec")["metrics"]
    assert metrics == {"v": [2, 4, 6], "w": [1.0, 3.0]}


def test_type_mismatch_message(session):
    with proton.scope("t", {"a": 1.0}):
        pass
    with pytest.raises(RuntimeError) as info:
        with proton.scope("t", {"a": 1}):
            pass
    assert str(info.value) == ("Metric value type mismatch for valueId 0 (a): "
                               "current=double, new=int64_t")
    assert proton.context.depth(session) == 0


def test_vector_size_mismatch_message(session):
    with proton.scope("v", {"vec": [1, 2]}):
        pass
    with pytest.raises(RuntimeError) as info:
        with proton.scope("v", {"vec": [1, 2, 3]}):
            pass
    assert str(info.value) == ("Vector metric size mismatch for valueId 0 (vec): "
                               "current=2, new=3")


def test_roofline_coercion(session):
    with proton.scope("r", {"flops16": 2, "bytes": 3.0}):
        pass
    with proton.scope("r", {"flops16": 2.5, "bytes": 4}):
        pass
    metrics = node_at(root(session), "r")["metrics"]
    assert metrics == {"flops16": 4.5, "bytes": 7}
    assert isinstance(metrics["bytes"], int)


def test_bad_metric_type_raises_before_entering(session):
    with pytest.raises(TypeError):
        with proton.scope("bad", {"s": "text"}):
            pass
    assert proton.context.depth(session) == 0


def test_tensor_metrics(session):
    with proton.scope("tensor", {"cpu": FakeTensor(3), "dev": FakeTensor(1.5, "cuda")}):
        pass
    assert node_at(root(session), "tensor")["metrics"] == {"cpu": 3, "dev": 1.5}


def test_cpu_timed_scope(session):
    with proton.cpu_timed_scope("timed", {"m": 1}):
        sum(range(1000))
    metrics = node_at(root(session), "timed")["metrics"]
    assert isinstance(metrics["cpu_time (ns)"], int) and metrics["cpu_time (ns)"] > 0
    assert metrics["m"] == 1
    assert "cpu_time (ns)" not in root(session)["metrics"]

    @proton.cpu_timed_scope("timed_deco")
    def f():
        return 5

    assert f() == 5
    assert node_at(root(session), "timed_deco")["metrics"]["cpu_time (ns)"] > 0


def test_cpu_time_is_reserved():
    with pytest.raises(ValueError) as info:
        proton.cpu_timed_scope("x", {"cpu_time": 1})
    assert str(info.value) == "The metric name 'cpu_time' is reserved."


def test_enter_exit_scope(session):
    first = proton.enter_scope("a", metrics={"x": 1})
    second = proton.enter_scope("b")
    assert isinstance(first, int) and second > first
    assert proton.context.depth(session) == 2
    assert proton.exit_scope(metrics={"y": 2}) == second
    with pytest.raises(ValueError) as info:
        proton.exit_scope("zzz")
    assert str(info.value) == "Scope name mismatch: zzz != a"
    assert node_at(root(session), "a")["metrics"] == {"x": 1}
    assert node_at(root(session), "a", "b")["metrics"] == {"y": 2}


def test_exit_scope_on_empty_stack(session):
    errors = []

    def worker():
        try:
            proton.exit_scope()
        except IndexError as e:
            errors.append(str(e))

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert errors == ["pop from empty list"]


def test_scopes_are_noops_when_profiling_off():
    assert proton.flags.flags.profiling_on is False
    with proton.scope("off") as s:
        assert s.id is None
    assert proton.enter_scope("off") is None
    assert proton.exit_scope("off") is None
    assert proton.context.depth() is None

    @proton.cpu_timed_scope("off")
    def f():
        return 1

    assert f() == 1


def test_scope_keyword_arguments_and_errors(session):
    with proton.scope(name="kw", metrics={"a": 1}):
        pass
    assert node_at(root(session), "kw")["metrics"] == {"a": 1}
    with pytest.raises(TypeError):
        proton.scope()
    with pytest.raises(TypeError):
        proton.scope("a", None, 3)
    with pytest.raises(TypeError):
        proton.scope("a", bogus=1)

    class Sub(proton.scope):
        def __init__(self, name):
            super().__init__(name, {"sub": 1})

    with Sub("subclassed"):
        pass
    assert node_at(root(session), "subclassed")["metrics"] == {"sub": 1}


def test_state_frames(session):
    with proton.scope("test0"):
        with proton.state("s"):
            with proton.scope("test1", {"m": 1}):
                pass
    assert node_at(root(session), "test0", "test1", "s")["metrics"] == {"m": 1}


def test_state_decorator_and_functions(session):
    @proton.state("st")
    def f():
        with proton.scope("in_state", {"k": 1}):
            pass

    f()
    proton.enter_state("manual")
    with proton.scope("in_manual", {"k": 1}):
        pass
    proton.exit_state()
    with proton.scope("after", {"k": 1}):
        pass
    r = root(session)
    assert node_at(r, "in_state", "st")["metrics"] == {"k": 1}
    assert node_at(r, "in_manual", "manual")["metrics"] == {"k": 1}
    assert node_at(r, "after")["metrics"] == {"k": 1}


def test_metadata_state_expands_to_two_frames(session):
    with proton.metadata_state("my_kernel"):
        with proton.scope("x", {"k": 1}):
            pass
    with proton.metadata_state():
        with proton.scope("y", {"k": 1}):
            pass
    r = root(session)
    assert node_at(r, "x", "__proton_launch_metadata", "my_kernel")["metrics"] == {"k": 1}
    assert node_at(r, "y", "__proton_launch_metadata")["metrics"] == {"k": 1}


def test_context_depth(session):
    assert proton.context.depth(session) == 0
    with proton.scope("a"):
        with proton.scope("b"):
            assert proton.context.depth(session) == 2
    assert proton.context.depth(session) == 0


def test_data_none_and_clear(session):
    assert proton.data.get(None) is None
    assert proton.data.get_msgpack(None) is None
    assert proton.data.clear(None) is None
    assert proton.data.is_phase_complete(None) is False
    assert proton.data.advance_phase(None) is None
    with proton.scope("gone"):
        pass
    assert child_names(root(session)) == ["gone"]
    proton.data.clear(session)
    assert child_names(root(session)) == []
    with proton.scope("again"):
        pass
    assert child_names(root(session)) == ["again"]


def test_data_missing_phase(session):
    with pytest.raises(RuntimeError) as info:
        proton.data.get(session, phase=5)
    assert str(info.value) == "[PROTON] Phase 5 has no data."


def test_data_get_of_trace_raises():
    trace = proton.start("trace_session", data="trace")
    for fn in (proton.data.get, proton.data.get_msgpack):
        with pytest.raises(RuntimeError) as info:
            fn(trace)
        assert str(info.value) == "Only TreeData is supported for getData() for now"


def test_get_msgpack_decodes_to_get(session):
    with proton.scope("m", {"big": 2**40, "neg": -3, "f": 0.25, "vec": [1, 2]}):
        with proton.scope("child"):
            pass
    data = proton.data.get_msgpack(session)
    assert isinstance(data, bytes)
    decoded = msgpack_decode(data)
    assert plain(decoded) == proton.data.get(session)
    root_pairs = decoded[0]
    assert [k for k, _ in root_pairs] == ["frame", "metrics", "children"]
    assert [k for k, _ in root_pairs.to_dict()["frame"]] == ["name", "type"]


def test_children_sorted_by_name(session):
    for name in ("b", "a", "C", "_z"):
        with proton.scope(name):
            pass
    assert child_names(root(session)) == sorted(["b", "a", "C", "_z"])


def test_scope_metrics_from_many_threads(session):
    def worker(i):
        for _ in range(100):
            with proton.scope(f"t{i}", {"n": 1}):
                with proton.scope("inner"):
                    pass

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    r = root(session)
    for i in range(8):
        assert node_at(r, f"t{i}")["metrics"] == {"n": 100}
        node_at(r, f"t{i}", "inner")


def test_thread_inherits_main_threads_current_stack(session):
    # D9: a thread's first scope is based on the main thread's stack at that moment.
    results = {}

    def worker(tag):
        with proton.scope(tag, {"k": 1}):
            results[tag] = proton.context.depth(session)

    with proton.scope("A"):
        t = threading.Thread(target=worker, args=("x",))
        t.start()
        t.join()
    with proton.scope("B"):
        t = threading.Thread(target=worker, args=("z",))
        t.start()
        t.join()
    r = root(session)
    assert node_at(r, "A", "x")["metrics"] == {"k": 1}
    assert node_at(r, "B", "z")["metrics"] == {"k": 1}
