# Checks the profile of tests/gpu/native/graph_capture.cu (profiler.md §3.8): exactly the two
# replayed kernels, 20 each, under ROOT/replay/<captured_at>/capture/, nothing else with kernel
# time (a capture executes nothing, so ROOT/capture has no kernel leaf), and no fallback warning.
# Usage: check_native_graph.py PROFILE.hatchet STDERR_LOG LABEL; prints one PASS/FAIL line.
import json, sys

path, logf, label = sys.argv[1], sys.argv[2], sys.argv[3]


def leaves(node, prefix=(), out=None):
    out = {} if out is None else out
    here = prefix + (node["frame"]["name"],)
    if not node["children"] and node["metrics"].get("count"):
        out["/".join(here)] = node["metrics"]["count"]
    for child in node["children"]:
        leaves(child, here, out)
    return out


try:
    got = leaves(json.load(open(path))[0])
except Exception as e:  # no profile, or not one
    print(f"native_graph_{label} FAIL cannot read {path}: {e}")
    sys.exit()
# The leaf is the kernel's name as the profile spells it (mangled or demangled): match by part.
prefix = "ROOT/replay/<captured_at>/capture/"
def count_of(kernel):
    hits = [n for p, n in got.items() if p.startswith(prefix) and kernel in p[len(prefix):]]
    return hits[0] if len(hits) == 1 else None
ok = len(got) == 2 and count_of("kernel_a") == 20 and count_of("kernel_b") == 20
want = f"{prefix}kernel_a and kernel_b, 20 each, nothing else"
warned = "captured before profiling started" in open(logf).read()
if ok and not warned:
    print(f"native_graph_{label} PASS {got}")
else:
    print(f"native_graph_{label} FAIL leaves {got} (want {want}), fallback warning: {warned}")
