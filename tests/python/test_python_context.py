"""Python context naming (profiler.md §3.5, §2.8, §7.1 N10): `file:line@function`, outermost
first, no frame of our package, leading runpy frames dropped."""

import os
import sys

import proton
from helpers import all_paths, load, node_at, run_python

SCRIPT = """\
import proton

def work():
    with proton.scope("ignored_name", {"m": 1}):   # line 4
        pass

@proton.scope("decorated", {"d": 1})
def decorated():
    pass

def main():
    work()                                          # line 12
    decorated()                                     # line 13

proton.start("py", context="python")
main()                                              # line 16
proton.finalize()
"""


def test_paths_start_at_the_script_and_skip_our_frames(tmp_path):
    run_python(SCRIPT, tmp_path)
    script = str(tmp_path / "script.py")
    doc = load(tmp_path / "py.hatchet")
    top = f"{script}:16@<module>"
    assert [c["frame"]["name"] for c in doc[0]["children"]] == [top]
    # Scope metrics go to the user's line that entered the scope; scopes add no frame.
    entered = node_at(doc, top, f"{script}:12@main", f"{script}:4@work")
    assert entered["metrics"] == {"m": 1}
    assert entered["children"] == []
    # The decorator's wrapper lives in our package: its frame is dropped, so the metrics
    # land on the caller's line.
    assert node_at(doc, top, f"{script}:13@main")["metrics"] == {"d": 1}
    package_dir = os.path.dirname(proton.__file__)
    for path in all_paths(doc[0]):
        for frame in path:
            assert frame.startswith(script + ":"), frame
            assert package_dir not in frame


def test_leading_runpy_frames_are_dropped(tmp_path):
    (tmp_path / "mod.py").write_text(
        "import proton\n"
        "proton.start('m', context='python')\n"
        "with proton.scope('s', {'k': 1}):\n"
        "    pass\n"
        "proton.finalize()\n")
    run_python("""
        import runpy, sys
        sys.path.insert(0, '.')
        runpy.run_module('mod', run_name='__main__')
    """, tmp_path)
    doc = load(tmp_path / "m.hatchet")
    names = [c["frame"]["name"] for c in doc[0]["children"]]
    # Outermost is the script that called runpy; runpy's own frames are kept when they are
    # not leading. A `python -m mod` run starts directly at mod.py:
    assert names[0].startswith(str(tmp_path / "script.py") + ":")
    import subprocess
    env = dict(os.environ)
    subprocess.run([sys.executable, "-m", "mod"], cwd=tmp_path, env=env, check=True)
    doc = load(tmp_path / "m.hatchet")
    top = [c["frame"]["name"] for c in doc[0]["children"]]
    assert top == [f"{tmp_path / 'mod.py'}:3@<module>"], top
    assert node_at(doc, top[0])["metrics"] == {"k": 1}


def test_frame_provider_directly():
    def inner():
        return proton._C.python_frames()

    first, second = [inner() for _ in range(2)]
    here = os.path.abspath(__file__)
    assert first[-1] == f"{here}:{inner.__code__.co_firstlineno + 1}@inner"
    assert first[-2].startswith(f"{here}:")
    # Cached names are reused: the same result on a second walk from the same line.
    assert second == first
    package_dir = os.path.dirname(proton.__file__)
    assert not any(package_dir in frame for frame in first)


def test_python_context_depth_is_stack_depth(tmp_path):
    proc = run_python("""
        import proton
        proton.start("d", context="python")
        def f():
            return proton.context.depth(0)
        print(proton.context.depth(0), f())
        proton.finalize()
    """, tmp_path)
    assert proc.stdout.split() == [b"1", b"2"]


def test_bootstrap_and_extra_filter_dirs_are_dropped(tmp_path):
    # A sitecustomize-like helper in a directory named like the launcher's bootstrap, and a
    # helper in a directory registered through proton._frame_filters.add.
    boot = tmp_path / "boot"
    boot.mkdir()
    (boot / "launcher_helper.py").write_text(
        "def run(fn):\n"
        "    return fn()\n")
    run_python("""
        import sys
        sys.path.insert(0, "boot")
        import proton
        import launcher_helper
        proton._frame_filters.add("boot")

        def user():
            with proton.scope("s", {"k": 1}):
                pass

        proton.start("b", context="python")
        launcher_helper.run(user)
        proton.finalize()
    """, tmp_path)
    doc = load(tmp_path / "b.hatchet")
    script = str(tmp_path / "script.py")
    paths = all_paths(doc[0])
    assert paths == [(f"{script}:13@<module>",),
                     (f"{script}:13@<module>", f"{script}:9@user")], paths
