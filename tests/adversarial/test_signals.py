"""Signals in the middle of the work that long runs do: a SIGTERM to the launcher while the
target advances phases, forks children and its phase writer writes parts (the run ends within
the grace time, every part on disk is complete); and a target that aborts or crashes, whose
profile is still written before it dies by its signal (profiler.md §2.10, §3.11)."""

import json
import os
import signal
import subprocess
import textwrap
import time

import pytest

from conftest import LAUNCHER, SANITIZER, clean_env

BUSY_FOREVER = """
import os
import sys
import proton

print("ready", flush=True)
step = 0
while True:
    with proton.scope("step", {"bytes": 1}):
        pass
    proton.data.advance_phase()
    step += 1
    if step % 10 == 0:
        pid = os.fork()
        if pid == 0:
            with proton.scope("child"):
                pass
            os._exit(0)
        os.waitpid(pid, 0)
"""


def test_sigterm_during_fork_and_part_writes_ends_with_complete_parts(tmp_path):
    with open(os.path.join(str(tmp_path), "busy.py"), "w") as f:
        f.write(textwrap.dedent(BUSY_FOREVER))
    proc = subprocess.Popen([LAUNCHER, "-n", "run", "-m", "periodic_flushing", "busy.py"],
                            cwd=str(tmp_path), env=clean_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGTERM, err.decode()[-2000:]  # dies like the target
    parts = [f for f in os.listdir(str(tmp_path)) if f.startswith("run.part_")]
    assert len(parts) > 1, os.listdir(str(tmp_path))
    steps = 0
    for name in parts:
        with open(os.path.join(str(tmp_path), name)) as f:
            doc = json.load(f)  # complete: never a truncated part
        steps += sum(c["metrics"].get("bytes", 0) for c in doc[0]["children"])
    # No temporary file is left behind under a profile's name.
    assert not [f for f in os.listdir(str(tmp_path)) if f.endswith(".tmp")]
    assert steps >= len(parts) - 1


CRASHES = {
    "abort": ("import os", "os.abort()", signal.SIGABRT),
    "segfault": ("import ctypes", "ctypes.string_at(0)", signal.SIGSEGV),
}


@pytest.mark.parametrize("how", sorted(CRASHES))
def test_a_target_that_crashes_still_writes_what_it_recorded(tmp_path, how):
    imports, crash, signal_number = CRASHES[how]
    if how == "segfault" and SANITIZER:
        pytest.skip("the sanitizer runtime owns SIGSEGV")
    with open(os.path.join(str(tmp_path), "crash.py"), "w") as f:
        f.write(textwrap.dedent(f"""
            {imports}
            import proton
            with proton.scope("before_the_crash", {{"bytes": 7}}):
                pass
            {crash}
        """))
    result = subprocess.run([LAUNCHER, "-n", "crash", "crash.py"], cwd=str(tmp_path),
                            env=clean_env(), capture_output=True, timeout=60)
    assert result.returncode == -signal_number, result.stderr.decode()[-2000:]
    with open(os.path.join(str(tmp_path), "crash.hatchet")) as f:
        doc = json.load(f)
    assert [(c["frame"]["name"], c["metrics"]["bytes"]) for c in doc[0]["children"]] == [
        ("before_the_crash", 7)]
