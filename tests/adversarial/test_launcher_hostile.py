"""Hostile targets, paths and sizes for the `proton` command (profiler.md §2.3, §2.6, §2.9):
each gives one clear line and a non-zero status before the target runs, and nothing waits
forever. Before these fixes a FIFO target hung, an unusable output folder was found only
after the target had run (a warning, exit 0, no profile), a newline or stray byte in a path
split or garbled the error line, and "Argument list too long" did not say that proton's own
variables tipped the command over the limit."""

import errno
import os
import subprocess

import pytest

from conftest import (LAUNCHER, PYTHON, PYTHON_DIR, clean_env, one_error_line, run_launcher,
                      small_tmpfs)

SCRIPT = "open('ran', 'w').close()\n"  # leaves `ran` behind when the target ran at all


def write_script(directory, name="s.py"):
    path = os.path.join(str(directory), name)
    with open(path, "w") as f:
        f.write(SCRIPT)
    return path


def test_named_fifo_target_is_refused_instead_of_waiting_for_a_writer(tmp_path):
    os.mkfifo(str(tmp_path / "job.py"))
    result = run_launcher(["job.py"], tmp_path, timeout=30)
    assert result.returncode == 126
    assert one_error_line(result.stderr) == (
        "proton: error: target is a named pipe (FIFO), which would wait for a writer, "
        "not a script or executable: job.py")
    # An anonymous pipe (`proton <(generate)` passes /dev/fd/N) holds the script: it runs.
    read_end, write_end = os.pipe()
    os.write(write_end, SCRIPT.encode())
    os.close(write_end)
    try:
        result = run_launcher(["/dev/fd/%d" % read_end], tmp_path, timeout=60,
                              pass_fds=(read_end,))
    finally:
        os.close(read_end)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "ran").exists()


@pytest.mark.parametrize("name, shown", [
    (b"missing\nscript.py", "missing\\nscript.py"),
    (b"no\xffpe.py", "no\\xffpe.py"),
    (b"\x1b[2Jclear.py", "\\x1b[2Jclear.py"),
])
def test_target_names_are_shown_on_one_printable_line(tmp_path, name, shown):
    result = run_launcher([name], tmp_path, timeout=30)
    assert result.returncode == 127
    assert one_error_line(result.stderr) == "proton: error: target not found: " + shown


def test_output_folder_that_is_a_file_is_refused_before_the_target_runs(tmp_path):
    write_script(tmp_path)
    (tmp_path / "taken").write_text("a file where the folder should be\n")
    for name, folder in (("taken/x", "taken/"), ("taken/deeper/x", "taken/deeper/")):
        result = run_launcher(["-n", name, "s.py"], tmp_path, timeout=30)
        assert result.returncode == 1
        assert one_error_line(result.stderr) == (
            "proton: error: cannot write profiles to %s/%s: Not a directory" % (tmp_path, folder))
        assert not (tmp_path / "ran").exists()


def test_output_folder_on_a_full_file_system_is_refused_before_the_target_runs(tmp_path):
    with small_tmpfs(tmp_path / "full", "16k") as full:
        with open(str(full / "filler"), "wb") as f:
            try:
                f.write(b"\0" * (1 << 20))
                f.flush()
            except OSError as e:
                assert e.errno == errno.ENOSPC
        write_script(tmp_path)
        result = run_launcher(["-n", "full/new/x", "s.py"], tmp_path, timeout=30)
        assert result.returncode == 1
        assert one_error_line(result.stderr) == (
            "proton: error: cannot write profiles to %s/full/new/: No space left on device"
            % tmp_path)
        assert not (tmp_path / "ran").exists()


def test_tmpdir_with_a_newline_is_one_line(tmp_path):
    write_script(tmp_path)
    result = run_launcher(["s.py"], tmp_path, timeout=30,
                          env=clean_env(TMPDIR=str(tmp_path / "no\nsuch")))
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (
        "proton: error: cannot create the run directory in %s/no\\nsuch: No such file or "
        "directory" % tmp_path)


def test_profile_path_with_a_newline_is_refused(tmp_path):
    # The run directory records each file on one line: such a file would be lost to the
    # rename rule and the final "proton: wrote" line.
    write_script(tmp_path)
    result = run_launcher(["-n", "a\nb", "s.py"], tmp_path, timeout=30)
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (
        "proton: error: profile paths cannot hold a newline: %s/a\\nb (choose another name "
        "with -n)" % tmp_path)
    assert not (tmp_path / "ran").exists()
    folder = tmp_path / "my\nproject"  # the default name lies in the current folder
    folder.mkdir()
    write_script(folder)
    result = run_launcher(["s.py"], folder, timeout=30)
    assert result.returncode == 1
    assert "cannot hold a newline: %s/my\\nproject/proton " % tmp_path in one_error_line(
        result.stderr)


def test_wrote_line_shows_control_characters_escaped(tmp_path):
    write_script(tmp_path)
    result = run_launcher(["-n", "a\x1b[2Jb", "s.py"], tmp_path, timeout=60,
                          env=clean_env(PROTON_VERBOSE="1"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "a\x1b[2Jb.hatchet").exists()
    wrote = [line for line in result.stderr.decode().splitlines()
             if line.startswith("proton: wrote")]
    assert wrote == ["proton: wrote a\\x1b[2Jb.hatchet"]


def launches(args):
    """Whether the kernel accepts `proton /bin/true ARGS` at all (E2BIG otherwise)."""
    try:
        return subprocess.run([LAUNCHER, "/bin/true"] + args, env=clean_env(),
                              capture_output=True, timeout=30)
    except OSError as e:
        assert e.errno == errno.E2BIG
        return None


def padding(size):
    """About `size` bytes of arguments, none over the kernel's 128 KiB per argument."""
    return ["x" * 999] * (size // 1000) + ["y" * (size % 1000)]


def test_argument_list_at_the_limit_names_what_proton_added(tmp_path):
    # Bisect for the longest argument list the launcher itself is started with.
    low, high = 0, os.sysconf("SC_ARG_MAX")  # starts with `low` bytes, not with `high`
    assert launches(padding(low)) is not None and launches(padding(high)) is None
    while high - low > 1:
        middle = (low + high) // 2
        if launches(padding(middle)) is None:
            high = middle
        else:
            low = middle
    result = launches(padding(low))
    # The launcher ran; the target, with proton's variables added, cannot.
    assert result.returncode == 126, result.stderr[-500:]
    line = one_error_line(result.stderr)
    assert line.startswith("proton: error: cannot execute /bin/true: Argument list too long "
                           "(the arguments and environment, with the "), line
    assert "bytes of variables proton adds, exceed the system's limit of" in line


def test_python_entry_point_that_cannot_exec_the_launcher_is_one_line(tmp_path):
    # `python -m proton` and the installed `proton` script exec the launcher: an argument list
    # over the limit used to end in an OSError traceback.
    code = ("import sys, proton._cli as cli\n"
            "sys.exit(cli.main(['/bin/true'] + ['x' * 999] * %d))\n"
            % (os.sysconf("SC_ARG_MAX") // 1000 + 10))
    result = subprocess.run([PYTHON, "-c", code], cwd=str(tmp_path), capture_output=True,
                            timeout=60, env=clean_env(PYTHONPATH=PYTHON_DIR))
    assert result.returncode == 126
    line = one_error_line(result.stderr)
    assert line.startswith("proton: error: cannot execute "), line
    assert line.endswith("/proton: Argument list too long"), line
