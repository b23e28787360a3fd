"""Exit statuses and the profile written in each case (profiler.md §2.5, §2.7, §2.10; N7)."""

import os
import signal
import subprocess
import time

import pytest

from conftest import LAUNCHER, base_env, died_by, load, run, write

SCRIPT = """
    import os, signal, sys, time
    import proton
    with proton.scope("opened"):
        {action}
"""

CASES = [
    ("pass", 0, "", ""),
    ("sys.exit(3)", 3, "", ""),
    ("sys.exit(None)", 0, "", ""),
    ("sys.exit('msg')", 1, "", "msg\n"),
    ("raise ValueError('boom')", 1, "An error occurred while executing the script:\n",
     "ValueError: boom"),
]


@pytest.mark.parametrize("action,status,stdout,stderr", CASES)
def test_statuses_and_profile(work, action, status, stdout, stderr):
    write(work, "s.py", SCRIPT.format(action=action))
    result = run(["-n", "st", "s.py"], work)
    assert result.returncode == status, result.stderr
    assert result.stdout == stdout
    assert stderr in result.stderr
    if status == 1 and stdout:
        assert "Traceback (most recent call last)" in result.stderr
    doc = load(os.path.join(work, "st.hatchet"))
    assert [c["frame"]["name"] for c in doc[0]["children"]] == ["opened"]


def test_sigint_in_child(work):
    write(work, "s.py", SCRIPT.format(action="os.kill(os.getpid(), signal.SIGINT)"))
    result = run(["-n", "st", "s.py"], work)
    assert died_by(result.returncode, signal.SIGINT), result.returncode
    assert "KeyboardInterrupt" in result.stderr
    assert "An error occurred" not in result.stdout
    doc = load(os.path.join(work, "st.hatchet"))
    assert [c["frame"]["name"] for c in doc[0]["children"]] == ["opened"]
    # Through a shell, the status is 130 (D7).
    shell = subprocess.run(["/bin/sh", "-c", '"$0" -n st s.py; echo "status $?"', LAUNCHER],
                           cwd=work, env=base_env(), capture_output=True, text=True)
    assert shell.stdout.strip().endswith("status 130")


def _child_of(parent):
    """The pid of `parent`'s child (from /proc: procps may not be installed)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            return int(entry)
    raise AssertionError("no child of %d" % parent)


def _start_waiting(work, name):
    ready = os.path.join(str(work), "ready")
    write(work, "s.py", SCRIPT.format(
        action="open('ready', 'w').close(); time.sleep(60)"))
    proc = subprocess.Popen([LAUNCHER, "-n", name, "s.py"], cwd=work, env=base_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not os.path.exists(ready):
        assert time.time() < deadline and proc.poll() is None, "script did not start"
        time.sleep(0.05)
    return proc


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGINT])
def test_signal_to_launcher(work, sig):
    proc = _start_waiting(work, "sig")
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert died_by(proc.returncode, sig), proc.returncode
    doc = load(os.path.join(work, "sig.hatchet"))
    assert [c["frame"]["name"] for c in doc[0]["children"]] == ["opened"]


def test_sigkill_of_the_child_writes_nothing(work):
    proc = _start_waiting(work, "killed")
    os.kill(_child_of(proc.pid), signal.SIGKILL)
    proc.communicate(timeout=60)
    assert died_by(proc.returncode, signal.SIGKILL)
    assert not os.path.exists(os.path.join(work, "killed.hatchet"))
    # The run directory is removed.
    assert not [d for d in os.listdir("/tmp") if d.startswith("proton-run.%d." % proc.pid)]


def test_signal_with_own_handler_is_respected(work):
    write(work, "h.py", """
        import signal, sys, time, proton
        def handler(signum, frame):
            print("handled", signum, flush=True)
            sys.exit(9)
        signal.signal(signal.SIGTERM, handler)
        with proton.scope("h"):
            open("ready", "w").close()
            time.sleep(60)
    """)
    proc = subprocess.Popen([LAUNCHER, "-n", "h", "h.py"], cwd=work, env=base_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while not os.path.exists(os.path.join(work, "ready")):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 9
    assert out == "handled %d\n" % signal.SIGTERM
    assert os.path.exists(os.path.join(work, "h.hatchet"))
