"""proton-viewer --baseline (viewer.md §11.16): several runs per side compared by their medians,
and a --fail-above gate that counts a growth only beyond the runs' own spread. Known answers:
five baseline runs and five new runs drawn from the same noise make the single-file gate flap
(some pairs fail, some pass) but never the medians' gate; a real 20% regression fails it; one
file per side decides as --diff-profile does."""
import csv
import itertools
import json
import statistics

import pytest

import synth
from conftest import run_viewer

BASE = [100, 108, 95, 103, 97]  # matmul, us
NEW = [96, 107, 101, 99, 105]   # the same code, another day: same noise


def write_runs(folder, name, values, scale=1.0, kernel="matmul"):
    paths = []
    for i, v in enumerate(values):
        path = folder / f"{name}{i}.hatchet"
        synth.write_profile(str(path), {f"step/{kernel}": v * 1000 * scale, "step/add": 50000})
        paths.append(path)
    return paths


def quartiles(values):
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def test_single_runs_flap_but_medians_do_not(tmp_path):
    base = write_runs(tmp_path, "base", BASE)
    new = write_runs(tmp_path, "new", NEW)
    single = [run_viewer("-m", "time/us", "--fail-above", "5", "-diff", b, n).returncode
              for b, n in itertools.product(base, new)]
    assert 3 in single and 0 in single  # the single-file gate flaps
    result = run_viewer("-m", "time/us", "--fail-above", "5", "--baseline", tmp_path / "base*",
                        *new)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    growth = statistics.median(NEW) - statistics.median(BASE)
    assert result.stdout.splitlines()[3] == f"   └─ {growth:.3f} matmul"


def test_a_real_regression_fails_with_its_spread(tmp_path):
    base = write_runs(tmp_path, "base", BASE)
    slow = write_runs(tmp_path, "slow", NEW, scale=1.2)
    args = ["-m", "time/us", "--fail-above", "5,10"]
    for b in base:
        args += ["--baseline", b]
    result = run_viewer(*args, *slow)
    assert result.returncode == 3, result.stderr
    lines = result.stderr.splitlines()
    assert [json.loads(l.split(": ", 2)[2].split(" time/us")[0]) for l in lines] == [
        ["ROOT"], ["ROOT", "step"], ["ROOT", "step", "matmul"]]
    b1, bm, b3 = quartiles(BASE)
    n1, nm, n3 = quartiles([v * 1.2 for v in NEW])
    assert lines[2].startswith(
        'proton-viewer: --fail-above 5,10: ["ROOT","step","matmul"] time/us median grew from ')
    assert lines[2].endswith(" over 5 baseline files, "
                             f"{float(lines[2].split(', ')[-1].split(' ')[0])!r} over 5 files)")
    iqr_base = float(lines[2].split("IQR ")[1].split(" ")[0])
    assert iqr_base == pytest.approx(b3 - b1)
    assert float(lines[2].split(", ")[-1].split(" ")[0]) == pytest.approx(n3 - n1)


def test_a_growth_within_the_spread_does_not_fail(tmp_path):
    # Medians 100 -> 104 (+4%, past --fail-above 3), but the runs spread by an IQR of 8.
    base = write_runs(tmp_path, "base", [92, 96, 100, 104, 108])
    new = write_runs(tmp_path, "new", [96, 100, 104, 108, 112])
    result = run_viewer("-m", "time/us", "--fail-above", "3", *new,
                        *[a for b in base for a in ("--baseline", b)])
    assert (result.returncode, result.stderr) == (0, "")
    tight = write_runs(tmp_path, "tight", [103.9, 104, 104, 104, 104.1])
    base_tight = write_runs(tmp_path, "bt", [99.9, 100, 100, 100, 100.1])
    result = run_viewer("-m", "time/us", "--fail-above", "3", *tight,
                        *[a for b in base_tight for a in ("--baseline", b)])
    assert result.returncode == 3  # the same +4% with a tight spread fails


def test_one_file_per_side_decides_as_diff_profile(tmp_path):
    base = write_runs(tmp_path, "base", BASE)
    new = write_runs(tmp_path, "new", NEW)
    for b, n in itertools.product(base, new):
        diff = run_viewer("-m", "time/us", "--fail-above", "5", "-diff", b, n).returncode
        medians = run_viewer("-m", "time/us", "--fail-above", "5", "--baseline", b, n).returncode
        assert diff == medians, (b, n)


def test_export_and_normalized_names(tmp_path):
    write_runs(tmp_path, "base", BASE, kernel="triton_mm_0")
    new = write_runs(tmp_path, "new", NEW, kernel="triton_mm_1")  # recompiled: a new suffix
    out = tmp_path / "d.csv"
    result = run_viewer("-m", "time/us", "--match=normalized", "--export", out, "--baseline",
                        tmp_path / "base*.hatchet", *new)
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(out.open()))
    assert [json.loads(r["path"]) for r in rows] == [["ROOT"], ["ROOT", "step"],
                                                     ["ROOT", "step", "add"],
                                                     ["ROOT", "step", "triton_mm"]]
    growth = statistics.median(NEW) - statistics.median(BASE)
    assert float(rows[3]["time/us"]) == pytest.approx(growth)


@pytest.mark.parametrize("args,message", [
    (["--baseline", "b", "-diff", "o", "f"], "--baseline cannot be used with --diff-profile"),
    (["--baseline", "b", "--merge", "f"], "--baseline cannot be used with --merge"),
    (["--baseline", "b", "-l", "f"], "--baseline cannot be used with -l/--list"),
    (["--baseline", "b", "--html", "p.html", "f"], "--html cannot be combined with --baseline"),
    (["--baseline", "b", "--speedscope", "p.json", "f"],
     "--speedscope cannot be combined with --baseline"),
    (["--baseline", "-", "-"], "standard input ('-') can only be read once"),
    (["--baseline=", "f"], "argument --baseline: FILE must not be empty"),
])
def test_usage_errors(args, message):
    metric = [] if "-l" in args else ["-m", "time/us"]
    result = run_viewer(*metric, *args)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == "proton-viewer: error: " + message


def test_usage_errors_without_metric():
    result = run_viewer("--baseline", "b", "f")
    assert (result.returncode, result.stderr.splitlines()[-1]) == (
        2, "proton-viewer: error: --baseline needs a metric (-m)")


def test_a_pattern_that_matches_nothing_is_one_line(tmp_path):
    new = write_runs(tmp_path, "new", NEW)
    result = run_viewer("-m", "time/us", "--baseline", tmp_path / "nothing*", *new)
    assert result.returncode == 1
    assert result.stderr == (f"proton-viewer: error: --baseline '{tmp_path}/nothing*': "
                             "no file matches\n")
    result = run_viewer("-m", "time/us", "--baseline", tmp_path / "missing.hatchet", *new)
    assert result.returncode == 1
    assert result.stderr == (f"proton-viewer: error: cannot open '{tmp_path}/missing.hatchet': "
                             "No such file or directory\n")
