"""Module surface (profiler.md §1.1), import side effects, modes (§1.10), metric helpers."""

import importlib
import subprocess
import sys

import pytest

import proton
from helpers import run_python


def test_public_names():
    for name in ("start", "activate", "deactivate", "finalize", "profile", "scope",
                 "cpu_timed_scope", "enter_scope", "exit_scope", "state", "enter_state",
                 "exit_state", "metadata_state", "context", "data", "hooks", "mode", "metric",
                 "specs", "flags"):
        assert hasattr(proton, name), name
    assert proton.DEFAULT_PROFILE_NAME == "proton"
    assert callable(proton.context.depth)
    for name in ("get", "get_msgpack", "clear", "advance_phase", "is_phase_complete"):
        assert callable(getattr(proton.data, name))
    assert proton.metric.FLOPS_WIDTHS == (8, 16, 32, 64)
    from proton.hooks import Hook, HookManager, LaunchHook
    from proton.mode import BaseMode, PCSampling
    assert all(isinstance(c, type) for c in (Hook, HookManager, LaunchHook, BaseMode, PCSampling))
    from proton.flags import flags
    assert flags.instrumentation_on is False
    from proton.state import COMPUTE_METADATA_SCOPE_NAME, COMPUTE_METADATA_SCOPE_PREFIX
    assert COMPUTE_METADATA_SCOPE_NAME == "__proton_launch_metadata"
    assert COMPUTE_METADATA_SCOPE_PREFIX == "__proton_launch_metadata:"
    importlib.import_module("proton.viewer")


def test_shipped_binaries_hold_no_test_double(tmp_path):
    # The fake backend lives in the test-only module proton_fake: proton._C and the
    # libproton.so it loads have none of it, and asking them for it is the one-line error of
    # any backend they do not have (run in a fresh process: this one may have loaded it).
    assert not [name for name in dir(proton._C) if "fake" in name.lower()]
    proc = run_python("""
        import ctypes, proton
        with open("/proc/self/maps") as maps:  # the libproton.so.0 that _C loaded
            path = next(line.split()[-1] for line in maps if "libproton.so" in line)
        assert not hasattr(ctypes.CDLL(path), "_ZN6proton11FakeBackend8RegisterEv")
        try:
            proton.start("x", backend="fake")
        except RuntimeError as error:
            print(error)
    """, tmp_path)
    assert proc.stdout.decode() == "Unknown profiler: fake\n"


def test_submodules_shadowed_like_triton():
    # As in triton.profiler: proton.scope/state/profile are the class/function, while the
    # submodules stay importable by their full names (needed by the triton.profiler alias).
    assert isinstance(proton.scope, type)
    assert isinstance(proton.state, type)
    assert callable(proton.profile)
    assert sys.modules["proton.scope"].scope is proton.scope
    assert sys.modules["proton.profile"].profile is proton.profile
    assert issubclass(proton.cpu_timed_scope, proton.scope)


def test_signatures():
    import inspect
    sig = inspect.signature(proton.start)
    assert list(sig.parameters) == ["name", "context", "data", "backend", "mode", "hook"]
    assert sig.parameters["name"].default is None
    assert sig.parameters["context"].default == "shadow"
    assert sig.parameters["data"].default == "tree"
    assert sig.parameters["context"].kind is inspect.Parameter.KEYWORD_ONLY
    assert inspect.signature(proton.deactivate).parameters["flushing"].default is False
    assert inspect.signature(proton.finalize).parameters["output_format"].default == ""
    assert inspect.signature(proton.data.clear).parameters["clear_up_to_phase"].default is False
    assert inspect.signature(proton.context.depth).parameters["session"].default == 0


def test_flags_are_read_only():
    with pytest.raises(AttributeError):
        proton.flags.flags.profiling_on = True
    with pytest.raises(AttributeError):
        proton.flags.flags.command_line = True
    assert proton.flags.flags.profiling_on is False
    assert proton.flags.flags.command_line is False


