"""Phases on real kernels (profiler.md §3.11), for tests/gpu/phases_check.py.

  phases.py flat STEPS            the loop without phases (under `proton`)
  phases.py phased STEPS          advance_phase() after every step (under `proton -m periodic_flushing`)
  phases.py kill STEPS K NAME     as phased, then SIGKILL itself once part K-1 of NAME is on disk
  phases.py vllm STEPS NAME       API mode: a session with a vLLM-style phase manager and a
                                  background exporter thread (tests/python/vllm_phase_manager.py)

Setup (phase 0): tensors, a warm-up, and a CUDA graph of two elementwise kernels captured in
scope "capture". Each step, in scope "step": a Triton add, a cuBLAS matmul, and two replays of
the graph in scope "replay"; so every step launches the same kernels and every phase after
phase 0 holds exactly one step."""

import os
import signal
import sys
import time

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
    return out


def setup(proton):
    x = torch.randn(1 << 20, device="cuda")
    y = torch.randn(1 << 20, device="cuda")
    a = torch.randn(512, 512, device="cuda", dtype=torch.float16)
    b = torch.randn(512, 512, device="cuda", dtype=torch.float16)
    static = torch.randn(1 << 16, device="cuda")
    add(x, y)
    _ = a @ b
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture, as torch.cuda.graph asks
        _ = (static * 2.0).sin()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with proton.scope("capture"):
        with torch.cuda.graph(graph):
            _ = (static * 2.0).sin()
    torch.cuda.synchronize()
    return x, y, a, b, graph


def step(proton, tensors):
    x, y, a, b, graph = tensors
    with proton.scope("step"):
        add(x, y)
        _ = a @ b
        with proton.scope("replay"):
            graph.replay()
            graph.replay()
    torch.cuda.synchronize()


def wait_for_file(path, timeout=60):
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {path}")
        time.sleep(0.01)


def run_cli(mode, steps, args):
    import triton.profiler as proton  # ours, through the command's alias

    tensors = setup(proton)
    for i in range(steps):
        step(proton, tensors)
        if mode != "flat":
            proton.data.advance_phase()
        if mode == "kill" and i + 1 == int(args[0]):
            wait_for_file(f"{args[1]}.part_{i}.hatchet")
            print("killing myself after part", i, flush=True)
            os.kill(os.getpid(), signal.SIGKILL)


def run_vllm(steps, name):
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import proton
    from vllm_phase_manager import Exporter, PhaseManager

    session = proton.start(name=name, context="shadow", data="tree", hook=None)
    if session is None:
        raise SystemExit("proton.start returned None")
    manager = PhaseManager(session, name, "json")
    exporter = Exporter(manager)
    exporter.start()
    tensors = setup(proton)
    for _ in range(steps):
        step(proton, tensors)
        manager.rotate()
    deadline = time.monotonic() + 60
    while len(manager.exported) < steps and exporter.error is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"exporter took {len(manager.exported)} of {steps} phases")
        time.sleep(0.01)
    exporter.stop.set()
    exporter.join(timeout=30)
    if exporter.error is not None:
        raise exporter.error
    manager.drain()
    manager.close()
    proton.deactivate(session=session)
    proton.finalize(session=session)
    # The steps' phases were the exporter thread's; drain exported the last one itself.
    print("exported by", sorted({manager.exported[p] for p in range(steps)}), flush=True)


if __name__ == "__main__":
    mode, steps = sys.argv[1], int(sys.argv[2])
    if mode == "vllm":
        run_vllm(steps, sys.argv[3])
    else:
        run_cli(mode, steps, sys.argv[3:])
