"""Command-level checks of proton-viewer's --export, --fail-above and --match (viewer.md
§11.7, §11.8) against plain Python computations over the bundled profiles in tests/refdata.

    export_gate_check.py PROTON_VIEWER

Standard library only. Prints one line per failed check and exits 1 if any failed.
"""
import csv
import json
import os
import tempfile

from viewer_check import check, close, finish, run
REFDATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "refdata")
HOOK = os.path.join(REFDATA, "ref_hook.hatchet")      # Triton 3.6, launch hook
SHADOW = os.path.join(REFDATA, "ref_shadow.hatchet")  # Triton 3.6, shadow context (slower)




# ---- plain computation: inclusive sums over the JSON tree, duplicates merged by path ----
def inclusive_by_path(path_file, key):
    """{path tuple: inclusive value of `key`} (the root's placeholder included)."""
    root = json.load(open(path_file))[0]
    own = {}

    def walk(node, prefix):
        path = prefix + (node["frame"]["name"],)
        own[path] = own.get(path, 0) + node["metrics"].get(key, 0)
        for child in node.get("children", []):
            walk(child, path)

    walk(root, ())
    inc = {}
    for path, value in own.items():
        for i in range(1, len(path) + 1):
            inc[path[:i]] = inc.get(path[:i], 0) + value
    return inc



def read_jsonl(path):
    return [json.loads(line) for line in open(path)]


