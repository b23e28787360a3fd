# G12 (profiler.md §3.8, §7.2): CUDA graph bookkeeping over many replays, in API mode.
# Prints one line `CHECK <name> PASS|FAIL <details>` per check.
#   graph_replays.py during   capture after start: exact counts under <captured_at>, and
#                             host memory flat over 10^4 replays
#   graph_replays.py before   capture before start: kernels under the launch context, one
#                             warning (checked by the caller on stderr), memory flat
import json, os, sys
import torch
import triton.profiler as proton

OUT = os.environ.get("OUT", "/tmp")
REPLAYS = int(os.environ.get("G12_REPLAYS", "10000"))
WARMUP = 1000


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x * 2
        y += 1
    return g


def replay(g, n):
    for i in range(n):
        g.replay()
        if i % 1000 == 999:
            torch.cuda.synchronize()
    torch.cuda.synchronize()


def counts(node, path=(), out=None):
    out = {} if out is None else out
    name = node["frame"]["name"]
    here = path + (name,)
    if not node["children"] and node["metrics"].get("count"):
        out["/".join(here)] = node["metrics"]["count"]
    for child in node["children"]:
        counts(child, here, out)
    return out


def check(name, ok, details=""):
    print(f"CHECK {name} {'PASS' if ok else 'FAIL'} {details}", flush=True)


mode = sys.argv[1]
x = torch.randn(1 << 12, device="cuda")
torch.cuda.synchronize()
# Warm the capture machinery (cuBLAS/allocator pools) outside any profile.
replay(capture(x), 3)
name = f"{OUT}/g12_{mode}"
if mode == "before":
    g = capture(x)
    proton.start(name)
else:
    proton.start(name)
    with proton.scope("capture"):
        g = capture(x)
with proton.scope("replay"):
    replay(g, WARMUP)
    start_mb = rss_mb()
    replay(g, REPLAYS)
    end_mb = rss_mb()
proton.finalize()
growth = end_mb - start_mb
# 10^4 replays of 2 kernels: any per-replay bookkeeping left behind (the reference leaks
# correlation state here) would show as megabytes; allow allocator noise only.
check(f"g12_{mode}_memory_flat", growth <= 2.0,
      f"RSS {start_mb:.1f} -> {end_mb:.1f} MB over {REPLAYS} replays")
leaves = counts(json.load(open(name + ".hatchet"))[0])
total = WARMUP + REPLAYS
replayed = {path: n for path, n in leaves.items() if path.startswith("ROOT/replay/")}
if mode == "during":
    ok = len(replayed) == 2 and all("<captured_at>" in p and n == total
                                     for p, n in replayed.items())
else:
    ok = len(replayed) == 2 and all(p.count("/") == 2 and n == total
                                     for p, n in replayed.items())
check(f"g12_{mode}_counts", ok, json.dumps(replayed))
