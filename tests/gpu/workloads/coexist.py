# G11 (profiler.md §5.2, §7.2): our profiler next to torch.profiler (Kineto), the usual second
# CUPTI subscriber in a process. Prints one line `CHECK <name> PASS|FAIL <details>` per check.
#   coexist.py cli             under `proton`: torch.profiler inside the script; it completes
#   coexist.py api_during      proton.start() while torch.profiler records -> the exact error
#   coexist.py api_after       torch.profiler after our finalize() still records CUDA kernels
import os, sys
import torch
import triton.profiler as proton

OUT = os.environ.get("OUT", "/tmp")
EXPECTED = ("CUPTI is already in use by another profiler in this process "
            "(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): stop torch.profiler/Kineto, "
            "Nsight Systems, Nsight Compute or the other CUPTI tool first, or set "
            "PROTON_DISABLE=1 to run without proton")


def kernels():
    a = torch.randn(256, 256, device="cuda")
    for _ in range(3):
        a = a @ a / 256
    torch.cuda.synchronize()


def torch_profiled(inside=None):
    """Runs kernels under torch.profiler; returns the number of CUDA kernel events it saw."""
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        kernels()
        if inside is not None:
            inside()
    return sum(1 for e in prof.events() if str(e.device_type).endswith("CUDA"))


def check(name, ok, details=""):
    print(f"CHECK {name} {'PASS' if ok else 'FAIL'} {details}", flush=True)


mode = sys.argv[1]
if mode == "cli":
    with proton.scope("before_torch_profiler"):
        kernels()
    events = torch_profiled()
    with proton.scope("after_torch_profiler"):
        kernels()
    # Which subscriber won is not ours to choose; the script must simply run to the end.
    check("g11_cli_completes", True, f"torch.profiler CUDA events={events}")
elif mode == "api_during":
    raised = []

    def start_inside():
        try:
            proton.start(f"{OUT}/coexist_during")
            raised.append("no error")
            proton.finalize()
        except RuntimeError as error:
            raised.append(str(error))

    events = torch_profiled(start_inside)
    message = raised[0] if raised else "not called"
    check("g11_api_start_during_torch_profiler", message == EXPECTED,
          f"got {message!r}; torch.profiler CUDA events={events}")
elif mode == "api_after":
    proton.start(f"{OUT}/coexist_after")
    with proton.scope("ours"):
        kernels()
    proton.finalize()
    events = torch_profiled()
    check("g11_torch_profiler_after_finalize", events > 0, f"CUDA events={events}")
else:
    sys.exit(f"unknown mode {mode}")
