"""Shared helpers of the adversarial suite: where the built binaries are, and how to run
them with a deadline, so that a hang fails its test instead of the whole run."""

import contextlib
import os
import resource
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LAUNCHER = os.environ.get("PROTON_TEST_LAUNCHER", os.path.join(ROOT, "build", "bin", "proton"))
VIEWER = os.environ.get("PROTON_VIEWER", os.path.join(ROOT, "build", "bin", "proton-viewer"))
PYTHON = os.environ.get("PROTON_TEST_PYTHON", sys.executable)
PYTHON_DIR = os.environ.get("PROTON_TEST_PYTHON_DIR", os.path.join(ROOT, "build", "python"))
REFDATA = os.path.join(ROOT, "tests", "refdata")
SANITIZER = os.environ.get("PROTON_TEST_SANITIZER", "")

needs_no_sanitizer = pytest.mark.skipif(
    SANITIZER != "", reason="the sanitizer runtimes reserve more address space than the limit")

# gcc 12's ASan runtime does not hold its allocator's locks across fork() (google/sanitizers
# issue 1814): a child that allocates waits forever when another thread of the parent was
# allocating at the fork. glibc's malloc takes its locks around fork, so the Release stage
# runs these cases; under ASan the child's hang would be the sanitizer's, not the profiler's.
needs_fork_safe_allocator = pytest.mark.skipif(
    SANITIZER == "address",
    reason="ASan's allocator is not fork-safe while another thread allocates")


def clean_env(**extra):
    """The environment of a child without any PROTON_ or CUDA injection variable."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PROTON_") and k not in ("CUDA_INJECTION64_PATH",
                                                        "NVTX_INJECTION64_PATH",
                                                        "RANK", "WORLD_SIZE", "LOCAL_RANK")}
    env["PROTON_PYTHON"] = PYTHON
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


def address_space_limit(megabytes):
    """A preexec_fn that caps the child's address space (RLIMIT_AS)."""
    def limit():
        size = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    return limit


@contextlib.contextmanager
def small_tmpfs(path, size):
    """A tmpfs of `size` (mount's syntax: 16k, 1m) mounted at the new folder `path` for the
    block; the calling test is skipped where mounting needs a root this process is not."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    os.makedirs(str(path))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", str(path)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


def run_viewer(args, timeout=60, **kwargs):
    """Runs proton-viewer; a hang past `timeout` fails the calling test."""
    return subprocess.run([VIEWER] + list(args), capture_output=True, timeout=timeout, **kwargs)


def run_launcher(args, cwd, timeout=120, env=None, **kwargs):
    """Runs the proton command in `cwd`; a hang past `timeout` fails the calling test."""
    return subprocess.run([LAUNCHER] + list(args), cwd=cwd, env=env or clean_env(),
                          capture_output=True, timeout=timeout, **kwargs)


def one_error_line(stderr):
    """The stderr of a refused run: exactly one line, no traceback or abort text."""
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
    lines = text.splitlines()
    assert len(lines) == 1, text[:2000]
    assert "Traceback" not in text and "terminate called" not in text
    return lines[0]
