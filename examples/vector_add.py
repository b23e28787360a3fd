"""A tiny GPU program to profile: a Triton vector add inside proton scopes.

Run it under the profiler (scripts/quickstart.sh does this on a GPU machine):

    build/bin/proton -n build/quickstart examples/vector_add.py
    build/bin/proton-viewer -m time/us,count build/quickstart.hatchet

Under the `proton` command, `import triton.profiler` resolves to our module, so the script is
written exactly as for Triton's Proton. Without Triton it falls back to torch's add.
"""
import sys

import torch

try:
    import triton
    import triton.language as tl
except ImportError:  # plain PyTorch environment
    triton = None

try:
    import triton.profiler as proton
except ImportError:
    try:
        import proton
    except ImportError:
        proton = None

if triton is not None:

    def _metadata(grid, kernel, args):
        n = args["n_elements"]
        return {"name": f"vector_add_{n}", "flops32": n, "bytes": 3 * n * 4}

    @triton.jit(launch_metadata=_metadata)
    def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask)
        y = tl.load(y_ptr + offsets, mask=mask)
        tl.store(out_ptr + offsets, x + y, mask=mask)


def vector_add(x, y):
    if triton is None:
        return x + y
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out


def main(iterations):
    x = torch.rand(1 << 20, device="cuda")
    y = torch.rand(1 << 20, device="cuda")
    for _ in range(iterations):
        if proton is not None:
            with proton.scope("vector_add"):
                out = vector_add(x, y)
        else:
            out = vector_add(x, y)
    torch.cuda.synchronize()
    assert torch.allclose(out, x + y)
    print(f"vector_add: {iterations} launches of {x.numel()} elements, result checked")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
