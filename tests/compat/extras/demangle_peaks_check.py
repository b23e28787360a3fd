"""Command-level checks of proton-viewer's --demangle (viewer.md §11.9) on the bundled
PyTorch profile, and of the peak tables (§4.5) on profiles whose device table is edited to
each supported architecture.

    demangle_peaks_check.py PROTON_VIEWER

Standard library only. Prints one line per failed check and exits 1 if any failed.
"""
import json
import os
import re
import tempfile

from viewer_check import check, finish, run
HERE = os.path.dirname(os.path.abspath(__file__))
SHADOW = os.path.join(HERE, "..", "..", "refdata", "gpt2_shadow.hatchet")  # PyTorch GPT-2




def split_rows(out):
    """[(values, name)] of a plain tree: the name is what follows the tree drawing."""
    rows = []
    for line in out.splitlines():
        m = re.match(r"^((?:[│ ]  |[├└]─ )*)(\S+) (.*)$", line)
        if m:
            rows.append((m.group(2), m.group(3)))
    return rows


# ---- --demangle: the golden short names of real kernels ----
GOLDEN_SHORT = [
    "at::native::vectorized_elementwise_kernel",
    "at::native::elementwise_kernel",
    "at::native::reduce_kernel",
    "at::native::(anonymous namespace)::vectorized_layer_norm_kernel",
    "at::native::(anonymous namespace)::multi_tensor_apply_kernel",
    "(anonymous namespace)::elementwise_kernel_with_index",
    "cublasLt::splitKreduce_kernel",
    "cutlass::Kernel2",
    "fmha_cutlassF_f32_aligned_64x64_rf_sm80",
]
GOLDEN_FULL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
               "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, "
               "std::array<char*, 1ul>)")

rc, plain, _ = run("-m", "time/ns", "-d", "1000", SHADOW)
rc_full, full, _ = run("-m", "time/ns", "-d", "1000", "--demangle", SHADOW)
rc_short, short, _ = run("-m", "time/ns", "-d", "1000", "--demangle=short", SHADOW)
check(rc == rc_full == rc_short == 0, "--demangle runs succeed")
plain_rows, full_rows, short_rows = split_rows(plain), split_rows(full), split_rows(short)
check(len(plain_rows) > 40 and len(plain_rows) == len(full_rows) == len(short_rows),
      "--demangle keeps every row")
check([v for v, _ in plain_rows] == [v for v, _ in full_rows] == [v for v, _ in short_rows],
      "--demangle keeps the values and the row order")
check(any(n.startswith("_Z") for _, n in plain_rows), "the profile has mangled names")
check(not any(n.startswith("_Z") for _, n in full_rows + short_rows),
      "every mangled name of the profile is demangled")
check(GOLDEN_FULL in [n for _, n in full_rows], "full form is libstdc++'s text")
short_names = {n for _, n in short_rows}
for name in GOLDEN_SHORT:
    check(name in short_names, "short form shows " + name)
check(all("<" not in n and "(int" not in n for n in short_names), "short names carry no arguments")
for (_, p), (_, s) in zip(plain_rows, short_rows):
    if not p.startswith("_Z"):
        check(p == s, "names that are not mangled are kept: " + p)

# --print-sorted, the diff and --export show the same names.
rc, out, _ = run("-m", "time/ns", "--print-sorted", "--demangle=short", SHADOW)
sorted_part = out.split("Sorted kernels", 1)[-1]
check(rc == 0 and "at::native::reduce_kernel" in sorted_part and "_ZN" not in sorted_part,
      "--print-sorted shows demangled names")
rc, out, _ = run("-m", "time/ns", "-d", "1000", "--diff-profile", SHADOW, "--demangle=short", SHADOW)
check(rc == 0 and "cublasLt::splitKreduce_kernel" in out and "_ZN" not in out,
      "the diff shows demangled names")
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "t.jsonl")
    rc, _, _ = run("-m", "time/ns", "-d", "1000", "--export", path, "--demangle=short", SHADOW)
    rows = [json.loads(line) for line in open(path)] if rc == 0 else []
    check(any(r["name"] == "cutlass::Kernel2" for r in rows), "--export names are demangled")
    check(not any(p.startswith("_Z") for r in rows for p in r["path"]), "--export paths too")

# -f formats the shown name.
rc, out, _ = run("-m", "time/ns", "-f", "function_line", "--demangle=short", SHADOW)
check(rc == 0 and "reduce_kernel" in {n for _, n in split_rows(out)},
      "-f function_line applies to the short name")

# The --fail-above lines name the frames as printed: a baseline at half the time fails
# every frame.
with tempfile.TemporaryDirectory() as tmp:
    baseline = json.load(open(SHADOW))

    def halve(node):
        if "time (ns)" in node.get("metrics", {}):
            node["metrics"]["time (ns)"] /= 2
        for child in node.get("children", []):
            halve(child)

    halve(baseline[0])
    path = os.path.join(tmp, "baseline.json")
    json.dump(baseline, open(path, "w"))
    rc, _, err = run("-m", "time/ns", "--diff-profile", path, "--fail-above", "10",
                     "--demangle=short", SHADOW)
    check(rc == 3 and '"cublasLt::splitKreduce_kernel"]' in err and "_ZN" not in err,
          "--fail-above lines show demangled names")

