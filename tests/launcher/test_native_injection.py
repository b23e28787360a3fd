"""Native targets profiled through CUDA injection, with the CUPTI part's fake driver and fake
CUPTI (no GPU): the root writes its file, `-c python` falls back to the shadow context with a
warning in a process that is not Python, and a native child that records nothing writes
nothing (profiler.md §2.7, §2.9)."""

import os

import pytest

from conftest import base_env, hatchets, load, run

FAKE_DIR = os.environ.get("PROTON_TEST_FAKE_CUDA_DIR", "")
FAKE_APP = os.environ.get("PROTON_TEST_FAKE_CUDA_APP", "")

pytestmark = pytest.mark.skipif(not (FAKE_DIR and os.path.exists(FAKE_APP)),
                                reason="fake CUDA driver not built")


def fake_env():
    return base_env(LD_LIBRARY_PATH=FAKE_DIR,
                    PROTON_CUPTI_LIBRARY=os.path.join(FAKE_DIR, "libcupti.so"))


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
