"""The fake GPU of the fake driver and fake CUPTI (src/cupti/testing), for scripts that run under
`proton` in the end-to-end tests: `launch` stands for one cuLaunchKernel, so the real CUPTI
backend, correlation, data and writers see a kernel with a known name, stream and duration.

In a script: `import fake_gpu; fake_gpu.launch("k", duration_ns=1000, stream=7)`. The script's
environment must come from `environment()` (the fake libraries on LD_LIBRARY_PATH,
PROTON_CUPTI_LIBRARY, and this directory on PYTHONPATH). Standard library only: it runs inside
the profiled processes."""

import ctypes
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_DIR = os.environ.get("PROTON_TEST_FAKE_CUDA_DIR", "")

_state = {}


def environment(env, fake_dir=FAKE_DIR):
    """`env` plus what a profiled script needs to drive the fake GPU. PROTON_TEST_GPU_DRIVER
    makes the bootstrap take the GPU-machine paths (the backend attaches at cuInit)."""
    env = dict(env)
    env["LD_LIBRARY_PATH"] = fake_dir
    env["PROTON_CUPTI_LIBRARY"] = os.path.join(fake_dir, "libcupti.so")
    env["PROTON_TEST_GPU_DRIVER"] = "1"
    env["PYTHONPATH"] = HERE
    return env


def _cupti_path():
    path = os.environ.get("PROTON_CUPTI_LIBRARY")
    if path:
        return path
    for directory in os.environ.get("LD_LIBRARY_PATH", "").split(":"):
        candidate = os.path.join(directory, "libcupti.so")
        if directory and os.path.exists(candidate):
            return candidate
    raise RuntimeError("fake_gpu: set PROTON_CUPTI_LIBRARY to the fake libcupti.so")


def _cupti():
    """The fake libcupti, after the fake driver's cuInit (which attaches proton's backend
    through CUDA_INJECTION64_PATH, as the real driver does)."""
    if "cupti" not in _state:
        if ctypes.CDLL("libcuda.so.1").cuInit(0) != 0:
            raise RuntimeError("fake_gpu: cuInit failed")
        lib = ctypes.CDLL(_cupti_path())
        lib.fakecupti_launch.argtypes = [ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint32]
        lib.fakecupti_launch.restype = ctypes.c_uint32
        lib.fakecupti_deliver.argtypes = []
        lib.fakecupti_deliver.restype = None
        lib.cuptiGetTimestamp.argtypes = [ctypes.POINTER(ctypes.c_uint64)]
        lib.cuptiGetTimestamp.restype = ctypes.c_int
        _state["cupti"] = lib
    return _state["cupti"]


def launch(name, duration_ns=1000, stream=7):
    """One kernel launch on the calling thread; returns its correlation id (0 once CUPTI shut
    down). duration_ns=0 gives an incomplete record, which the profiler drops and counts."""
    return _cupti().fakecupti_launch(name.encode(), duration_ns, stream)


def deliver():
    """Hands the records queued so far to the profiler now, as CUPTI's own thread may."""
    _cupti().fakecupti_deliver()


def now():
    """The fake GPU clock (ns), which cuptiGetTimestamp also reads."""
    value = ctypes.c_uint64(0)
    _cupti().cuptiGetTimestamp(ctypes.byref(value))
    return value.value
