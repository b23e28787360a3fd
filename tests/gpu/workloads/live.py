"""A paced periodic-flushing training loop for the live view's GPU check
(tests/gpu/live_view_check.sh; viewer.md §11.14, §11.15).

  live.py STEPS [PAUSE_S]      under `proton -m periodic_flushing`, alone or under torchrun

Each step, in scope "step": a Triton add in scope "add" and fp16 matmuls (cuBLAS) in scope
"matmul", then advance_phase(), then a pause (default 0.4 s) so that the parts appear one by
one while a live view watches. Rank 1 (RANK, as torchrun sets it) does twice the matmuls in
steps 3-9: the slowest rank of those steps and a persistent straggler. No torch.distributed:
the ranks only share the GPU."""

import os
import sys
import time

import torch
import triton
import triton.language as tl

MATMULS = 200
SLOW_STEPS = range(3, 10)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


def main():
    import triton.profiler as proton  # ours, through the command's alias

    steps = int(sys.argv[1])
    pause = float(sys.argv[2]) if len(sys.argv) > 2 else 0.4
    rank = int(os.environ.get("RANK", "0"))
    x = torch.randn(1 << 22, device="cuda")
    y = torch.randn(1 << 22, device="cuda")
    a = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    b = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    out = torch.empty_like(x)
    for i in range(steps):
        matmuls = MATMULS * (2 if rank == 1 and i in SLOW_STEPS else 1)
        with proton.scope("step"):
            with proton.scope("add"):
                add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
            with proton.scope("matmul"):
                for _ in range(matmuls):
                    _ = a @ b
        torch.cuda.synchronize()
        proton.data.advance_phase()
        print(f"rank {rank} step {i} done at {time.time():.3f}", flush=True)
        time.sleep(pause)


if __name__ == "__main__":
    main()
