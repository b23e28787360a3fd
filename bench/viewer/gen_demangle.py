#!/usr/bin/env python3
"""Profiles of C++ kernel names for bench/viewer/demangle_bench.sh (viewer.md §11.9):
  gen_demangle.py doubling BYTES OUT         one kernel whose name doubles per substitution
  gen_demangle.py hostile COUNT BYTES OUT    COUNT distinct such names of BYTES bytes
  gen_demangle.py leafy COUNT BYTES OUT      the same with 64-letter leaves (their
                                             identifiers alone pass the output limit)
  gen_demangle.py real COUNT OUT             COUNT distinct real PyTorch kernel names
A doubling name is _Z<f>1A1BIS_S_E then S0_IS1_S1_E, S0_IS2_S2_E, ...: each parameter holds
the previous one twice. Standard library only."""
import json
import sys

# The longest kernel of tests/refdata (458 bytes mangled, 5,082 demangled), with its template
# argument Li4 replaced by Li<n> so that every copy is a distinct name.
REAL = ("_ZN2at6native54_GLOBAL__N__d8ceb000_21_DistributionNormal_cu_0c5b6e8543distribution_"
        "elementwise_grid_stride_kernelIfLi%dEZNS0_9templates4cuda20normal_and_transformIN3c104"
        "HalfEfPNS_17CUDAGeneratorImplEZZZNS4_13normal_kernelIS9_EEvRKNS_10TensorBaseEddT_ENKUlv"
        "E_clEvENKUlvE1_clEvEUlfE_EEvRNS_18TensorIteratorBaseET1_T2_EUlP24curandStatePhilox4_32_"
        "10E0_ZNS1_27distribution_nullary_kernelIS7_f6float4S9_SO_SH_EEvSJ_SL_RKT3_T4_EUlifE_EEvl"
        "NS_15PhiloxCudaStateESK_SL_")


def substitution(i):
    if i == 0:
        return "S_"
    n, digits = i - 1, ""
    while True:
        digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 36] + digits
        n //= 36
        if n == 0:
            return "S" + digits + "_"


def doubling_name(length, function="f", leaf="A"):
    name = "_Z%d%s%d%s1BIS_S_E" % (len(function), function, len(leaf), leaf)
    k = 2
    while len(name) < length:
        name += "S0_I%s%sE" % (substitution(k), substitution(k))
        k += 1
    return name


def write(path, names):
    kernels = [{"children": [], "frame": {"name": n, "type": "function"},
                "metrics": {"count": 1, "device_id": "0", "device_type": "CUDA",
                            "time (ns)": 1000 + i}} for i, n in enumerate(names)]
    root = {"children": kernels, "frame": {"name": "ROOT", "type": "function"},
            "metrics": {"count": 0, "time (ns)": 0}}
    with open(path, "w") as f:
        json.dump([root, {"CUDA": {"0": {"arch": "90", "bus_width": 5120, "clock_rate": 1980000,
                                         "memory_clock_rate": 2619000, "num_sms": 132}}}], f)


def main(argv):
    kind = argv[1]
    if kind == "doubling":
        write(argv[3], [doubling_name(int(argv[2]))])
    elif kind == "hostile":
        write(argv[4], [doubling_name(int(argv[3]), "f%d" % i) for i in range(int(argv[2]))])
    elif kind == "leafy":
        write(argv[4], [doubling_name(int(argv[3]), "f%d" % i, "a" * 64)
                        for i in range(int(argv[2]))])
    elif kind == "real":
        write(argv[3], [REAL % i for i in range(int(argv[2]))])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
