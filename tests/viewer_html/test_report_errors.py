"""--html/--speedscope on bad input (viewer.md §11.12, §9): the terminal's error, one line,
and no file written; an unwritable path is one line and status 1."""
import pytest

from report_helpers import REFDATA, run_viewer, write_rank_files

GOOD = REFDATA / "ref_shadow.hatchet"


@pytest.mark.parametrize("option", ["--html", "--speedscope"])
@pytest.mark.parametrize("args,status", [
    (["-m", "nosuchmetric", GOOD], 1),
    (["-m", "time/us", "missing.hatchet"], 1),
    (["-m", "time/us", "-i", "(", GOOD], 1),
    (["-m", "time/us", "-t", "1e30", GOOD], 1),
    (["-m", "time/us", "-d", "x", GOOD], 2),
])
def test_same_error_as_the_terminal_and_no_file(tmp_path, option, args, status):
    out = tmp_path / "out"
    plain = run_viewer(*args, check=False)
    with_file = run_viewer(*args, option, out, check=False)
    assert plain.returncode == status, plain.stderr
    assert with_file.returncode == status
    assert with_file.stderr == plain.stderr
    assert with_file.stdout == "" and not out.exists()


@pytest.mark.parametrize("option", ["--html", "--speedscope"])
@pytest.mark.parametrize("mode", ["stats", "sum"])
def test_merge_errors_write_no_file(tmp_path, option, mode):
    ranks = write_rank_files(tmp_path)
    out = tmp_path / "out"
    for args in (["-m", "nosuchmetric", *ranks], ["-m", "time/us", "-t", "1e30", *ranks],
                 ["-m", "time/us", *ranks, tmp_path / "missing.hatchet"]):
        plain = run_viewer(f"--merge={mode}", *args, check=False)
        with_file = run_viewer(f"--merge={mode}", *args, option, out, check=False)
        assert plain.returncode == 1 and len(plain.stderr.splitlines()) == 1, plain.stderr
        assert (with_file.returncode, with_file.stderr) == (1, plain.stderr)
        assert with_file.stdout == "" and not out.exists()
    run_viewer(f"--merge={mode}", "-m", "time/us", *ranks, option, out)
    assert out.stat().st_size > 0


@pytest.mark.parametrize("option", ["--html", "--speedscope"])
def test_unwritable_path_is_one_line(tmp_path, option):
    target = tmp_path / "no" / "such" / "dir" / "out"
    result = run_viewer("-m", "time/us", option, target, GOOD, check=False)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (f"proton-viewer: error: cannot write '{target}': "
                             "No such file or directory\n")


def test_usage_errors():
    for args, message in [
        (["--html", "x.html", GOOD], "--html needs a metric (-m)"),
        (["-m", "time/us", "--speedscope", "x.json", "-diff", GOOD, GOOD],
         "--speedscope cannot be combined with --diff-profile"),
        (["-m", "time/us", "--htm", "x.html", GOOD], "unrecognized arguments: --htm"),
    ]:
        result = run_viewer(*args, check=False)
        assert result.returncode == 2
        assert result.stderr.splitlines()[-1] == "proton-viewer: error: " + message


@pytest.mark.parametrize("mode", ["stats", "sum"])
def test_merge_terminal_output_is_unchanged(tmp_path, mode):
    ranks = write_rank_files(tmp_path)
    args = ["-m", "time/us,count", f"--merge={mode}", "--print-sorted", *ranks]
    both = run_viewer(*args, "--html", tmp_path / "p.html", "--speedscope", tmp_path / "p.json")
    assert both.stdout == run_viewer(*args).stdout
    assert (tmp_path / "p.html").stat().st_size > 0 and (tmp_path / "p.json").stat().st_size > 0


def test_terminal_output_is_unchanged(tmp_path):
    plain = run_viewer("-m", "time/us,count", "--print-sorted", GOOD)
    both = run_viewer("-m", "time/us,count", "--print-sorted", GOOD, "--html",
                      tmp_path / "p.html", "--speedscope", tmp_path / "p.json")
    assert both.stdout == plain.stdout
    assert (tmp_path / "p.html").stat().st_size > 0