# -i/-e match the stored name, not the shown one.
rc, out, _ = run("-m", "time/ns", "-i", "_ZN8cublasLt", "--demangle=short", SHADOW)
check(rc == 0 and "cublasLt::splitKreduce_kernel" in out, "-i matches the stored (mangled) name")
rc, out, err = run("-m", "time/ns", "-i", "cublasLt::", "--demangle=short", SHADOW)
check(rc == 1 and "matches no frame" in err, "-i does not match the shown name")
rc, out, _ = run("-m", "time/ns", "-e", "_Z", "--demangle", SHADOW)
check(rc == 0 and "::" not in out, "-e removes by the stored name")

# Usage: full spelling only, a bad value is status 2 with one argparse-style line.
rc, out, err = run("--demangle=foo", SHADOW)
check(rc == 2 and err.splitlines()[-1] == "proton-viewer: error: argument --demangle: invalid "
      "choice: 'foo' (choose from 'full', 'short')", "--demangle=foo is a usage error")
rc, out, _ = run("-m", "time/ns", "--de", "1", SHADOW)
check(rc == 0 and len(out.splitlines()) == 2, "--de still means --depth")
check(run("-l", SHADOW)[1] == run("-l", "--demangle", SHADOW)[1], "-l is unchanged")

# ---- peaks: one device of each architecture, one kernel per flops width ----
# (device type, arch, SMs or CUs, boost clock kHz, per-unit 8-bit FLOPs per clock,
#  {width: the published dense figure in FLOP/s}), as in §4.5 and its sources.
ARCHS = [
    ("CUDA", "70", 80, 1530000, 2048, {16: 125e12}),
    ("CUDA", "75", 40, 1590000, 2048, {8: 130e12, 16: 65e12}),
    ("CUDA", "86", 72, 1695000, 2048, {8: 250e12, 16: 125e12, 32: 62.5e12}),
    ("CUDA", "87", 16, 1300000, 4096, {8: 85e12}),
    ("CUDA", "100", 148, 1700000, 16384, {}),
    ("CUDA", "103", 160, 1700000, 16384, {}),
    ("CUDA", "110", 20, 1570000, 16384, {8: 517.5e12}),
    ("CUDA", "120", 170, 2407000, 2048, {8: 838e12}),
    ("CUDA", "121", 48, 2400000, 2048, {}),
    ("HIP", "gfx90a", 220, 1700000, 1024, {8: 383e12}),
    ("HIP", "gfx1100", 96, 2500000, 512, {8: 122.8e12}),
    ("HIP", "gfx1201", 64, 2970000, 2048, {8: 389.3e12}),
]
TIME_NS = 1000000  # 1 ms per kernel


def profile(device_type, arch, units, clock, flops):
    kernels = [{"frame": {"name": "k%d" % w, "type": "function"}, "children": [],
                "metrics": {"count": 1, "device_id": "0", "device_type": device_type,
                            "time (ns)": TIME_NS, "flops%d" % w: flops[w], "bytes": 1}}
               for w in (8, 16, 32, 64)]
    root = {"frame": {"name": "ROOT", "type": "function"}, "children": kernels,
            "metrics": {"count": 0, "time (ns)": 0, "bytes": 0}}
    device = {"arch": arch, "bus_width": 256, "clock_rate": clock,
              "memory_clock_rate": 1000000, "num_sms": units}
    return [root, {device_type: {"0": device}}]


with tempfile.TemporaryDirectory() as tmp:
    for device_type, arch, units, clock, per_unit, published in ARCHS:
        peak8 = per_unit * units * clock * 1e3
        # Each kernel does half of its width's published peak in 1 ms (or half of the
        # formula's peak where nothing is published), so util reads 0.500 where they agree.
        target = {w: published.get(w, peak8 / (w / 8)) for w in (8, 16, 32, 64)}
        flops = {w: 0.5 * target[w] * TIME_NS * 1e-9 for w in target}
        path = os.path.join(tmp, "%s_%s.json" % (device_type, arch))
        json.dump(profile(device_type, arch, units, clock, flops), open(path, "w"))
        rc, out, err = run("-m", "util", path)
        check(rc == 0, "%s %s: util works (%s)" % (device_type, arch, err.strip()))
        values = {name: float(v) for v, name in split_rows(out) if name != "ROOT"}
        for w in (8, 16, 32, 64):
            expect = flops[w] / (peak8 / (w / 8)) / (TIME_NS * 1e-9)
            got = values.get("k%d" % w)
            check(got is not None and abs(got - expect) <= 0.0005 + 1e-12,
                  "%s %s width %d: util %s, formula %.4f" % (device_type, arch, w, got, expect))
            if w in published:
                check(got is not None and abs(got - 0.5) <= 0.005,
                      "%s %s width %d: %s, published figure gives 0.500" %
                      (device_type, arch, w, got))
    for device_type, arch, word in [("CUDA", "61", "CUDA"), ("HIP", "gfx1030", "HIP")]:
        path = os.path.join(tmp, "unknown.json")
        json.dump(profile(device_type, arch, 10, 1000000, {8: 1, 16: 1, 32: 1, 64: 1}),
                  open(path, "w"))
        rc, _, err = run("-m", "util", path)
        check(rc == 1 and err.strip() == "proton-viewer: error: Metric util: unsupported %s "
              "architecture %s" % (word, arch), "%s %s stays unsupported" % (device_type, arch))

finish("demangle_peaks_check")
