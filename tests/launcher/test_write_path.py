"""The exit-time write of `proton -n NAME script.py` under stress (profiler.md §1.2, §2.7,
§2.10): a signal that arrives while the write runs, names of every legal length."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import LAUNCHER, ROOT, base_env, died_by, run, write

sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
from deep_readers import chain, load_hatchet  # noqa: E402

DEPTH = 3500  # a ~440 MB .hatchet: its exit-time write takes about a second

DEEP = """
    import os, sys
    import proton
    for _ in range({depth}):
        proton.enter_scope("d")
    print(os.getpid(), flush=True)
"""


def _writing(pid, directory):
    """Whether process `pid` has a file of `directory` open (the profile being written: an
    unnamed O_TMPFILE shows as `<dir>/#<inode> (deleted)`, a named one as `.proton-*.tmp`)."""
    fd_dir = "/proc/%d/fd" % pid
    try:
        fds = os.listdir(fd_dir)
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if target.startswith(directory + "/") and not target.endswith(".py"):
            return True
    return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT])
def test_signal_during_the_exit_write_keeps_the_profile(work, sig):
    write(work, "deep.py", DEEP.format(depth=DEPTH))
    proc = subprocess.Popen([LAUNCHER, "-n", "out", "deep.py"], cwd=work, env=base_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pid = int(proc.stdout.readline())  # the script ended: the exit-time write starts
    deadline = time.time() + 60
    while not _writing(pid, str(work)):
        assert time.time() < deadline and proc.poll() is None, "no write seen"
        time.sleep(0.002)
    os.kill(pid, sig)
    _, err = proc.communicate(timeout=120)
    assert died_by(proc.returncode, sig), (proc.returncode, err)
    assert sorted(os.listdir(work)) == ["deep.py", "out.hatchet"]
    assert chain(load_hatchet(os.path.join(work, "out.hatchet")))[:2] == (DEPTH, {"d"})


@pytest.mark.parametrize("length", [240, 247, 255])
def test_output_names_up_to_255_bytes(work, length):
    write(work, "s.py", """
        import proton
        with proton.scope("s"):
            pass
    """)
    name = "n" * (length - len(".hatchet"))
    result = run(["-n", name, "s.py"], work)
    assert result.returncode == 0, result.stderr
    assert "too long" not in result.stderr
    assert sorted(os.listdir(work)) == sorted([name + ".hatchet", "s.py"])


def test_output_name_too_long_is_one_warning(work):
    write(work, "s.py", "import proton\n")
    result = run(["-n", "n" * 256, "s.py"], work)
    assert result.returncode == 0
    lines = [l for l in result.stderr.splitlines() if "could not write" in l]
    assert len(lines) == 1 and lines[0].endswith("File name too long"), result.stderr
    assert sorted(os.listdir(work)) == ["s.py"]
