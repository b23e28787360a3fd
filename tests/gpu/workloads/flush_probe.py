"""How soon periodic flushing writes a sealed phase on real CUPTI (profiler.md §3.11, §5.14):
API mode, `PROTON_VERBOSE=1` recommended. Prints one `CHECK` line per variant:

- plain: torch kernels, synchronize, advance_phase, then wait (GPU idle) for the part;
- graph: the same with CUDA-graph replays in the phase;
- busy: advance while kernels of the next phase keep the GPU busy, and wait for the part.

  flush_probe.py NAME"""

import os
import sys
import time

import torch

import proton


def wait_part(path, timeout=5.0):
    begin = time.monotonic()
    while not os.path.exists(path):
        if time.monotonic() - begin > timeout:
            return None
        time.sleep(0.002)
    return (time.monotonic() - begin) * 1e3


def report(name, waited):
    ok = waited is not None
    print(f"CHECK flush_probe_{name} {'PASS' if ok else 'FAIL'} "
          + (f"part written {waited:.1f} ms after the advance" if ok else "no part after 5 s"),
          flush=True)


def main(name):
    s = proton.start(name, mode="periodic_flushing")
    x = torch.zeros(1 << 16, device="cuda")
    static = torch.zeros(1 << 16, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        static.add_(1)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static.add_(1)
    torch.cuda.synchronize()
    phase = 0

    for _ in range(20):
        x.add_(1)
    torch.cuda.synchronize()
    proton.data.advance_phase(s)
    report("plain", wait_part(f"{name}.part_{phase}.hatchet"))
    phase += 1

    for _ in range(5):
        graph.replay()
    torch.cuda.synchronize()
    proton.data.advance_phase(s)
    report("graph", wait_part(f"{name}.part_{phase}.hatchet"))
    phase += 1

    for _ in range(20):
        x.add_(1)
    proton.data.advance_phase(s)
    begin = time.monotonic()
    path = f"{name}.part_{phase}.hatchet"
    while not os.path.exists(path) and time.monotonic() - begin < 5.0:
        for _ in range(50):
            x.add_(1)  # the next phase keeps the GPU busy
        time.sleep(0.001)
    waited = (time.monotonic() - begin) * 1e3 if os.path.exists(path) else None
    report("busy", waited)
    proton.finalize()


if __name__ == "__main__":
    main(sys.argv[1])
