"""Wall time of a small GPU loop (20 cuBLAS matmuls and 20 Triton adds per iteration) with no
profiler, with Triton's Proton in `pcsampling` mode, and with ours (bench/overhead/RESULTS.md).

  pcsampling_overhead.py none|profiled ITERS

`profiled` starts `triton.profiler` in mode pcsampling: Triton's own, or ours when the api shim
puts our module behind that name (tests/gpu/api_shim, as tests/gpu/run.sh does). Prints
`elapsed_ms <ms>` for the timed iterations, after one untimed warm-up iteration."""

import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


def iteration(a, b, x, y, out):
    for _ in range(20):
        _ = a @ b
        add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
    torch.cuda.synchronize()


def main(mode, iters):
    a = torch.randn(512, 512, device="cuda")
    b = torch.randn(512, 512, device="cuda")
    x, y = torch.randn(1 << 20, device="cuda"), torch.randn(1 << 20, device="cuda")
    out = torch.empty_like(x)
    proton = None
    if mode == "profiled":
        import triton.profiler as proton
        proton.start("pcs_overhead", backend="cupti", mode="pcsampling")
    iteration(a, b, x, y, out)
    begin = time.perf_counter()
    for _ in range(iters):
        iteration(a, b, x, y, out)
    elapsed = (time.perf_counter() - begin) * 1e3
    if proton is not None:
        proton.finalize()
    print(f"elapsed_ms {elapsed:.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
