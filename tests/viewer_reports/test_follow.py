"""proton-viewer --follow RUN (viewer.md §11.14) on part files written while it watches:
one block per phase in a pipe, in phase order, with the known totals and slowest rank; parts
that appear late, are half written or vanish; the end markers end it; the timeout, signals,
a closed pipe and a terminal."""
import os
import pty
import re
import signal
import subprocess
import time

import pytest

import synth
from conftest import VIEWER, run_viewer

# Two ranks, four phases; rank1 is 30% slower in phase 2 (known answers below).
def kernels(rank, phase):
    slow = 1.3 if rank == 1 and phase == 2 else 1.0
    return {"step/matmul": 3e6 * (1 + 0.1 * phase) * slow, "step/add": 1e6,
            "step/attn/flash": 2e6}


def start(folder, *args):
    return subprocess.Popen([VIEWER, "--follow", *map(str, args)], cwd=str(folder),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def blocks(stdout):
    return re.findall(r"^== phase (\d+) of ", stdout, re.M)


def test_blocks_appear_phase_by_phase_and_the_markers_end_the_run(tmp_path):
    viewer = start(tmp_path, "run.rank*", "--follow-timeout", "20")
    time.sleep(0.6)  # started before the first part exists
    for phase in range(4):
        for rank in range(2):
            synth.write_part(tmp_path, f"run.rank{rank}", phase, kernels(rank, phase))
        time.sleep(0.3)
    assert viewer.poll() is None  # no marker yet: still watching
    for rank in range(2):
        synth.write_end(tmp_path, f"run.rank{rank}", 4)
    out, err = viewer.communicate(timeout=20)
    assert viewer.returncode == 0, err
    assert err == ""
    assert blocks(out) == ["0", "1", "2", "3"]  # each phase once, in order
    phase2 = out.split("== phase 2 ")[1].split("== phase 3 ")[0]
    # 2 * (3.6 ms matmul [rank1: 4.68] + 1 + 2): 6.6 + 7.68 = 14.28 ms.
    assert "time/ms  14.280  (phase 1: 12.600, +13.3%)" in phase2
    assert "slowest rank1 7.680 (+7.6% over the median 7.140); fastest rank0 6.600" in phase2
    assert re.search(r"^  matmul +8\.280 +58\.0% +20\.880 +53\.7%$", phase2, re.M), phase2
    assert re.search(r"^  step/attn +4\.000", phase2, re.M)
    assert "history  ▇██  phases 0-2, 12.000 to 14.280" in phase2
    assert out.rstrip().endswith("== 'run.rank*' ended: 4 phases, 8 parts from 2 ranks ==")


def test_a_finished_run_is_shown_whole_at_once(tmp_path):
    for phase in range(3):
        synth.write_part(tmp_path, "run", phase, {"k": 1e6 * (phase + 1)})
    synth.write_end(tmp_path, "run", 3)
    result = run_viewer("--follow", "run", "-m", "time/us", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert blocks(result.stdout) == ["0", "1", "2"]
    assert "time/us  3000.000  (phase 1: 2000.000, +50.0%)" in result.stdout
    assert "ranks " not in result.stdout  # one process: no rank line


def test_gaps_in_part_numbers_and_a_late_rank(tmp_path):
    # An empty phase gets no part (profiler.md §3.11): phase 1 is missing for rank0.
    synth.write_part(tmp_path, "run.rank0", 0, {"k": 1e6})
    synth.write_part(tmp_path, "run.rank0", 2, {"k": 2e6})
    synth.write_part(tmp_path, "run.rank1", 0, {"k": 1e6})
    synth.write_part(tmp_path, "run.rank1", 1, {"k": 5e6})
    synth.write_part(tmp_path, "run.rank1", 2, {"k": 2e6})
    for rank in range(2):
        synth.write_end(tmp_path, f"run.rank{rank}", 3)
    result = run_viewer("--follow", "run.rank*", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert blocks(result.stdout) == ["0", "1", "2"]
    assert "ranks    1 of 2; slowest rank1 5.000" in result.stdout


def test_half_written_vanishing_and_temporary_files(tmp_path):
    viewer = start(tmp_path, "run", "--follow-timeout", "20")
    synth.write_part(tmp_path, "run", 0, {"k": 1e6})
    # A temporary file as the profiler names it, and a part being written in place: neither
    # is read until whole.
    (tmp_path / ".proton-1-0.tmp").write_text("[{")
    text = synth.json.dumps(synth.profile({"k": 2e6}))
    part1 = tmp_path / "run.part_1.hatchet"
    part1.write_text(text[:len(text) // 2])
    time.sleep(1.0)
    part1.write_text(text)
    time.sleep(0.6)
    # A part read and then removed changes nothing.
    (tmp_path / "run.part_0.hatchet").unlink()
    synth.write_part(tmp_path, "run", 2, {"k": 3e6})
    time.sleep(0.6)
    synth.write_end(tmp_path, "run", 3)
    out, err = viewer.communicate(timeout=20)
    assert viewer.returncode == 0, err
    assert err == ""
    assert blocks(out) == ["0", "1", "2"]
    assert "time/ms  2.000  (phase 0: 1.000, +100.0%)" in out
    assert "history  ▃▆█  phases 0-2, 1.000 to 3.000" in out


def test_a_part_that_stays_broken_is_reported_once_and_skipped(tmp_path):
    synth.write_part(tmp_path, "run", 0, {"k": 1e6})
    (tmp_path / "run.part_1.hatchet").write_text("[{\"children\": [")
    viewer = start(tmp_path, "run", "--follow-timeout", "20")
    time.sleep(3.0)  # longer than the 2 s a part may stay unreadable
    synth.write_part(tmp_path, "run", 2, {"k": 3e6})
    synth.write_end(tmp_path, "run", 3)
    out, err = viewer.communicate(timeout=20)
    assert viewer.returncode == 0, err
    assert err == ("proton-viewer: warning: skipping 'run.part_1.hatchet': cannot read "
                   "'run.part_1.hatchet': not a JSON or MessagePack profile\n")
    assert blocks(out) == ["0", "2"]


def test_a_run_that_never_advanced_ends_with_its_plain_file(tmp_path):
    synth.write_profile(str(tmp_path / "run.hatchet"), {"s/k": 4e6})
    result = run_viewer("--follow", "run", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert blocks(result.stdout) == ["0"]
    assert "time/ms  4.000" in result.stdout
    assert result.stdout.rstrip().endswith("ended: 1 phases, 1 parts from 1 rank ==")


def test_the_timeout_ends_a_run_that_writes_nothing(tmp_path):
    begin = time.monotonic()
    result = run_viewer("--follow", "run", "--follow-timeout", "1", cwd=tmp_path)
    assert time.monotonic() - begin < 10
    assert result.returncode == 1
    assert result.stderr == ("proton-viewer: error: no new part of 'run' for 1 seconds "
                             "(--follow-timeout)\n")
    assert result.stdout == ""


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signals_end_it_cleanly(tmp_path, sig, status):
    synth.write_part(tmp_path, "run", 0, {"k": 1e6})
    viewer = start(tmp_path, "run")
    time.sleep(0.8)
    viewer.send_signal(sig)
    out, err = viewer.communicate(timeout=10)
    assert viewer.returncode == status
    assert err == ""
    assert blocks(out) == ["0"]


def test_a_closed_pipe_ends_it_quietly(tmp_path):
    for phase in range(50):
        synth.write_part(tmp_path, "run", phase, {f"k{i}": 1e6 for i in range(50)})
    synth.write_end(tmp_path, "run", 50)
    proc = subprocess.run(f"'{VIEWER}' --follow run | head -c 10", shell=True, cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=30)
    assert proc.stderr == ""
    assert proc.stdout == "== phase 0"


@pytest.mark.parametrize("args,status,message", [
    (["--follow", "nofolder/run"], 1,
     "cannot follow 'nofolder/run': folder 'nofolder': No such file or directory"),
    (["--follow", "o*/run"], 2, "argument --follow: the folder must not hold wildcards: 'o*/run'"),
    (["--follow", "run["], 2, "argument --follow: unclosed '[' in the pattern: 'run['"),
    (["--follow", "out/"], 2, "argument --follow: RUN must name a profile, not a folder: 'out/'"),
    (["--follow", "run.part_3.hatchet"], 2,
     "argument --follow: RUN is the profile's name (NAME of NAME.part_<phase>.<format>), not a "
     "file: 'run.part_3.hatchet'"),
    (["--follow", ""], 2, "argument --follow: RUN must not be empty"),
    (["--follow", "run", "x.hatchet"], 2, "--follow takes no FILE (got 1)"),
    (["--follow", "run", "-m", "count"], 2,
     "--follow shows GPU time: -m must be one of time/s, time/ms, time/us, time/ns"),
    (["--follow", "run", "--merge"], 2, "--follow cannot be used with --merge"),
    (["--follow", "run", "--follow-timeout", "0"], 2,
     "argument --follow-timeout: expected seconds (> 0): '0'"),
    (["--follow-timeout", "3", "-m", "time/ms", "x"], 2, "--follow-timeout needs --follow"),
])
def test_bad_runs_and_options_are_one_line(tmp_path, args, status, message):
    result = run_viewer(*args, cwd=tmp_path)
    assert result.returncode == status
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[-1] == "proton-viewer: error: " + message
    assert len(lines) == (1 if status == 1 else 5)  # usage errors follow the usage block


def test_a_terminal_is_redrawn_in_place(tmp_path):
    for phase in range(3):
        synth.write_part(tmp_path, "run", phase, {"k": 1e6 * (phase + 1)})
    synth.write_end(tmp_path, "run", 3)
    master, slave = pty.openpty()
    proc = subprocess.Popen([VIEWER, "--follow", "run"], cwd=str(tmp_path), stdout=slave,
                            stderr=subprocess.PIPE)
    os.close(slave)
    screen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the slave side closed
            break
        if not chunk:
            break
        screen += chunk
    os.close(master)
    assert proc.wait(timeout=20) == 0
    text = screen.decode()
    assert text.startswith("\x1b[H\x1b[2J")  # the waiting screen, then each redraw over it
    last = text.split("\x1b[H\x1b[2J")[-1]
    assert last.startswith("== phase 2 of 'run' ==")  # only the newest phase on screen
    assert "'run' ended: 3 parts read" in last
