"""Shared by the report tests: the viewer under test (PROTON_VIEWER) and how to run it."""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

VIEWER = os.environ.get("PROTON_VIEWER", "")


def run_viewer(*args, cwd=None, timeout=60):
    return subprocess.run([VIEWER, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(autouse=True)
def _needs_viewer():
    if not VIEWER or not os.path.exists(VIEWER):
        pytest.skip("PROTON_VIEWER is not set to a built proton-viewer")
