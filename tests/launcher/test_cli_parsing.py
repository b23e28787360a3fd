"""The launcher's command line as a user sees it (profiler.md §2.1, §2.2, §2.6; N1-N4)."""

import os

from conftest import base_env, hatchets, run, write

USAGE = (
    "usage: \n"
    "    proton [options] script.py [script_args] [script_options]\n"
    "    proton [options] pytest [pytest_args] [script_options]\n"
    "    proton [options] executable [args]\n"
    "    python -m proton [options] script.py [script_args] [script_options]\n")


def test_help_and_version(work):
    result = run(["-h"], work)
    assert result.returncode == 0
    assert result.stdout.startswith(USAGE + "\nThe proton command utility for profiling "
                                    "scripts and pytest tests.\n")
    assert "  -k {None,triton}, --hook {None,triton}\n                        Profiling hook\n" \
        in result.stdout
    assert result.stderr == ""
    version = run(["-V"], work)
    assert version.returncode == 0
    assert version.stdout.startswith("proton ") and version.stdout.count("\n") == 1
    assert run(["--version"], work).stdout == version.stdout


def test_no_target(work):
    result = run([], work)
    assert result.returncode == 2
    assert result.stderr == USAGE + ("proton: error: missing target: give a Python script, "
                                     "pytest, or an executable\n")
    assert "Traceback" not in result.stderr
    assert hatchets(work) == []


def test_bad_choices(work):
    for args, prefix in ((["-c", "gpu"], "argument -c/--context: invalid choice:"),
                         (["-d", "flat"], "argument -d/--data: invalid choice:"),
                         (["-k", "None"], "argument -k/--hook: invalid choice:"),
                         (["-k", "launch"], "argument -k/--hook: invalid choice:"),
                         (["--context=gpu"], "argument -c/--context: invalid choice:")):
        result = run(args + ["x.py"], work)
        assert result.returncode == 2, args
        assert result.stderr.startswith(USAGE + "proton: error: " + prefix), result.stderr
    assert run(["-n"], work).stderr.endswith("proton: error: argument -n/--name: expected one "
                                             "argument\n")
    assert run(["--bogus", "x.py"], work).returncode == 2


def test_pass_through(work):
    script = write(work, "s.py", """
        import sys
        print(repr(sys.argv))
    """)
    result = run(["-n", "foo", "s.py", "a", "-n", "b"], work)
    assert result.returncode == 0, result.stderr
    assert result.stdout == repr(["s.py", "a", "-n", "b"]) + "\n"
    assert os.path.exists(os.path.join(work, "foo.hatchet"))
    assert run(["s.py", "-h"], work).stdout == repr(["s.py", "-h"]) + "\n"
    assert run(["--", "s.py"], work).stdout == repr(["s.py"]) + "\n"
    assert run(["--na=bar", "-cpython", "--d", "tree", script], work).returncode == 0
    assert os.path.exists(os.path.join(work, "bar.hatchet"))


def test_disabled_runs_the_target_unprofiled(work):
    write(work, "s.py", """
        import os, sys
        print(os.environ.get("PROTON_CLI"), os.environ.get("CUDA_INJECTION64_PATH"))
        sys.exit(4)
    """)
    for var in ("PROTON_DISABLE", "TRITON_PROTON_DISABLE"):
        result = run(["s.py"], work, env=base_env(**{var: "1"}))
        assert result.returncode == 4
        assert result.stdout == "None None\n"
        assert hatchets(work) == []


def test_another_cuda_tool(work):
    write(work, "s.py", "print('ran')\n")
    result = run(["s.py"], work, env=base_env(CUDA_INJECTION64_PATH="/opt/nsys/libinject.so"))
    assert result.returncode == 0
    assert result.stdout == "ran\n"
    assert ("proton: warning: another CUDA tool is attached "
            "(CUDA_INJECTION64_PATH=/opt/nsys/libinject.so); running the target without "
            "profiling\n") in result.stderr
    assert hatchets(work) == []
