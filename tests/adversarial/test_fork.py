"""fork() in every mode: a forked child never hangs on a lock another thread held at the fork,
never writes its parent's data, and records into its own pid file (profiler.md §2.9). The
cases fork while the phase writer writes parts, from a second thread, through the Python API
without the launcher, and from a native program whose second thread launches kernels."""

import json
import os
import subprocess
import textwrap

import pytest

from conftest import (PYTHON, PYTHON_DIR, clean_env, needs_fork_safe_allocator, run_launcher,
                      run_viewer)

FAKE_DIR = os.environ.get("PROTON_TEST_FAKE_CUDA_DIR", "")
FAKE_APP = os.environ.get("PROTON_TEST_FAKE_CUDA_APP", "")

# The reported repro: the fork comes right after advance_phase() woke the phase writer.
FORK_AFTER_ADVANCE = """
import os
import proton

for i in range(40):
    proton.data.advance_phase()
    pid = os.fork()
    if pid == 0:
        for j in range(50):
            with proton.scope("child_scope"):
                pass
        os._exit(0)
    os.waitpid(pid, 0)
"""

FORK_FROM_SECOND_THREAD = """
import os
import sys
import threading
import proton

def forker():
    for i in range(40):
        pid = os.fork()
        if pid == 0:
            with proton.scope("child_scope"):
                pass
            sys.stdout.flush()
            os._exit(0)
        os.waitpid(pid, 0)

thread = threading.Thread(target=forker)
thread.start()
steps = 0
while thread.is_alive() or steps < 50:
    with proton.scope("parent_step", {"bytes": 1}):
        pass
    proton.data.advance_phase()
    steps += 1
thread.join()
print("steps", steps)
"""


