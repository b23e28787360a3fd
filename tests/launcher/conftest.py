"""Helpers for the end-to-end launcher tests: run `proton` on small scripts written into a
temporary directory and read the .hatchet files they leave."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LAUNCHER = os.environ.get("PROTON_TEST_LAUNCHER", os.path.join(ROOT, "build", "bin", "proton"))
PYTHON = os.environ.get("PROTON_TEST_PYTHON", sys.executable)
PYTHON_DIR = os.environ.get("PROTON_TEST_PYTHON_DIR", os.path.join(ROOT, "build", "python"))


def base_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PROTON_") and k not in ("CUDA_INJECTION64_PATH",
                                                        "NVTX_INJECTION64_PATH", "PYTHONPATH",
                                                        "RANK", "WORLD_SIZE", "LOCAL_RANK")}
    env["PROTON_PYTHON"] = PYTHON
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


def run(args, cwd, env=None, timeout=120, **kwargs):
    """Runs the launcher; returns CompletedProcess with text output."""
    return subprocess.run([LAUNCHER] + list(args), cwd=cwd, env=env or base_env(),
                          capture_output=True, text=True, timeout=timeout, **kwargs)


def write(directory, name, text, mode=0o644):
    path = os.path.join(str(directory), name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text).lstrip("\n"))
    os.chmod(path, mode)
    return path


def load(path):
    with open(path) as f:
        return json.load(f)


def frame_names(doc):
    """All frame names in a hatchet document (iterative walk)."""
    names = []
    stack = [doc[0]]
    while stack:
        node = stack.pop()
        names.append(node["frame"]["name"])
        stack.extend(node.get("children", []))
    return names


def paths(doc):
    """Every root-to-node path, as lists of frame names below ROOT."""
    out = []
    stack = [(doc[0], [])]
    while stack:
        node, prefix = stack.pop()
        for child in node.get("children", []):
            path = prefix + [child["frame"]["name"]]
            out.append((path, child))
            stack.append((child, path))
    return out


def hatchets(directory):
    return sorted(f for f in os.listdir(str(directory)) if f.endswith(".hatchet"))


@pytest.fixture
def work(tmp_path):
    return tmp_path


def died_by(returncode, sig):
    return returncode == -sig or returncode == 128 + sig
