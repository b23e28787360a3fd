"""Command-level checks of proton-viewer's --merge (viewer.md §11.11) against plain Python
computations (statistics.median, ...) over small rank profiles written here, with frames
missing from some ranks.

    merge_check.py PROTON_VIEWER

Standard library only. Prints one line per failed check and exits 1 if any failed.
"""
import csv
import json
import os
import random
import statistics
import tempfile

from viewer_check import check, close, finish, run
DEVICE = {"arch": "90", "bus_width": 6016, "clock_rate": 1980000,
          "memory_clock_rate": 3201000, "num_sms": 132}
RANKS = 5





# ---- the rank files: {path tuple: (time, count)} for the kernels of each rank ----
def rank_kernels(rng, rank):
    kernels = {}
    for scope in ("fwd", "bwd", "opt"):
        for k in range(6):
            if rng.random() < 0.25:  # missing from this rank
                continue
            kernels[("ROOT", scope, "%s_k%d" % (scope, k))] = (rng.randrange(1, 10**6),
                                                               rng.randrange(1, 50))
    kernels[("ROOT", "fwd", "only_rank%d" % rank)] = (rank + 1, 1)  # in one file only
    return kernels


def to_doc(kernels, rank, device=DEVICE):
    root = {"frame": {"name": "ROOT", "type": "function"},
            "metrics": {"time (ns)": 0, "count": 0}, "children": []}
    scopes = {}
    for path, (time, count) in kernels.items():
        if path[1] not in scopes:
            scopes[path[1]] = {"frame": {"name": path[1], "type": "function"},
                               "metrics": {}, "children": []}
            root["children"].append(scopes[path[1]])
        scopes[path[1]]["children"].append({
            "frame": {"name": path[2], "type": "function"}, "children": [],
            "metrics": {"time (ns)": time, "count": count, "device_id": str(rank),
                        "device_type": "CUDA"}})
    return [root, {"CUDA": {str(rank): device}}]


def inclusive(kernels):
    """{path: (time, count)} inclusive, for every frame of one rank."""
    inc = {}
    for path, (time, count) in kernels.items():
        for i in range(1, len(path) + 1):
            t, c = inc.get(path[:i], (0, 0))
            inc[path[:i]] = (t + time, c + count)
    return inc


def expected_stats(values):
    if not values:
        return None
    mean = statistics.mean(values)
    return {"min": min(values), "median": statistics.median(values), "mean": mean,
            "max": max(values), "imbalance": max(values) / mean if mean else None}


def time_ns(t):
    return (t * 1e-9) / 1e-9  # §4.4.1's operation order


tmp = tempfile.mkdtemp(prefix="proton_merge_check_")
rng = random.Random(7)
ranks = [rank_kernels(rng, r) for r in range(RANKS)]
files = []
for r, kernels in enumerate(ranks):
    files.append(os.path.join(tmp, "run.rank%d.hatchet" % r))
    with open(files[-1], "w") as f:
        json.dump(to_doc(kernels, r), f)
incs = [inclusive(k) for k in ranks]
all_paths = sorted({p for inc in incs for p in inc})


def per_file(path):
    """[(file index, time/ns, count)] over the files holding `path`."""
    return [(i, time_ns(inc[path][0]), inc[path][1]) for i, inc in enumerate(incs) if path in inc]


# ---- --merge=stats with --export .jsonl: one row per node and file, statistics per node ----
out = os.path.join(tmp, "stats.jsonl")
rc, stdout, stderr = run("--merge=stats", "-m", "time/ns,count", "--export", out, *files)
check(rc == 0 and stderr == "", "stats run: rc %d, stderr %r" % (rc, stderr))
rows = [json.loads(line) for line in open(out)] if os.path.exists(out) else []
check(len(rows) == sum(len(per_file(p)) for p in all_paths),
      "stats export: %d rows for %d (node, file) pairs" % (len(rows), sum(len(per_file(p)) for p in all_paths)))