def read_csv(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            row = {"path": json.loads(r.pop("path")), "name": r.pop("name"),
                   "depth": int(r.pop("depth"))}
            row.update({k: (float(v) if v != "" else None) for k, v in r.items()})
            rows.append(row)
    return rows


tmp = tempfile.mkdtemp()
jsonl = os.path.join(tmp, "t.jsonl")
csv_path = os.path.join(tmp, "t.csv")

# ---- export of a plain run: every node, raw and derived columns, as numbers ----
time_inc = inclusive_by_path(HOOK, "time (ns)")
count_inc = inclusive_by_path(HOOK, "count")
cols = "time/ns,count,time/%"
rc, plain_out, _ = run("-m", cols, HOOK)
rc_j, out_j, err_j = run("-m", cols, "--export", jsonl, HOOK)
check(rc == 0 and rc_j == 0 and err_j == "", "export run succeeds quietly")
check(out_j == plain_out, "--export leaves standard output unchanged")
rows = read_jsonl(jsonl)
check(len(rows) == len(time_inc), "one JSONL row per node: %d vs %d" % (len(rows), len(time_inc)))
total = time_inc[("ROOT",)]
for row in rows:
    p = tuple(row["path"])
    check(set(row) == {"path", "name", "depth", "time/ns", "count", "time/%"}, "keys %s" % row.keys())
    check(row["name"] == p[-1] and row["depth"] == len(p) - 1, "name/depth of %s" % (p,))
    check(p in time_inc and close(row["time/ns"], time_inc[p]), "time/ns of %s" % (p,))
    check(p in count_inc and close(row["count"], count_inc[p]), "count of %s" % (p,))
    check(close(row["time/%"], time_inc[p] / total * 100), "time/%% of %s" % (p,))
    check(isinstance(row["count"], int), "count is a JSON integer")
check(rows[0]["path"] == ["ROOT"], "rows start at ROOT")

rc_c, out_c, _ = run("-m", cols, "--export", csv_path, HOOK)
check(rc_c == 0 and out_c == plain_out, "CSV export run")
check(open(csv_path).readline() == "path,name,depth,time/ns,count,time/%\n", "CSV header")
csv_rows = read_csv(csv_path)
check(len(csv_rows) == len(rows), "CSV has the JSONL's rows")
for a, b in zip(csv_rows, rows):
    check(all(close(a[k], b[k]) if k not in ("path", "name") else a[k] == b[k] for k in b),
          "CSV row equals JSONL row %s" % (b["path"],))

# ---- the tree as printed: -d, -i, and the diff tree ----
run("-m", "time/ns", "-d", "2", "--export", jsonl, HOOK)
check({r["depth"] for r in read_jsonl(jsonl)} == {0, 1}, "-d 2 exports depths 0 and 1")
run("-m", "time/ns", "-i", "add_phase", "--export", jsonl, HOOK)
kept = read_jsonl(jsonl)
check(len(kept) > 1 and all(r["path"] == ["ROOT"] or r["path"][1] == "add_phase" for r in kept),
      "-i add_phase exports only ROOT and add_phase's subtree")
shadow_inc = inclusive_by_path(SHADOW, "time (ns)")
rc, _, _ = run("-m", "time/ns", "-diff", SHADOW, "--export", jsonl, HOOK)
diff_rows = read_jsonl(jsonl)
check(len(diff_rows) == len(set(time_inc) | set(shadow_inc)), "diff export: the union tree")
for row in diff_rows:
    p = tuple(row["path"])
    want = (time_inc[p] - shadow_inc[p] if p in time_inc and p in shadow_inc
            else time_inc.get(p))  # only in FILE: FILE's value; only in OTHER: NaN (null)
    check(close(row["time/ns"], want), "diff value of %s" % (p,))
check(any(r["time/ns"] is None for r in diff_rows), "frames only in OTHER export null")
run("-m", "time/ns", "-diff", SHADOW, "--export", csv_path, HOOK)
check([(r["path"], r["time/ns"]) for r in read_csv(csv_path)] ==
      [(r["path"], r["time/ns"]) for r in diff_rows], "diff CSV equals diff JSONL (NaN empty)")

# ---- export errors ----
rc, out, err = run("-m", "time/ns", "--export", os.path.join(tmp, "no", "dir.csv"), HOOK)
check(rc == 1 and out == "" and err.count("\n") == 1 and
      err.startswith("proton-viewer: error: cannot write '"), "unwritable export: %r" % err)
rc, out, err = run("-m", "time/ns", "--export", os.path.join(tmp, "x.txt"), HOOK)
check(rc == 2 and out == "" and err.endswith(
    "error: argument --export: FILE must end in .csv, .jsonl, .sqlite or .perfetto_trace: '%s'\n" % os.path.join(tmp, "x.txt")),
    "bad export suffix: %r" % err)


# ---- --fail-above on the two Triton profiles ----
def offenders(err):
    """The frame paths named by the gate's lines on stderr."""
    paths = []
    for line in err.splitlines():
        start = line.index("[")
        paths.append(tuple(json.JSONDecoder().raw_decode(line[start:])[0]))
    return paths


def expected(now, base, pct, minimum):
    return {p for p in now if p in base and now[p] - base[p] > minimum and
            now[p] - base[p] > pct / 100 * abs(base[p])}


for pct, minimum in ((10, 0), (500, 0), (10, 400000), (1e9, 0)):
    spec = "%g,%g" % (pct, minimum)
    rc, out, err = run("-m", "time/ns", "-diff", HOOK, "--fail-above", spec, SHADOW)
    want = expected(shadow_inc, time_inc, pct, minimum)
    check(rc == (3 if want else 0), "gate %s: exit %d" % (spec, rc))
    check(set(offenders(err)) == want, "gate %s offenders %s vs %s" % (spec, offenders(err), want))
    check(all(l.startswith("proton-viewer: --fail-above %s: [" % spec) for l in err.splitlines()),
          "gate line format")
    check(out == run("-m", "time/ns", "-diff", HOOK, SHADOW)[1], "gate leaves stdout as is")
check(len(expected(shadow_inc, time_inc, 10, 0)) >= 2, "the profiles give the gate work")
rc, _, err = run("-m", "time/ns", "-diff", SHADOW, "--fail-above", "10", HOOK)
check(rc == 0 and err == "", "no growth towards the faster profile: exit 0")

# ---- --match=normalized: a recompiled kernel still matches ----
def profile(path, kernels):
    children = [{"frame": {"name": n, "type": "function"}, "metrics": {"time (ns)": t, "count": 1},
                 "children": []} for n, t in kernels]
    root = {"frame": {"name": "ROOT", "type": "function"}, "metrics": {"time (ns)": 0, "count": 0},
            "children": children}
    json.dump([root, {}], open(path, "w"))


old, new = os.path.join(tmp, "old.json"), os.path.join(tmp, "new.json")
profile(old, [("triton_poi_fused_add_0", 100), ("_Z6matmulPfS_", 300)])
profile(new, [("triton_poi_fused_add_3", 200), ("_Z6matmulPfS_", 200)])  # ROOT unchanged
rc, _, err = run("-m", "time/ns", "-diff", old, "--fail-above", "10", new)
check(rc == 0 and err == "", "exact match: the renamed kernel is not compared (%d %r)" % (rc, err))
rc, out, err = run("-m", "time/ns", "-diff", old, "--fail-above", "10", "--match=normalized", new)
check(rc == 3 and offenders(err) == [("ROOT", "triton_poi_fused_add")],
      "normalized match: the renamed kernel grew (%d %r)" % (rc, err))
check("matmul(float*, float*)" in out, "normalized diff shows demangled names")

# ---- gate usage errors: one line after the usage block, exit 2 ----
for args, message in (
        (["-m", "time/ns", "--fail-above", "10", HOOK], "--fail-above needs --diff-profile"),
        (["-m", "time/ns", "-diff", SHADOW, "--fail-above", "ten", HOOK],
         "argument --fail-above: expected PCT[,MIN] (non-negative numbers): 'ten'"),
        (["-m", "time/ns", "-diff", SHADOW, "--match", "loose", HOOK],
         "argument --match: invalid choice: 'loose' (choose from 'exact', 'normalized')")):
    rc, out, err = run(*args)
    check(rc == 2 and out == "" and err.startswith("usage: proton-viewer") and
          err.endswith("proton-viewer: error: " + message + "\n"), "usage error %r" % err)

finish("export_gate_check")
