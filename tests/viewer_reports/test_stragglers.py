"""proton-viewer --merge --stragglers (viewer.md §11.15) on part files of 8 ranks and 8 steps
whose answers are known: rank5 is made 50% slower in matmul in steps 3-7, so it is each of
those steps' slowest rank, lagging the median by a known amount that matmul explains, and a
persistent straggler (slow in 5 of its 8 steps)."""
import csv
import json
import re

import pytest

import synth
from conftest import run_viewer

RANKS = 8
STEPS = 8


def kernels(rank, step):
    slow = 1.5 if rank == 5 and 3 <= step <= 7 else 1.0
    return {"step/matmul": 3e6 * slow * (1 + 0.01 * rank), "step/add": 1e6,
            "step/attn/flash": 2e6}


@pytest.fixture
def parts(tmp_path):
    return [synth.write_part(tmp_path, f"run.rank{r}", s, kernels(r, s))
            for r in range(RANKS) for s in range(STEPS)]


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def step_totals(step):
    return [sum(kernels(r, step).values()) / 1e6 for r in range(RANKS)]


def test_the_slow_rank_and_its_lag_are_found(parts):
    result = run_viewer("-m", "time/ms", "--merge", "--stragglers", *parts)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == ("stragglers: 8 ranks, 8 steps; time/ms of each rank's part at ROOT; "
                        "slow: more than 5% above the step's median")
    rows = {int(l.split()[0]): l.split() for l in lines[2:2 + STEPS]}
    for step in range(STEPS):
        totals = step_totals(step)
        slow = max(range(RANKS), key=lambda r: (totals[r], -r))
        m = median(totals)
        assert rows[step][1:5] == ["8", f"{m:.3f}", f"rank{slow}", f"{totals[slow]:.3f}"]
        assert rows[step][5] == f"{100 * (totals[slow] - m) / m:+.1f}%"
        assert rows[step][6] == "matmul"  # the frame that explains the lag
    matmul = [3 * (1.5 if r == 5 else 1) * (1 + 0.01 * r) for r in range(RANKS)]
    assert rows[4][7] == f"(+{matmul[5] - median(matmul):.3f})"
    assert lines[2 + STEPS:] == [
        "persistent stragglers (slow in more than half of their steps):",
        f"  rank5: slow in 5 of 8 steps, the slowest in 5, median lag "
        f"{100 * (step_totals(3)[5] - median(step_totals(3))) / median(step_totals(3)):+.1f}%"]


def test_a_higher_threshold_finds_no_persistent_straggler(parts):
    result = run_viewer("-m", "time/ms", "--merge", "--stragglers=30", *parts)
    assert result.returncode == 0, result.stderr
    assert "slow: more than 30% above" in result.stdout
    assert result.stdout.endswith("persistent stragglers: none\n")


def test_excluding_the_slow_kernel_removes_the_lag(parts):
    # A raw inclusive metric is summed again after -e (§5.4); time/ms, derived before the
    # filters, would keep the excluded time.
    result = run_viewer("-m", "time", "--merge", "--stragglers", "-e", "matmul", *parts)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("persistent stragglers: none\n")
    assert re.search(r"^ +3 +8 +3000000\.000 +rank0 +3000000\.000 +\+0\.0%$", result.stdout,
                     re.M)


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_export_has_one_row_per_step_and_rank(parts, tmp_path, suffix):
    out = tmp_path / f"s.{suffix}"
    result = run_viewer("-m", "time/ms", "--merge", "--stragglers", "--export", out, *parts)
    assert result.returncode == 0, result.stderr
    if suffix == "jsonl":
        rows = [json.loads(l) for l in out.read_text().splitlines()]
    else:
        rows = list(csv.DictReader(out.open()))
    assert len(rows) == RANKS * STEPS
    assert list(rows[0]) == ["step", "rank", "file", "time/ms", "median", "lag", "slowest",
                             "slow", "persistent", "top_frame", "top_excess"]
    slow = [r for r in rows if r["slowest"] in (True, "true") and int(r["step"]) in range(3, 8)]
    assert [r["rank"] for r in slow] == ["rank5"] * 5
    row = [r for r in rows if int(r["step"]) == 3 and r["rank"] == "rank5"][0]
    totals = step_totals(3)
    assert float(row["time/ms"]) == pytest.approx(totals[5])
    assert float(row["lag"]) == pytest.approx((totals[5] - median(totals)) / median(totals))
    assert row["persistent"] in (True, "true")
    top = row["top_frame"] if suffix == "jsonl" else json.loads(row["top_frame"])
    assert top == ["ROOT", "step", "matmul"]
    assert row["file"].endswith("run.rank5.part_3.hatchet")


def test_html_page_carries_the_report(parts, tmp_path):
    page = tmp_path / "s.html"
    result = run_viewer("-m", "time/ms", "--merge", "--stragglers", "--html", page, *parts)
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="proton-data">(.*?)</script>',
                                text, re.S).group(1))
    st = data["stragglers"]
    assert st["ranks"] == [f"rank{r}" for r in range(RANKS)]
    assert st["steps"] == list(range(STEPS))
    assert st["slowest"][3:8] == [5] * 5
    assert st["persistent"] == [r == 5 for r in range(RANKS)]
    assert st["topFrame"][3] == ["ROOT", "step", "matmul"]


@pytest.mark.parametrize("args,message", [
    (["--stragglers", "a.part_0.hatchet"], "--stragglers needs --merge"),
    (["--merge=sum", "--stragglers", "a.part_0.hatchet", "b.part_0.hatchet"],
     "--stragglers needs --merge=stats (the default), not --merge=sum"),
    (["--merge", "--stragglers", "a.hatchet", "b.part_0.hatchet"],
     "--stragglers needs part files named NAME.part_<phase>.<format>: 'a.hatchet'"),
    (["--merge", "--stragglers", "x/a.part_1.hatchet", "x/a.part_01.hatchet"],
     "--stragglers: 'x/a.part_1.hatchet' and 'x/a.part_01.hatchet' are both phase 1 of 'x/a'"),
    (["--merge", "--stragglers", "a.part_0.hatchet", "a.part_1.hatchet"],
     "--stragglers needs the parts of two ranks or more (every FILE is a part of 'a')"),
    (["--merge", "--stragglers=-1", "a.part_0.hatchet"],
     "argument --stragglers: expected PCT (a number >= 0): '-1'"),
])
def test_usage_errors(args, message):
    with_metric = args if "--stragglers=-1" in args else ["-m", "time/ms", *args]
    result = run_viewer(*with_metric)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == "proton-viewer: error: " + message


def test_needs_a_metric():
    result = run_viewer("--merge", "--stragglers", "a.part_0.hatchet", "b.part_0.hatchet")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == "proton-viewer: error: --stragglers needs a metric (-m)"
