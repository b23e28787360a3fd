"""Native targets profiled through CUDA injection, with the CUPTI part's fake driver and fake
CUPTI (no GPU): the root writes its file, `-c python` falls back to the shadow context with a
warning in a process that is not Python, and a native child that records nothing writes
nothing (profiler.md §2.7, §2.9)."""

import os

import pytest

from conftest import base_env, hatchets, load, run, write

FAKE_DIR = os.environ.get("PROTON_TEST_FAKE_CUDA_DIR", "")
FAKE_APP = os.environ.get("PROTON_TEST_FAKE_CUDA_APP", "")

pytestmark = pytest.mark.skipif(not (FAKE_DIR and os.path.exists(FAKE_APP)),
                                reason="fake CUDA driver not built")


def fake_env():
    return base_env(LD_LIBRARY_PATH=FAKE_DIR,
                    PROTON_CUPTI_LIBRARY=os.path.join(FAKE_DIR, "libcupti.so"))


def fake_gpu_env():
    """The fake driver, with the bootstrap taking its GPU-machine paths."""
    env = fake_env()
    env["PROTON_TEST_GPU_DRIVER"] = "1"
    return env


def profile_with_fake_gpu(work, name, source):
    """Runs `source` as <name>.py under the launcher with the fake GPU driver; returns the
    result and the sorted names of ROOT's children in <name>.hatchet."""
    write(work, f"{name}.py", source)
    result = run(["-n", name, f"{name}.py"], work, env=fake_gpu_env())
    assert result.returncode == 0, result.stderr
    root = load(os.path.join(work, f"{name}.hatchet"))[0]
    return result, sorted(c["frame"]["name"] for c in root["children"])


def test_native_root_with_python_context(work):
    result = run(["-n", "nat", "-c", "python", FAKE_APP], work, env=fake_env())
    assert result.returncode == 0, result.stderr
    assert "native app ran" in result.stdout
    assert "-c python in a process that is not Python" in result.stderr
    assert load(os.path.join(work, "nat.hatchet"))[0]["frame"]["name"] == "ROOT"


def test_native_child_that_records_nothing(work):
    result = run(["-n", "kid", "sh", "-c", '"$0"; "$0"', FAKE_APP], work, env=fake_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("native app ran") == 2
    assert hatchets(work) == []


def test_python_root_attaches_the_backend_at_its_first_cuda_call(work):
    # On a GPU machine the root's session starts without its backend: initialising the driver
    # at start-up costs ~250 ms even for a script that never uses the GPU. The backend must
    # attach at the script's own cuInit (CUDA injection), and scopes on both sides of it land
    # in the one profile the root writes.
    result, children = profile_with_fake_gpu(work, "late", """
        import ctypes, sys
        import proton
        with proton.scope('before_cuda'):
            pass
        print('calling cuInit', file=sys.stderr, flush=True)
        assert ctypes.CDLL('libcuda.so.1').cuInit(0) == 0
        with proton.scope('after_cuda'):
            pass
    """)
    stderr = result.stderr
    assert "[fakecupti] subscribe" in stderr, stderr
    assert stderr.index("calling cuInit") < stderr.index("[fakecupti] subscribe"), stderr
    assert stderr.count("[fakecupti] subscribe") == 1, stderr
    assert "did not load proton's injection" not in stderr, stderr
    assert children == ["after_cuda", "before_cuda"]
    assert hatchets(work) == ["late.hatchet"]


def test_python_root_that_never_uses_cuda_writes_without_a_backend(work):
    result, children = profile_with_fake_gpu(work, "idle", """
        import proton
        with proton.scope('cpu_only'):
            pass
    """)
    assert "[fakecupti]" not in result.stderr and "[fakecuda]" not in result.stderr, result.stderr
    assert children == ["cpu_only"]


def test_python_root_warns_when_the_driver_skipped_the_injection(work):
    # The script unsets CUDA_INJECTION64_PATH before its first CUDA call, so the driver never
    # runs our injection and no kernel can be recorded: the root says so instead of writing
    # a silently empty profile.
    result, children = profile_with_fake_gpu(work, "skip", """
        import ctypes, os
        import proton
        del os.environ['CUDA_INJECTION64_PATH']
        assert ctypes.CDLL('libcuda.so.1').cuInit(0) == 0
        with proton.scope('after_cuda'):
            pass
    """)
    assert result.stderr.count("did not load proton's injection") == 1, result.stderr
    assert "[fakecupti] subscribe" not in result.stderr
    assert children == ["after_cuda"]