for row in rows:
    path = tuple(row["path"])
    held = per_file(path)
    check(row["file"] == files[row["file_id"]], "file column of %r" % (row,))
    check(row["rank"] == row["file_id"] and row["phase"] is None,
          "rank and phase from the file name: %r" % (row,))
    mine = [h for h in held if h[0] == row["file_id"]]
    check(len(mine) == 1, "%s: row for a file that does not hold it" % (path,))
    if mine:
        check(close(row["time/ns"], mine[0][1]), "%s time/ns in file %d" % (path, mine[0][0]))
        check(close(row["count"], mine[0][2]), "%s count in file %d" % (path, mine[0][0]))
    check(row["files"] == len(held), "%s files %r != %d" % (path, row["files"], len(held)))
    for item, pos in (("time/ns", 1), ("count", 2)):
        want = expected_stats([h[pos] for h in held])
        for stat in ("min", "median", "mean", "max", "imbalance"):
            check(close(row[item + ":" + stat], want[stat]),
                  "%s %s:%s %r != %r" % (path, item, stat, row[item + ":" + stat], want[stat]))
        top = max(h[pos] for h in held)
        check(row[item + ":argmax"] == next(h[0] for h in held if h[pos] == top),
              "%s %s:argmax" % (path, item))

# ---- the same as .csv: the same cells ----
out_csv = os.path.join(tmp, "stats.csv")
rc, _, _ = run("--merge", "-m", "time/ns,count", "--export", out_csv, *files)
csv_rows = list(csv.DictReader(open(out_csv))) if rc == 0 else []
check(len(csv_rows) == len(rows), "csv rows %d != jsonl rows %d" % (len(csv_rows), len(rows)))
for a, b in zip(rows, csv_rows):
    check(json.loads(b["path"]) == a["path"] and b["file"] == a["file"], "csv row order")
    for key in ("time/ns", "time/ns:median", "count:imbalance", "count:argmax", "files"):
        check(close(float(b[key]), a[key]), "csv %s of %s" % (key, a["path"]))

# ---- the printed tree: median, min, mean, max, imbalance, argmax per column, then files ----
rc, stdout, _ = run("--merge", "-m", "time/ns", *files)
lines = [l for l in stdout.split("\n") if l.strip()]
by_name = {p[-1]: p for p in all_paths}
check(len(lines) == len(all_paths), "printed %d lines for %d frames" % (len(lines), len(all_paths)))
for line in lines:
    fields = line.lstrip("│├└─ ").split(" ")
    path = by_name.get(fields[-1])
    if path is None:
        check(False, "printed an unknown frame: %r" % line)
        continue
    held = per_file(path)
    want = expected_stats([h[1] for h in held])
    top = max(h[1] for h in held)
    argmax = next(h[0] for h in held if h[1] == top)
    expect = ["%.3f" % want[s] for s in ("median", "min", "mean", "max", "imbalance")]
    expect += ["%d" % argmax, "%d" % len(held), path[-1]]
    check(fields == expect, "printed %r, expected %r" % (fields, expect))

