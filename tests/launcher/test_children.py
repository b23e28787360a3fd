"""Child processes and per-process files (profiler.md §2.9; N8)."""

import os
import re

import pytest

from conftest import base_env, frame_names, hatchets, load, run, write

CHILDREN = """
    import multiprocessing, os, subprocess, sys
    import proton

    def spawn_worker(i):
        with proton.scope("spawn_%d" % i):
            pass

    def fork_worker():
        with proton.scope("fork_worker"):
            pass
        os._exit(0)

    def idle():
        pass

    if __name__ == "__main__":
        os.chdir("/")  # files stay next to each other (D8)
        with proton.scope("parent"):
            spawn = multiprocessing.get_context("spawn")
            workers = [spawn.Process(target=spawn_worker, args=(i,)) for i in range(2)]
            fork = multiprocessing.get_context("fork").Process(target=fork_worker)
            helper = spawn.Process(target=idle)
            for p in workers + [fork, helper]:
                p.start()
            for p in workers + [fork, helper]:
                p.join()
                assert p.exitcode == 0, p.exitcode
            code = "import proton\\nwith proton.scope('ranked'): pass\\n"
            env = dict(os.environ, RANK="1", WORLD_SIZE="2")
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
            # A second process with RANK=1 (a rank's own worker) gets .rank1.pid<P>.
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
            print("pids", " ".join(str(p.pid) for p in workers + [fork, helper]))
"""


def test_children_files(work):
    write(work, "kids.py", CHILDREN)
    result = run(["-n", "out/dir/x", "kids.py"], work)  # out/dir does not exist yet (D4)
    assert result.returncode == 0, result.stderr
    pids = result.stdout.split()[1:]
    out = os.path.join(work, "out", "dir")
    files = hatchets(out)
    spawn_pids, fork_pid, helper_pid = pids[:2], pids[2], pids[3]
    expected = {"x.hatchet", "x.rank1.hatchet"} | {"x.pid%s.hatchet" % p
                                                   for p in spawn_pids + [fork_pid]}
    rank_pid = [f for f in files if re.fullmatch(r"x\.rank1\.pid\d+\.hatchet", f)]
    assert len(rank_pid) == 1, files
    assert set(files) == expected | set(rank_pid), files
    assert "x.pid%s.hatchet" % helper_pid not in files
    assert "parent" in frame_names(load(os.path.join(out, "x.hatchet")))
    for i, pid in enumerate(spawn_pids):
        assert "spawn_%d" % i in frame_names(load(os.path.join(out, "x.pid%s.hatchet" % pid)))
    fork_names = frame_names(load(os.path.join(out, "x.pid%s.hatchet" % fork_pid)))
    assert "fork_worker" in fork_names and "parent" not in fork_names  # never the parent's data
    assert "ranked" in frame_names(load(os.path.join(out, "x.rank1.hatchet")))
    # More than 4 files: the final line gives their count, folder, first and last, with the
    # folder as the user typed the name.
    line = [l for l in result.stderr.splitlines() if l.startswith("proton: wrote ")]
    assert line == ["proton: wrote %d files in out/dir/ (x.hatchet, ..., %s)" % (
        len(files), rank_pid[0])], result.stderr


MANY_FORKS = """
    import os, sys
    import proton
    count = int(sys.argv[1])
    with proton.scope("parent"):
        pids = []
        for i in range(count):
            pid = os.fork()
            if pid == 0:
                with proton.scope("child"):
                    pass
                os._exit(0)
            pids.append(pid)
        for pid in pids:
            _, status = os.waitpid(pid, 0)
            assert os.waitstatus_to_exitcode(status) == 0
    print(" ".join(map(str, pids)))
"""


@pytest.mark.parametrize("children", [3, 60])
def test_many_children_give_a_short_wrote_line(work, children):
    """Up to 4 files the line lists them all; a run of many processes (ranks, workers,
    periodic-flushing parts) gets one short line, however many files it wrote (§2.9)."""
    write(work, "forks.py", MANY_FORKS)
    result = run(["-n", "out/x", "forks.py", str(children)], work)
    assert result.returncode == 0, result.stderr
    pids = result.stdout.split()
    files = hatchets(os.path.join(work, "out"))
    assert files == sorted(["x.hatchet"] + ["x.pid%s.hatchet" % pid for pid in pids])
    # Root first, then by name with numbers by value: the pids in increasing order.
    listed = ["x.hatchet"] + ["x.pid%d.hatchet" % pid for pid in sorted(map(int, pids))]
    line = [l for l in result.stderr.splitlines() if l.startswith("proton: wrote ")]
    if children < 4:
        assert line == ["proton: wrote " + ", ".join("out/" + f for f in listed)]
    else:
        assert line == ["proton: wrote %d files in out/ (x.hatchet, ..., %s)" % (
            children + 1, listed[-1])]


