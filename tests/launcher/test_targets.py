"""Target classification and how each kind is run (profiler.md §2.3; N5)."""

import os
import shutil
import subprocess

from conftest import PYTHON, PYTHON_DIR, base_env, hatchets, load, run, write


def test_python_scripts(work):
    for name, text in (("a.py", "print('a')\n"),
                       ("noext", "print('noext')\n"),
                       ("shebang", "#!/usr/bin/env python3\nprint('shebang')\n")):
        write(work, name, text, 0o755 if name == "shebang" else 0o644)
        result = run(["-n", name + "_out", name], work)
        assert result.returncode == 0, result.stderr
        assert result.stdout == name.split(".")[0] + "\n"
        # A Python process always gets a root file (§2.7).
        doc = load(os.path.join(work, name + "_out.hatchet"))
        assert doc[0]["frame"]["name"] == "ROOT" and doc[1] == {}


def test_native_targets(work):
    assert run(["/bin/true"], work).returncode == 0
    assert run(["/bin/false"], work).returncode == 1
    write(work, "run.sh", "#!/bin/sh\necho \"sh $1\"\nexit 3\n", 0o755)
    result = run(["./run.sh", "x"], work)
    assert (result.returncode, result.stdout) == (3, "sh x\n")
    result = run(["sh", "-c", "echo path $0", "zero"], work)
    assert (result.returncode, result.stdout) == (0, "path zero\n")
    # Native processes that never use the GPU or scopes write nothing.
    assert hatchets(work) == []


def test_python_on_path_and_dash_m(work):
    write(work, "pkg/__init__.py", "")
    write(work, "pkg/__main__.py", "import sys; print('main', sys.argv[1:])\n")
    result = run(["-n", "pm", os.path.basename(PYTHON), "-m", "pkg", "z"], work,
                 env=base_env(PATH=os.path.dirname(PYTHON) + ":/usr/bin:/bin"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "main ['z']\n"
    assert os.path.exists(os.path.join(work, "pm.hatchet"))
    write(work, "x.py", "import sys; sys.exit(6)\n")
    assert run(["-n", "px", PYTHON, "x.py"], work).returncode == 6
    assert os.path.exists(os.path.join(work, "px.hatchet"))


def test_errors(work):
    result = run(["missing.py"], work)
    assert result.returncode == 127
    assert result.stderr == "proton: error: target not found: missing.py\n"
    shutil.copy("/bin/true", os.path.join(work, "true_copy"))
    os.chmod(os.path.join(work, "true_copy"), 0o644)
    result = run(["./true_copy"], work)
    assert result.returncode == 126
    assert result.stderr == "proton: error: target is not executable: ./true_copy\n"
    write(work, "noexec.sh", "#!/bin/sh\n", 0o644)
    assert run(["./noexec.sh"], work).returncode == 126
    write(work, "x.py", "")
    env = base_env(PATH="/nonexistent")
    del env["PROTON_PYTHON"]
    result = run(["x.py"], work, env=env)
    assert result.returncode == 127
    assert result.stderr == ("proton: error: no Python interpreter found for x.py "
                             "(set PROTON_PYTHON)\n")
    assert hatchets(work) == []


def test_pytest_targets(work):
    write(work, "test_ok.py", """
        import proton
        def test_one():
            with proton.scope("in_test"):
                pass
    """)
    write(work, "test_bad.py", "def test_fail():\n    assert False\n")
    for target in ("pytest", "/some/where/pytest"):
        result = run(["-n", "ok", target, "-q", "-p", "no:cacheprovider", "test_ok.py"], work)
        assert result.returncode == 0, result.stdout + result.stderr
        doc = load(os.path.join(work, "ok.hatchet"))
        assert "in_test" in [c["frame"]["name"] for c in doc[0]["children"]]
    result = run(["-n", "bad", "pytest", "-q", "-p", "no:cacheprovider", "test_bad.py"], work)
    assert result.returncode == 1
    assert "An error occurred" not in result.stdout
    assert os.path.exists(os.path.join(work, "bad.hatchet"))
    os.mkdir(os.path.join(work, "empty"))
    result = run(["-n", "none", "pytest", "-q", "-p", "no:cacheprovider", "empty"], work)
    assert result.returncode == 5
    assert os.path.exists(os.path.join(work, "none.hatchet"))


def test_python_dash_m_proton(work):
    write(work, "s.py", "import sys; print(sys.argv)\n")
    env = base_env(PYTHONPATH=PYTHON_DIR)
    del env["PROTON_PYTHON"]
    result = subprocess.run([PYTHON, "-m", "proton", "-n", "viam", "s.py", "q"], cwd=work,
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "['s.py', 'q']\n"
    assert os.path.exists(os.path.join(work, "viam.hatchet"))
    assert subprocess.run([PYTHON, "-m", "proton", "-V"], env=env, capture_output=True,
                          text=True).stdout.startswith("proton ")


def test_triton_hook_without_triton_has_no_effect(work):
    write(work, "k.py", "import proton\nwith proton.scope('k'):\n    pass\nprint('ran')\n")
    result = run(["-n", "k", "-k", "triton", "k.py"], work)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ran\n"
    assert "Traceback" not in result.stderr
    assert os.path.exists(os.path.join(work, "k.hatchet"))