# ---- -t keeps frames whose first column's median passes, with their ancestors ----
medians = {p: statistics.median([h[1] for h in per_file(p)]) for p in all_paths}
threshold = sorted(medians.values())[len(medians) // 2]
out_t = os.path.join(tmp, "threshold.jsonl")
rc, _, stderr = run("--merge", "-m", "time/ns", "-t", repr(threshold), "--export", out_t, *files)
kept = {tuple(r["path"]) for r in map(json.loads, open(out_t))} if rc == 0 else set()
want_kept = {p[:i] for p in all_paths if medians[p] >= threshold for i in range(1, len(p) + 1)}
check(kept == want_kept, "-t %r kept %d frames, expected %d (%s)" % (threshold, len(kept), len(want_kept), stderr))

# ---- -i applies to each file; -d limits the rows ----
out_i = os.path.join(tmp, "include.jsonl")
rc, _, _ = run("--merge", "-m", "count", "-i", "bwd", "-d", "2", "--export", out_i, *files)
got = {(tuple(r["path"]), r["file_id"]): r["count"] for r in map(json.loads, open(out_i))} if rc == 0 else {}
want = {}
for i, kernels in enumerate(ranks):
    sub = inclusive({p: v for p, v in kernels.items() if p[1] == "bwd"})
    for p, (t, c) in sub.items():
        if len(p) <= 2:
            want[(p, i)] = c
check(got == want, "-i bwd -d 2: %r != %r" % (sorted(got.items())[:3], sorted(want.items())[:3]))

# ---- --merge=sum: the files added up, printed and exported like one profile ----
out_sum = os.path.join(tmp, "sum.jsonl")
rc, stdout, stderr = run("--merge=sum", "-m", "time (ns),count,avg_time/ns", "--export", out_sum, *files)
check(rc == 0 and stderr == "", "sum run: rc %d, stderr %r" % (rc, stderr))
sums = {}
for inc in incs:
    for p, (t, c) in inc.items():
        st, sc = sums.get(p, (0, 0))
        sums[p] = (st + t, sc + c)
sum_rows = [json.loads(l) for l in open(out_sum)] if rc == 0 else []
check({tuple(r["path"]) for r in sum_rows} == set(sums), "sum: frames differ")
for r in sum_rows:
    t, c = sums[tuple(r["path"])]
    check(r["time (ns)"] == t and r["count"] == c, "sum of %s: %r != %r" % (r["path"], r, (t, c)))
    if c:  # derived from the sums, not summed per file
        check(close(r["avg_time/ns"], ((t / c) * 1e-9) / 1e-9), "sum avg_time/ns of %s" % r["path"])
root_line = stdout.split("\n")[0]
check(root_line == "%.3f %.3f %.3f ROOT" % (sums[("ROOT",)][0], sums[("ROOT",)][1],
                                        ((sums[("ROOT",)][0] / sums[("ROOT",)][1]) * 1e-9) / 1e-9),
      "sum root line %r" % root_line)
rc1, one, _ = run("--merge=sum", "-m", "time/ns", files[0])
rc2, plain, _ = run("-m", "time/ns", files[0])
check(rc1 == 0 and one == plain, "--merge=sum of one file prints like the file itself")

# ---- errors: one line on stderr, non-zero status ----
def error_case(args, want_rc, want_text, what):
    rc, stdout, stderr = run(*args)
    last = stderr.strip().split("\n")[-1] if stderr.strip() else ""
    check(rc == want_rc and want_text in last and stdout == "",
          "%s: rc %d, stderr %r" % (what, rc, stderr))


other_device = os.path.join(tmp, "a100.hatchet")
json.dump(to_doc(ranks[0], 0, dict(DEVICE, arch="80", num_sms=108)), open(other_device, "w"))
python_ctx = os.path.join(tmp, "python.hatchet")
py_doc = to_doc(ranks[0], 0)
py_doc[0]["children"][0]["frame"]["name"] = "/app/train.py:34@main"
json.dump(py_doc, open(python_ctx, "w"))
trace = os.path.join(tmp, "trace.chrome_trace")
json.dump({"traceEvents": []}, open(trace, "w"))
garbage = os.path.join(tmp, "garbage.hatchet")
open(garbage, "w").write("not a profile")

error_case(["--merge=max", "-m", "time", *files], 2,
           "argument --merge: invalid choice: 'max' (choose from 'stats', 'sum')", "unknown value")
error_case(["--merge", "-m", "time", "--diff-profile", files[0], *files], 2,
           "--merge cannot be used with --diff-profile", "with --diff-profile")
error_case(["-m", "time", *files[:2]], 2, "Must specify exactly one file to read (got 2)",
           "two files without --merge")
error_case(["--merge", "-m", "time", files[0], other_device], 1,
           "recorded on different devices", "different devices")
error_case(["--merge=sum", "-m", "time", files[0], python_ctx], 1,
           "(different contexts)", "different contexts")
error_case(["--merge", "-m", "time", files[0], trace], 1, "is a Chrome trace", "trace file")
error_case(["--merge", "-m", "time", files[0], garbage], 1, "not a JSON or MessagePack profile",
           "not a profile")
error_case(["--merge", "-m", "time", "-", "-"], 2, "can only be read once", "stdin twice")

# ---- --demangle shows the merged names demangled; the files are matched by stored names ----
mangled = []
for r in range(2):
    mangled.append(os.path.join(tmp, "mangled%d.hatchet" % r))
    json.dump(to_doc({("ROOT", "fwd", "_Z3addPfS_S_i"): (100 * (r + 1), 1)}, r), open(mangled[-1], "w"))
rc, stdout, _ = run("--merge", "-m", "time/ns", "--demangle", *mangled)
check(rc == 0 and stdout.split("\n")[2] == "   └─ 150.000 100.000 150.000 200.000 1.333 1 2 "
      "add(float*, float*, float*, int)", "--merge --demangle: %r" % stdout)

# ---- §11.6: abbreviations keep their meaning next to --merge ----
rc, a, _ = run("--merge", "--m", "time/ns", "--de", "1", *files)
rc2, b, _ = run("--merge", "-m", "time/ns", "-d", "1", *files)
check(rc == 0 and a == b and len(a.strip().split("\n")) == 1, "--m/--de with --merge")
rc, _, stderr = run("--mer", "-m", "time", *files)
check(rc == 2 and "unrecognized arguments: --mer" in stderr, "--mer is not --merge: %r" % stderr)

finish("merge_check")
