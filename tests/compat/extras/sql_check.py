"""Command-level checks of proton-viewer's SQLite outputs (viewer.md §11.13): --export
FILE.sqlite and --sql over rank files written here, read back with Python's sqlite3; the
JSON lines of --merge --export answering the same SQL as the database (the README's
many-nodes example); the errors, refused as --merge refuses them; and FILE replaced only by
a complete database.

    sql_check.py PROTON_VIEWER

Standard library only. Prints one line per failed check and exits 1 if any failed.
"""
import json
import os
import sqlite3
import tempfile

from viewer_check import check, finish, run

DEVICE = {"arch": "90", "bus_width": 6016, "clock_rate": 1980000,
          "memory_clock_rate": 3201000, "num_sms": 132}
# The README's query, run unchanged on the database and on the JSON lines.
QUERY = """SELECT name, COUNT(DISTINCT rank) AS ranks, SUM("time/ms") AS total_ms,
       MAX("time/ms") / AVG("time/ms") AS imbalance
FROM frame_rows WHERE depth > 0
GROUP BY name ORDER BY total_ms DESC, name LIMIT 20"""


def rank_doc(rank, device=DEVICE):
    kernels = [("gemm", 1000 + 10 * rank), ("nccl_allreduce", 200 * (rank + 1))]
    if rank % 2:
        kernels.append(("only_odd_ranks", 7))
    nodes = [{"frame": {"name": k, "type": "function"}, "children": [],
              "metrics": {"time (ns)": t, "count": 3, "device_id": str(rank),
                          "device_type": "CUDA"}} for k, t in kernels]
    step = {"frame": {"name": "step", "type": "function"}, "metrics": {}, "children": nodes}
    return [{"frame": {"name": "ROOT", "type": "function"},
             "metrics": {"time (ns)": 0, "count": 0}, "children": [step]},
            {"CUDA": {str(rank): device}}]


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


tmp = tempfile.mkdtemp(prefix="proton-sql-check-")
files = [write(os.path.join(tmp, "run.rank%d.hatchet" % r), rank_doc(r)) for r in range(4)]

# ---- --export FILE.sqlite: every FILE in one database, nothing printed ----
db = os.path.join(tmp, "run.sqlite")
rc, out, err = run("--export", db, *files)
check(rc == 0 and out == "" and err == "", "export: rc %d out %r err %r" % (rc, out, err))
con = sqlite3.connect(db)
check(con.execute("SELECT group_concat(rank) FROM files").fetchone() == ("0,1,2,3",),
      "files table holds every rank")
check(con.execute("SELECT count(*) FROM frame_values v JOIN frames f USING (frame_id) WHERE "
                  "f.name = 'only_odd_ranks'").fetchone() == (2,), "a frame of some ranks only")
con.close()

# ---- the same SQL on the database and on the JSON lines (same column names) ----
db_m = os.path.join(tmp, "merged.sqlite")
rows = os.path.join(tmp, "rows.jsonl")
rc1, printed, _ = run("-m", "time/ms", "--merge", "--export", db_m, *files)
rc2, printed2, _ = run("-m", "time/ms", "--merge", "--export", rows, *files)
check(rc1 == 0 and rc2 == 0 and printed == printed2, "-m with .sqlite prints the merged tree")
from_db = sqlite3.connect(db_m).execute(QUERY).fetchall()
lines = [json.loads(line) for line in open(rows)]
mem = sqlite3.connect(":memory:")
keys = list(lines[0])
mem.execute("CREATE TABLE frame_rows (%s)" % ", ".join('"%s"' % k for k in keys))
mem.executemany("INSERT INTO frame_rows VALUES (%s)" % ", ".join("?" * len(keys)),
                [[json.dumps(r[k]) if isinstance(r[k], list) else r[k] for k in keys]
                 for r in lines])
from_jsonl = mem.execute(QUERY).fetchall()
check(from_db == from_jsonl and len(from_db) == 4,
      "the query answers alike: %r vs %r" % (from_db, from_jsonl))

# ---- --sql: a table, a file, the named queries ----
rc, out, err = run("--sql", "SELECT rank, \"time (ns)\" AS t FROM frame_rows WHERE name = "
                   "'nccl_allreduce' ORDER BY rank", *files)
check(rc == 0 and out == "rank    t\n----  ---\n   0  200\n   1  400\n   2  600\n   3  800\n",
      "aligned table: %r %r" % (out, err))
csv_out = os.path.join(tmp, "r.csv")
rc, out, _ = run("--sql", "imbalance", "--export", csv_out, *files)
check(rc == 0 and out == "", "--sql with --export .csv prints nothing")
header = open(csv_out).readline().strip().split(",") if os.path.exists(csv_out) else []
check(header[:3] == ["name", "depth", "files"] and "slowest_rank" in header,
      "imbalance CSV header %r" % header)
rc, out, _ = run("--sql", "list")
check(rc == 0 and "top_kernels: " in out and "kernels_per_phase: " in out, "--sql list")
rc, out, _ = run("--sql", "top_kernels", *files)
check(rc == 0 and out.splitlines()[2].startswith("gemm "), "top_kernels ranks gemm first")

# ---- errors: one line, exit 1 (2 for the command line), FILE kept ----
rc, out, err = run("--sql", "SELECT FROM WHERE", *files)
check(rc == 1 and out == "" and err == 'proton-viewer: error: SQL: near "FROM": syntax error\n',
      "bad SQL: %d %r" % (rc, err))
rc, _, err = run("--sql", "SELECT 1", "-t", "5", *files)
check(rc == 2 and err.endswith("error: --sql cannot be combined with -t/--threshold\n"),
      "usage error %r" % err)
a100 = write(os.path.join(tmp, "a100.hatchet"), rank_doc(9, dict(DEVICE, arch="80")))
_, _, merge_err = run("--merge", "-m", "time/ns", files[0], a100)
rc, _, err = run("--export", db, files[0], a100)
check(rc == 1 and err == merge_err and "different devices" in err,
      "mixed devices refused as --merge refuses them: %r vs %r" % (err, merge_err))
check(sqlite3.connect(db).execute("SELECT count(*) FROM files").fetchone() == (4,),
      "a failed export leaves the database as it was")
trace = os.path.join(os.path.dirname(__file__), "..", "..", "refdata", "ref_trace.chrome_trace")
# A trace goes in as events (formats.md §8): Triton 3.6's trace of the workload, 46 kernels.
rc, out, err = run("--sql", "SELECT kind, count(*) AS n FROM events GROUP BY kind", trace)
check(rc == 0 and out.splitlines()[2:] == ["kernel  46"], "trace %r %r" % (out, err))
left = [n for n in os.listdir(tmp) if n.startswith(".")]
check(left == [], "no temporary file left: %r" % left)
rc, out, _ = run("-h")
check("--sql QUERY" in out and ".sqlite" in out, "-h lists --sql and .sqlite")

finish("sql_check")
