"""The `triton.profiler` alias (profiler.md §2.12; N11)."""

import os

from conftest import base_env, frame_names, load, run, write

SCRIPT = """
    import sys
    try:
        import triton.profiler as p
    except ImportError as error:
        print("ImportError", error)
        sys.exit(0)
    import proton
    import triton
    print(p is proton, triton.profiler is p)
    import triton.profiler.scope as s
    # As with the real package, the attribute `scope` stays the class; the submodule is the
    # same module object under both names.
    print(s is p.scope, callable(p.scope),
          sys.modules["triton.profiler.scope"] is sys.modules["proton.scope"])
    with p.scope("aliased"):
        pass
"""


def test_alias_with_fake_triton(work):
    write(work, "fake/triton/__init__.py", "FAKE = True\n")
    write(work, "a.py", SCRIPT)
    env = base_env(PYTHONPATH=os.path.join(str(work), "fake"))
    result = run(["-n", "al", "a.py"], work, env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "True True"
    assert lines[1] == "True True True"
    assert "aliased" in frame_names(load(os.path.join(work, "al.hatchet")))

    env["PROTON_ALIAS_TRITON_PROFILER"] = "0"
    result = run(["-n", "off", "a.py"], work, env=env)
    assert result.returncode == 0
    assert result.stdout.startswith("ImportError")  # the fake triton has no profiler
    assert "aliased" not in frame_names(load(os.path.join(work, "off.hatchet")))


def test_alias_without_triton(work):
    write(work, "a.py", SCRIPT)
    result = run(["a.py"], work)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ImportError No module named 'triton'")