PHASES = """
    import sys
    import proton
    for step in range(int(sys.argv[1])):
        with proton.scope("step%d" % step, {"tokens": step}):
            pass
        proton.data.advance_phase()
"""


def test_many_periodic_flushing_parts_give_a_short_wrote_line(work):
    """Hundreds of part files (one per phase) end in one short line, parts in phase order."""
    write(work, "phases.py", PHASES)
    result = run(["-m", "periodic_flushing", "-n", "out/run", "phases.py", "300"], work)
    assert result.returncode == 0, result.stderr
    # Phase 300, after the last advance, recorded nothing: no part (profiler.md §3.11).
    assert len(hatchets(os.path.join(work, "out"))) == 300
    line = [l for l in result.stderr.splitlines() if l.startswith("proton: wrote ")]
    assert line == ["proton: wrote 300 files in out/ (run.part_0.hatchet, ..., "
                    "run.part_299.hatchet)"]


def test_shell_root_rename_rule(work):
    write(work, "s.py", "import proton\nwith proton.scope('from_python'): pass\n")
    write(work, "run.sh", '#!/bin/sh\n"$PROTON_PYTHON" s.py\necho done\n', 0o755)
    result = run(["-n", "shell", "./run.sh"], work)
    assert result.returncode == 0, result.stderr
    assert hatchets(work) == ["shell.hatchet"]
    assert "from_python" in frame_names(load(os.path.join(work, "shell.hatchet")))
    assert "proton: wrote" not in result.stderr


def test_root_only_prints_no_line_unless_verbose(work):
    write(work, "s.py", "pass\n")
    assert "proton: wrote" not in run(["s.py"], work).stderr
    verbose = run(["s.py"], work, env=base_env(PROTON_VERBOSE="1"))
    assert "proton: wrote proton.hatchet\n" in verbose.stderr


def test_rank_root_with_world_size(work):
    write(work, "s.py", "import proton\nwith proton.scope('r'): pass\n")
    result = run(["-n", "t", "s.py"], work, env=base_env(RANK="0", WORLD_SIZE="2"))
    assert result.returncode == 0, result.stderr
    assert hatchets(work) == ["t.rank0.hatchet"]
    result = run(["-n", "u", "s.py"], work, env=base_env(RANK="0", WORLD_SIZE="1"))
    assert "u.hatchet" in hatchets(work)


def test_idle_fork_child_of_a_recording_parent_writes_nothing(work):
    write(work, "f.py", """
        import multiprocessing, os
        import proton
        with proton.scope("parent_scope"):
            pass

        def idle():
            pass

        if __name__ == "__main__":
            p = multiprocessing.get_context("fork").Process(target=idle)
            p.start()
            p.join()
            pid = os.fork()
            if pid == 0:
                os._exit(0)  # a bare fork child that records nothing
            os.waitpid(pid, 0)
    """)
    result = run(["-n", "f", "f.py"], work)
    assert result.returncode == 0, result.stderr
    assert hatchets(work) == ["f.hatchet"]
    assert "proton: wrote" not in result.stderr


def test_child_scope_before_any_cuda_call_is_recorded(work):
    # On a GPU machine a non-root process starts session 0 at its first CUDA call (injection),
    # so the fork child below has no session when it enters its scope. Pretending the driver is
    # present takes that path here: the scope must start the session (scopes only, no cuInit)
    # and the child must write its own file.
    write(work, "g.py", """
        import multiprocessing, os, sys
        import proton

        def child():
            with proton.scope("child_scope"):
                pass

        if __name__ == "__main__":
            sys.modules["_proton_cli_process"]._gpu_driver_present = lambda: True
            p = multiprocessing.get_context("fork").Process(target=child)
            p.start()
            p.join()
            print("child", p.pid)
    """)
    result = run(["-n", "g", "g.py"], work)
    assert result.returncode == 0, result.stderr
    pid = int(result.stdout.split()[-1])
    assert sorted(hatchets(work)) == sorted(["g.hatchet", "g.pid%d.hatchet" % pid])
    assert "child_scope" in frame_names(load(os.path.join(str(work), "g.pid%d.hatchet" % pid)))
