"""proton.viewer.to_sqlite (viewer.md §11.13, schema formats.md §8) read back with Python's
sqlite3 and pandas.read_sql: the tables, values equal to gf.dataframe's on every bundled tree
profile, many ranks in one table, and the errors."""

import glob
import json
import math
import os
import sqlite3

import pytest

import proton.viewer as viewer
from proton._viewer_tree import core
from viewer_cases import ROOT, command

pytestmark = pytest.mark.skipif(not core().has_sqlite, reason="proton-viewer built without SQLite")

REFDATA = sorted(glob.glob(os.path.join(ROOT, "tests", "refdata", "*.hatchet")))
TABLES = {"files", "devices", "frames", "frame_values", "metrics", "events"}
VIEWS = {"frame_paths", "frame_rows", "metric_values"}
DEVICE = {"arch": "90", "bus_width": 6016, "clock_rate": 1980000,
          "memory_clock_rate": 3201000, "num_sms": 132}


def rank_profile(times):
    """ROOT / step / <kernel> for each (kernel, time ns) of ``times``."""
    kernels = [{"frame": {"name": name, "type": "function"}, "children": [],
                "metrics": {"time (ns)": t, "count": 2, "device_id": "0", "device_type": "CUDA"}}
               for name, t in times]
    step = {"frame": {"name": "step", "type": "function"}, "metrics": {}, "children": kernels}
    root = {"frame": {"name": "ROOT", "type": "function"},
            "metrics": {"time (ns)": 0, "count": 0}, "children": [step]}
    return [root, {"CUDA": {"0": DEVICE}}]


def write_ranks(tmp_path, per_rank):
    paths = []
    for rank, times in enumerate(per_rank):
        path = tmp_path / ("run.rank%d.hatchet" % rank)
        path.write_text(json.dumps(rank_profile(times)))
        paths.append(str(path))
    return paths


def same(a, b):
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return b is not None and a == b


def test_schema_seen_from_sqlite3(tmp_path):
    db = viewer.to_sqlite(os.path.join(ROOT, "tests", "refdata", "ref_hook.hatchet"),
                          str(tmp_path / "hook.sqlite"))
    con = sqlite3.connect(db)
    kinds = dict(con.execute("SELECT name, type FROM sqlite_schema WHERE type IN "
                             "('table', 'view')").fetchall())
    assert TABLES <= {n for n, t in kinds.items() if t == "table"}
    assert VIEWS <= {n for n, t in kinds.items() if t == "view"}
    assert con.execute("PRAGMA user_version").fetchone() == (2,)
    kernels = con.execute("SELECT count(*) FROM frames WHERE kind = 'kernel'").fetchone()[0]
    assert kernels == 5


@pytest.mark.parametrize("path", REFDATA, ids=[os.path.basename(p) for p in REFDATA])
def test_values_equal_the_dataframe(path, tmp_path):
    gf, inclusive, exclusive, _ = viewer.read(path)
    df = gf.dataframe
    con = sqlite3.connect(viewer.to_sqlite(path, str(tmp_path / "p.sqlite")))
    columns = {row[0]: (row[1], row[2]) for row in
               con.execute("SELECT metric, value_column, exclusive_column FROM metrics")}
    cur = con.execute("SELECT p.path, v.* FROM frame_values v JOIN frame_paths p USING (frame_id)")
    names = [d[0] for d in cur.description]
    rows = {tuple(json.loads(r[0])): dict(zip(names, r)) for r in cur}
    assert len(rows) == len(df)
    for _, node in df.iterrows():
        row = rows[tuple(node["path"])]
        for key in inclusive:  # the value column holds the sum, the exclusive one the own value
            value, own = columns[key]
            assert same(node[key + " (inc)"], row[value]), (node["path"], key)
            assert same(node[key], row[own]), (node["path"], key)
        for key in exclusive[1:]:
            if key in columns and isinstance(node[key], (int, float)):
                assert same(node[key], row[columns[key][0]]), (node["path"], key)


