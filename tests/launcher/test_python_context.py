"""`-c python` paths start at the script, with no launcher, bootstrap, package or runpy
frames (profiler.md §2.8; N10)."""

import os

from conftest import load, paths, run, write


def test_python_context_paths(work):
    script = write(work, "pc.py", """
        import proton

        def main():
            with proton.scope("work", {"flops": 3.0}):
                pass

        main()
    """)
    result = run(["-n", "pc", "-c", "python", "pc.py"], work)
    assert result.returncode == 0, result.stderr
    doc = load(os.path.join(work, "pc.hatchet"))
    all_paths = paths(doc)
    assert all_paths
    for path, _ in all_paths:
        assert path[0].startswith(script + ":") and path[0].endswith("@<module>"), path
        for frame in path:
            assert "proton_bootstrap" not in frame and "runpy" not in frame, path
            assert "/proton/" not in frame, path
    metric_nodes = [(p, n) for p, n in all_paths if n.get("metrics", {}).get("flops") == 3.0]
    assert len(metric_nodes) == 1
    path, _ = metric_nodes[0]
    assert path == [script + ":7@<module>", script + ":4@main"], path


def test_python_context_pytest(work):
    write(work, "test_pc.py", """
        import proton
        def test_x():
            with proton.scope("t", {"flops": 1.0}):
                pass
    """)
    result = run(["-n", "pt", "-c", "python", "pytest", "-q", "-p", "no:cacheprovider",
                  "test_pc.py"], work)
    assert result.returncode == 0, result.stdout + result.stderr
    for path, _ in paths(load(os.path.join(work, "pt.hatchet"))):
        assert "runpy" not in path[0] and "proton_bootstrap" not in " ".join(path), path
