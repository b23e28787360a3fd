"""GPU proof of phases, periodic flushing and the 3.7+ trace (profiler.md §3.11, formats.md §6):
runs tests/gpu/workloads/phases.py under our `proton` and prints one `CHECK <name> PASS|FAIL
<details>` line per claim, for tests/gpu/run.sh.

  phases_check.py PROTON BUILD_DIR WORK_DIR

- periodic: `-m periodic_flushing`, advance_phase per step: one part per phase, parts 1..N-1
  identical (one step each, CUDA-graph replays under replay/<captured_at>/capture in the
  replaying phase), and the sum over parts equal per path to an unphased run's counts.
- kill: SIGKILL after part K-1 is on disk: parts 0..K-1 survive whole with their exact counts,
  and no temporary file is left that ends like a profile.
- vllm: a vLLM-style phase manager with a background exporter thread (API mode) on real
  kernels: every phase exported by the thread, the sum equal to the unphased run's counts.
- trace: `-d trace`: one document with baseTimeNanoseconds, named lanes, pid on every event,
  and one launch->kernel flow per kernel, ending on that kernel's lane at its start."""

import json
import os
import subprocess
import sys
from collections import Counter

STEPS = 6
KILL_AFTER = 3
HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = os.path.join(HERE, "workloads", "phases.py")


def check(name, ok, details):
    print(f"CHECK {name} {'PASS' if ok else 'FAIL'} {details}", flush=True)


def run(args, log, env=None, timeout=300):
    with open(log, "w") as f:
        proc = subprocess.run(args, stdout=f, stderr=subprocess.STDOUT, timeout=timeout,
                              env={**os.environ, **(env or {})}, cwd=os.path.dirname(WORKLOAD))
    return proc.returncode


def counts(doc):
    """{path: count} of every node with a kernel count."""
    out = Counter()
    stack = [(doc[0], ())]
    while stack:
        node, path = stack.pop()
        for c in node["children"]:
            p = path + (c["frame"]["name"],)
            if c["metrics"].get("count"):
                out["/".join(p)] += c["metrics"]["count"]
            stack.append((c, p))
    return out


def load(path):
    with open(path) as f:
        return json.load(f)


def parts(base, ext="hatchet"):
    out = {}
    directory, stem = os.path.split(base)
    for entry in os.listdir(directory):
        prefix = stem + ".part_"
        if entry.startswith(prefix) and entry.endswith("." + ext):
            out[int(entry[len(prefix):-len(ext) - 1])] = os.path.join(directory, entry)
    return out


def graph_paths(c):
    return {p: n for p, n in c.items() if "<captured_at>" in p}


def check_periodic(proton, work, flat):
    base = os.path.join(work, "ph")
    rc = run([proton, "-m", "periodic_flushing", "-n", base, sys.executable, WORKLOAD, "phased",
              str(STEPS)], base + ".log")
    found = parts(base)
    check("phases_periodic_parts", rc == 0 and sorted(found)[:STEPS] == list(range(STEPS)),
          f"exit {rc}, parts {sorted(found)}")
    if rc != 0 or not found:
        return
    per = {p: counts(load(path)) for p, path in found.items()}
    total = sum(per.values(), Counter())
    check("phases_sum_equals_unphased", total == flat,
          f"{sum(total.values())} kernels over {len(per)} parts vs {sum(flat.values())} unphased"
          + ("" if total == flat else f"; differ at {sorted(set(total) ^ set(flat))[:4]} "
             f"{[(k, total[k], flat[k]) for k in flat if total[k] != flat[k]][:4]}"))
    steps = [per[p] for p in range(1, STEPS)]
    check("phases_one_step_per_part", all(s == steps[0] for s in steps) and steps[0],
          f"parts 1..{STEPS - 1}: {dict(steps[0])}")
    replays = graph_paths(steps[0])
    check("phases_graph_replays_in_replaying_phase",
          bool(replays) and all(p.startswith("step/replay/<captured_at>/capture/") for p in replays),
          f"{replays}")


def check_kill(proton, work):
    base = os.path.join(work, "kill")
    rc = run([proton, "-m", "periodic_flushing", "-n", base, sys.executable, WORKLOAD, "kill",
              str(STEPS), str(KILL_AFTER), base], base + ".log")
    found = parts(base)
    leftovers = [e for e in os.listdir(work) if e.startswith("kill") and ".tmp" in e]
    ok = rc in (-9, 137) and sorted(found) == list(range(KILL_AFTER)) and not leftovers
    details = f"exit {rc}, parts {sorted(found)}, temporary files {leftovers}"
    try:
        per = [counts(load(found[p])) for p in range(1, KILL_AFTER)]
        ok = ok and all(c == per[0] for c in per) and per and counts(load(found[0]))
    except (OSError, ValueError, KeyError) as e:
        ok, details = False, f"{details}; unreadable part: {e}"
    check("phases_sigkill_keeps_completed_parts", ok, details)


