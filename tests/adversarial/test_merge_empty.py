"""--merge takes a valid profile with no data (the part of a phase that recorded nothing, as
earlier versions and Triton write it; a rank that ran none of the frames): it holds no frame
and adds nothing. Only a merge of nothing but such files has no data (viewer.md §11.11)."""

import json
import os

import pytest

from conftest import REFDATA, run_viewer

EMPTY = [{"children": [], "frame": {"name": "ROOT", "type": "function"}, "metrics": {}}, {}]
PROFILE = os.path.join(REFDATA, "gpt2_shadow.hatchet")


@pytest.fixture
def empty(tmp_path):
    path = os.path.join(str(tmp_path), "run.part_40.hatchet")
    with open(path, "w") as f:
        json.dump(EMPTY, f)
    return path


def test_sum_with_an_empty_part_equals_the_sum_without_it(empty):
    alone = run_viewer(["-m", "time/ms", "--merge=sum", PROFILE, PROFILE])
    with_empty = run_viewer(["-m", "time/ms", "--merge=sum", PROFILE, empty, PROFILE])
    assert with_empty.returncode == 0, with_empty.stderr.decode()
    assert with_empty.stdout == alone.stdout


def test_stats_count_an_empty_file_as_holding_no_frame(empty):
    result = run_viewer(["-m", "time/ms", "--merge=stats", PROFILE, empty, PROFILE])
    assert result.returncode == 0, result.stderr.decode()
    root = result.stdout.decode().splitlines()[0].split()
    assert root[-1] == "ROOT" and root[-2] == "2"  # two of the three files hold ROOT


@pytest.mark.parametrize("mode", ["sum", "stats"])
def test_a_merge_of_empty_files_only_has_no_data(empty, mode):
    result = run_viewer(["-m", "time/ms", "--merge=" + mode, empty, empty])
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "proton-viewer: error: '<merge of 2 files>' contains no profile data\n")