def test_import_loads_no_torch_triton_or_cuda(tmp_path):
    proc = run_python("""
        import sys
        import proton
        assert "torch" not in sys.modules, "torch imported"
        assert "triton" not in sys.modules, "triton imported"
        maps = open("/proc/self/maps").read()
        assert "libcuda" not in maps and "libcupti" not in maps, "CUDA libraries loaded"
        assert "libproton" in maps
        print("ok")
    """, tmp_path)
    assert proc.stdout.strip() == b"ok"


def test_modes():
    from proton.mode import BaseMode, PCSampling
    assert str(BaseMode("periodic_flushing")) == "periodic_flushing"
    assert str(PCSampling()) == "pcsampling:interval=1000"
    assert str(PCSampling(interval=64)) == "pcsampling:interval=64"
    assert PCSampling(interval=8) == PCSampling(interval=8) != PCSampling(interval=9)
    assert len({PCSampling(), PCSampling()}) == 1
    assert PCSampling().name == "pcsampling" and PCSampling().interval == 1000
    assert repr(PCSampling()) == "PCSampling(name='pcsampling', interval=1000)"
    with pytest.raises(AttributeError):
        PCSampling().interval = 5
    for bad in (0, -5):
        with pytest.raises(ValueError) as info:
            PCSampling(interval=bad)
        assert str(info.value) == "Interval must be a positive integer."


class FakeDevice:
    def __init__(self, kind):
        self.type = kind


class FakeTensor:
    """Just enough of torch.Tensor for the metric helpers."""

    def __init__(self, values, device="cpu"):
        self.values = values
        self.device = FakeDevice(device)
        self.copies = 0

    def data_ptr(self):
        return 1234

    def numel(self):
        return 1 if not isinstance(self.values, list) else len(self.values)

    def dim(self):
        return 0 if not isinstance(self.values, list) else 1

    def item(self):
        self.copies += 1
        return self.values

    def tolist(self):
        self.copies += 1
        return list(self.values)


def test_transform_tensor_metrics():
    cpu = FakeTensor(3)
    cuda = FakeTensor(4.5, device="cuda")
    scalars, tensors = proton.metric.transform_tensor_metrics(
        {"a": 1, "b": cpu, "c": cuda, "d": [1, 2]})
    assert scalars == {"a": 1, "b": 3, "d": [1, 2]}
    assert tensors == {"c": cuda}


def test_metric_value_conversion_and_coercion():
    convert = proton._C.convert_metrics
    assert convert({"i": 3, "f": 2.5, "b": True}) == {"i": 3, "f": 2.5, "b": 1}
    out = convert({"flops16": 2, "flops": 1, "flops8": 7, "flops32": 3, "flops64": 4,
                   "bytes": 3.0})
    assert out == {"flops16": 2.0, "flops": 1.0, "flops8": 7.0, "flops32": 3.0,
                   "flops64": 4.0, "bytes": 3}
    assert isinstance(out["flops16"], float) and isinstance(out["bytes"], int)
    assert convert({"v": [1, 2], "w": [1.5, 2], "t": (4, 5)}) == {
        "v": [1, 2], "w": [1.5, 2.0], "t": [4, 5]}
    assert convert({"c": FakeTensor(7), "g": FakeTensor([1.0, 2.0], device="cuda")}) == {
        "c": 7, "g": [1.0, 2.0]}
    for bad in ("text", None, {"x": 1}, object(), [1, "a"]):
        with pytest.raises(TypeError):
            convert({"x": bad})


def test_specs():
    from proton import specs
    assert specs.max_flops("CUDA", "90", 8, 132, 1980000) == pytest.approx(1.976496626180837e15)
    assert specs.max_bps("CUDA", "90", 6016, 3201000) == 4.814304e12
    with pytest.raises(ValueError):
        specs.max_flops("CUDA", "75", 8, 1, 1)


def test_python_m_proton_viewer_module_runs(tmp_path):
    proc = subprocess.run([sys.executable, "-c", "import proton.viewer as v; print(callable(v.main))"],
                          capture_output=True)
    assert proc.stdout.strip() == b"True"