def check_vllm(build, work, flat):
    base = os.path.join(work, "vllm")
    env = {"PYTHONPATH": os.path.join(build, "python")}
    rc = run([sys.executable, WORKLOAD, "vllm", str(STEPS), base], base + ".log", env=env)
    exported = sorted(e for e in os.listdir(work) if e.startswith("vllm.phase_"))
    total = Counter()
    for e in exported:
        total += counts(load(os.path.join(work, e)))
    log = open(base + ".log").read()
    check("phases_vllm_manager_thread",
          rc == 0 and "exported by ['exporter']" in log and total == flat,
          f"exit {rc}, {len(exported)} phases exported, {sum(total.values())} kernels vs "
          f"{sum(flat.values())} unphased; {log.strip().splitlines()[-1:]}")


def check_trace(proton, work):
    base = os.path.join(work, "tr")
    rc = run([proton, "-d", "trace", "-n", base, sys.executable, WORKLOAD, "flat", "2"],
             base + ".log")
    try:
        doc = load(base + ".chrome_trace")
    except (OSError, ValueError) as e:
        check("trace_layout", False, f"exit {rc}: {e}")
        return
    events = doc["traceEvents"]
    lanes = {e["tid"]: e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    kernels = [e for e in events if e.get("cat") == "kernel"]
    starts = {e["id"]: e for e in events if e.get("ph") == "s"}
    ends = {e["id"]: e for e in events if e.get("ph") == "f"}
    bad = []
    for k in kernels:
        match = [f for f in ends.values() if f["tid"] == k["tid"] and f["ts"] == k["ts"]]
        if len(match) != 1 or match[0].get("bp") != "e" or match[0]["id"] not in starts:
            bad.append(k["name"])
        elif not lanes.get(starts[match[0]["id"]]["tid"], "").startswith("CPU Thread"):
            bad.append(k["name"] + " (flow not from a CPU lane)")
    ok = (rc == 0 and "baseTimeNanoseconds" in doc and kernels and not bad
          and all("pid" in e for e in events)
          and all(lanes.get(k["tid"], "").startswith(("GPU Stream", "Graph: Stream"))
                  for k in kernels)
          and all(k["args"]["call_stack"][0] == "ROOT" for k in kernels))
    check("trace_layout_and_flows", ok,
          f"exit {rc}, {len(kernels)} kernels, {len(starts)} flows, lanes "
          f"{sorted(set(lanes.values()))[:6]}, unmatched {bad[:4]}")


def check_flush_probe(build, work):
    """How soon a sealed phase is written on real CUPTI (workloads/flush_probe.py prints CHECK
    lines; its PROTON_VERBOSE log says what a waiting phase waits for)."""
    base = os.path.join(work, "probe")
    env = {"PYTHONPATH": os.path.join(build, "python"), "PROTON_VERBOSE": "1"}
    rc = run([sys.executable, os.path.join(HERE, "workloads", "flush_probe.py"), base],
             base + ".log", env=env)
    lines = open(base + ".log").read().splitlines()
    for line in lines:
        if line.startswith("CHECK "):
            print(line, flush=True)
    if rc != 0:
        check("flush_probe", False, f"exit {rc}: {lines[-2:]}")


def main():
    proton, build, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    flat_base = os.path.join(work, "flat")
    rc = run([proton, "-n", flat_base, sys.executable, WORKLOAD, "flat", str(STEPS)],
             flat_base + ".log")
    if rc != 0:
        check("phases_unphased_run", False, f"exit {rc}")
        return
    flat = counts(load(flat_base + ".hatchet"))
    check_periodic(proton, work, flat)
    check_kill(proton, work)
    check_vllm(build, work, flat)
    check_trace(proton, work)
    check_flush_probe(build, work)
    # The callback sequence of a PyTorch graph capture under the command (PROTON_DEBUG_CALLBACKS).
    run([proton, "-n", os.path.join(work, "debug"), sys.executable, WORKLOAD, "flat", "1"],
        os.path.join(work, "debug_callbacks.log"), env={"PROTON_DEBUG_CALLBACKS": "1"})


if __name__ == "__main__":
    main()