def write_script(directory, text):
    path = os.path.join(str(directory), "target.py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    return path


def frames(path):
    with open(path) as f:
        doc = json.load(f)
    names, stack = [], [doc[0]]
    while stack:
        node = stack.pop()
        names.append((node["frame"]["name"], node["metrics"].get("bytes", 0)))
        stack.extend(node["children"])
    return names


def outputs(directory, prefix):
    """The profiles whose names start with prefix: the runs' end markers (`.done`,
    formats.md §5) left out."""
    return sorted(f for f in os.listdir(str(directory))
                  if f.startswith(prefix + ".") and not f.endswith(".done"))


def check_children(directory):
    """Every child's file holds its own scopes only, never the parent's data."""
    child_files = [f for f in outputs(directory, "run") if ".pid" in f]
    assert len(child_files) >= 40, outputs(directory, "run")
    for name in child_files:
        names = [n for n, _ in frames(os.path.join(str(directory), name))]
        assert "parent_step" not in names and "child_scope" in names, (name, names)


def parent_bytes(directory):
    total = 0
    for name in outputs(directory, "run"):
        if ".pid" not in name:
            total += sum(b for n, b in frames(os.path.join(str(directory), name))
                         if n == "parent_step")
    return total


MODES = {
    "tree": [],
    "trace": ["-d", "trace"],
    "periodic_flushing": ["-m", "periodic_flushing"],
    "pcsampling": ["-m", "pcsampling"],
}


# In periodic_flushing the phase writer thread allocates while the main thread forks.
@pytest.mark.parametrize("mode", [
    pytest.param(mode, marks=needs_fork_safe_allocator) if mode == "periodic_flushing" else mode
    for mode in sorted(MODES)])
def test_fork_after_advance_phase_never_hangs(tmp_path, mode):
    write_script(tmp_path, FORK_AFTER_ADVANCE)
    result = run_launcher(["-n", "run"] + MODES[mode] + ["target.py"], tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    if mode == "trace":
        return  # trace files are not trees; the run ending is what this mode checks
    check_children(tmp_path)


def test_periodic_flushing_writes_no_empty_final_part(tmp_path):
    # The phase after the last advance recorded nothing: it gets no part file, so every part
    # of the run merges (profiler.md §3.11).
    write_script(tmp_path, FORK_AFTER_ADVANCE.replace(
        "    proton.data.advance_phase()",
        "    with proton.scope('parent_step', {'bytes': 1}):\n        pass\n"
        "    proton.data.advance_phase()"))
    result = run_launcher(["-n", "run", "-m", "periodic_flushing", "target.py"], tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    parts = [f for f in outputs(tmp_path, "run") if ".part_" in f and ".pid" not in f]
    assert sorted(parts) == sorted("run.part_%d.hatchet" % p for p in range(40))
    assert parent_bytes(tmp_path) == 40
    # The README's command over the run's parts.
    merged = run_viewer(["-m", "bytes", "--merge=sum"] + [str(tmp_path / p) for p in parts])
    assert merged.returncode == 0, merged.stderr.decode()
    assert merged.stdout.decode().splitlines()[0].split()[0] == "40.000"


def test_a_run_whose_phases_are_all_empty_still_leaves_its_last_part(tmp_path):
    write_script(tmp_path, "import proton\nfor i in range(3):\n    proton.data.advance_phase()\n")
    result = run_launcher(["-n", "run", "-m", "periodic_flushing", "target.py"], tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert outputs(tmp_path, "run") == ["run.part_3.hatchet"]
    assert (tmp_path / "run.done").read_text() == '{"parts":1}\n'


@needs_fork_safe_allocator
def test_fork_from_a_second_thread_while_the_phase_writer_runs(tmp_path):
    write_script(tmp_path, FORK_FROM_SECOND_THREAD)
    result = run_launcher(["-n", "run", "-m", "periodic_flushing", "target.py"], tmp_path,
                          timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    steps = int(result.stdout.decode().split()[-1])
    check_children(tmp_path)
    assert parent_bytes(tmp_path) == steps


@needs_fork_safe_allocator
def test_fork_through_the_api_without_the_launcher(tmp_path):
    # The child of a process that started a session itself drops that session: its scopes and
    # finalize() must neither hang nor write (or overwrite) the parent's profile.
    script = write_script(tmp_path, """
        import os
        import proton

        proton.start("api", mode="periodic_flushing")
        for i in range(20):
            with proton.scope("parent_step", {"bytes": 1}):
                pass
            proton.data.advance_phase()
            pid = os.fork()
            if pid == 0:
                with proton.scope("child_scope", {"bytes": 100}):
                    pass
                proton.finalize()
                os._exit(0)
            os.waitpid(pid, 0)
        proton.finalize()
    """)
    env = clean_env(PYTHONPATH=PYTHON_DIR)
    result = subprocess.run([PYTHON, script], cwd=str(tmp_path), env=env, capture_output=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    files = outputs(tmp_path, "api")
    assert files == sorted("api.part_%d.hatchet" % p for p in range(20)), files
    total = sum(b for f in files for n, b in frames(os.path.join(str(tmp_path), f)))
    assert total == 20


@needs_fork_safe_allocator
@pytest.mark.skipif(not (FAKE_DIR and os.path.exists(FAKE_APP)), reason="no fake CUDA driver")
def test_native_program_forks_while_a_thread_launches_kernels(tmp_path):
    env = clean_env(LD_LIBRARY_PATH=FAKE_DIR,
                    PROTON_CUPTI_LIBRARY=os.path.join(FAKE_DIR, "libcupti.so"))
    result = run_launcher(["-n", "nat", FAKE_APP, "fork", "100"], tmp_path, env=env,
                          timeout=120)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    launched = int(result.stdout.decode().split("launched ")[1].split()[0])
    with open(os.path.join(str(tmp_path), "nat.hatchet")) as f:
        doc = json.load(f)
    counts, stack = 0, [doc[0]]
    while stack:
        node = stack.pop()
        counts += node["metrics"].get("count", 0)
        stack.extend(node["children"])
    assert counts == launched
    assert outputs(tmp_path, "nat") == ["nat.hatchet"]  # the children wrote nothing