def test_many_ranks_in_one_table_with_pandas(tmp_path):
    pd = pytest.importorskip("pandas")
    files = write_ranks(tmp_path, [[("gemm", 100), ("nccl_allreduce", 50)],
                                   [("gemm", 120), ("nccl_allreduce", 400)],
                                   [("gemm", 110)]])
    db = viewer.to_sqlite(files, str(tmp_path / "ranks.sqlite"), metrics=["time/us"])
    with sqlite3.connect(db) as con:
        df = pd.read_sql("SELECT rank, name, \"time (ns)\", \"time/us\" FROM frame_rows "
                         "WHERE kind = 'kernel' ORDER BY rank, name", con)
        assert list(df["rank"]) == [0, 0, 1, 1, 2]
        assert list(df["time (ns)"]) == [100, 50, 120, 400, 110]
        assert list(df["time/us"]) == pytest.approx([0.1, 0.05, 0.12, 0.4, 0.11])
        per_rank = pd.read_sql("SELECT rank, \"time (ns)\" FROM frame_rows WHERE name = 'ROOT'",
                               con).set_index("rank")["time (ns)"].to_dict()
        assert per_rank == {0: 150, 1: 520, 2: 110}
        # Only rank 1 and rank 0 ran the allreduce: 2 rows; the slowest is rank 1.
        slow = pd.read_sql("SELECT f.name, fl.rank FROM frame_values v JOIN frames f "
                           "USING (frame_id) JOIN files fl USING (file_id) WHERE f.name = "
                           "'nccl_allreduce' ORDER BY v.\"time (ns)\" DESC LIMIT 1", con)
        assert slow.to_dict("records") == [{"name": "nccl_allreduce", "rank": 1}]


def test_the_command_writes_the_same_database(tmp_path):
    files = write_ranks(tmp_path, [[("k", 5)], [("k", 7)]])
    api = sqlite3.connect(viewer.to_sqlite(files, str(tmp_path / "api.sqlite")))
    status, _, error = command(["--export", str(tmp_path / "cli.sqlite")] + files)
    assert status == 0, error
    cli = sqlite3.connect(str(tmp_path / "cli.sqlite"))
    for table in ("files", "devices", "frames", "frame_values", "metrics"):
        query = "SELECT * FROM %s ORDER BY 1, 2" % table
        assert api.execute(query).fetchall() == cli.execute(query).fetchall(), table


def test_errors_and_the_old_file_kept(tmp_path):
    good = write_ranks(tmp_path, [[("k", 5)]])[0]
    out = tmp_path / "out.sqlite"
    out.write_bytes(b"old")
    with pytest.raises(FileNotFoundError):
        viewer.to_sqlite([good, str(tmp_path / "missing.hatchet")], str(out))
    cut = tmp_path / "cut.chrome_trace"  # a trace cut short: not a trace, nor a profile
    cut.write_text('{"traceEvents":[{"name":"k","ph":"X","ts":1')
    with pytest.raises(RuntimeError, match="cut.chrome_trace"):
        viewer.to_sqlite([good, str(cut)], str(out))
    other = tmp_path / "a100.hatchet"
    doc = rank_profile([("k", 1)])
    doc[1]["CUDA"]["0"] = dict(DEVICE, arch="80", num_sms=108)
    other.write_text(json.dumps(doc))
    with pytest.raises(RuntimeError, match="recorded on different devices"):
        viewer.to_sqlite([good, str(other)], str(out))
    with pytest.raises(RuntimeError, match="Metric flops16 is not found"):
        viewer.to_sqlite(good, str(out), metrics="tflop16/s")
    with pytest.raises(ValueError, match="empty metric name"):
        viewer.to_sqlite(good, str(out), metrics="time/us,")
    assert out.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == [
        "a100.hatchet", "cut.chrome_trace", "out.sqlite", "run.rank0.hatchet"]
    assert viewer.to_sqlite(good, str(out)) == str(out)
    assert sqlite3.connect(str(out)).execute("SELECT count(*) FROM frames").fetchone() == (3,)


def test_trace_events_with_pandas(tmp_path):
    pandas = pytest.importorskip("pandas")
    traces = os.path.join(ROOT, "tests", "refdata", "h200-traces")
    files = [os.path.join(traces, n) for n in ("workload_tree.hatchet", "workload_pb.perfetto_trace")]
    con = sqlite3.connect(viewer.to_sqlite(files, str(tmp_path / "t.sqlite")))
    kinds = pandas.read_sql("SELECT kind, events FROM files ORDER BY file_id", con)
    assert list(kinds["kind"]) == ["tree", "perfetto_trace"]
    kernels = pandas.read_sql("SELECT name, count(*) AS n FROM events WHERE kind = 'kernel' "
                              "GROUP BY name", con)
    assert kernels["n"].sum() == 46
    assert kinds["events"][1] == con.execute("SELECT count(*) FROM events").fetchone()[0]
