"""The profiler under a memory limit: an allocation that fails while a scope is recorded drops
that scope with one warning; the program goes on, its scopes still balance, and finalize writes
a valid (incomplete) profile. Never an abort (std::terminate) or a crash (api.cc, profiler.md
§1.2)."""

import json
import os
import subprocess
import textwrap

import pytest

from conftest import PYTHON, PYTHON_DIR, clean_env, needs_no_sanitizer

SCRIPT = """
import resource
import proton

proton.start("oom")
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, ({limit} << 20, hard))
name = "x" * 100000
recorded = 0
for i in range(30000):
    with proton.scope(name + str(i), {{"bytes": 1}}):
        proton.enter_state("s")
        proton.exit_state()
resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
proton.finalize()
print("finalized")
"""


@needs_no_sanitizer
@pytest.mark.parametrize("limit_mb", [300, 450])
def test_out_of_memory_while_recording_drops_scopes_and_writes_the_profile(tmp_path, limit_mb):
    path = os.path.join(str(tmp_path), "oom.py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(SCRIPT.format(limit=limit_mb)))
    result = subprocess.run([PYTHON, path], cwd=str(tmp_path), capture_output=True,
                            env=clean_env(PYTHONPATH=PYTHON_DIR), timeout=300)
    err = result.stderr.decode()
    assert result.returncode == 0, err[-2000:]
    assert result.stdout.decode().strip() == "finalized"
    assert "terminate called" not in err and "Traceback" not in err
    assert err.count("[proton] warning: out of memory") == 1, err[-2000:]
    with open(os.path.join(str(tmp_path), "oom.hatchet")) as f:
        doc = json.load(f)
    kept = doc[0]["children"]
    assert 0 < len(kept) < 30000
    # A scope whose node was made before memory ran out may have lost its metric: never more.
    assert {child["metrics"].get("bytes", 0) for child in kept} <= {0, 1}
    assert sum(child["metrics"].get("bytes", 0) for child in kept) > 0
