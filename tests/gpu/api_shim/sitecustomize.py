"""Test harness shim for API-mode workloads (tests/gpu/run.sh, bench/overhead/run_overhead.py).

The workloads do `import triton.profiler as proton`. To measure *our* module with the same
scripts, this sitecustomize installs our `triton.profiler` alias (profiler.md §2.12) from the
bootstrap directory named by PROTON_BOOTSTRAP_DIR, then, at exit, prints one marker line on
stderr saying which module the script really used. The harness refuses a run without
`[api-shim] triton.profiler=ours`, so a missing alias can never pass Triton's own profiler off
as ours.
"""
import atexit
import os
import sys


def _install():
    boot = os.environ.get("PROTON_BOOTSTRAP_DIR", "")
    if boot and boot not in sys.path:
        sys.path.insert(0, boot)
    try:
        import _proton_alias
        _proton_alias.install()
    except Exception as error:  # reported by the marker below
        sys.stderr.write(f"[api-shim] alias not installed: {error!r}\n")


def _report():
    module = sys.modules.get("triton.profiler")
    if module is None:
        sys.stderr.write("[api-shim] triton.profiler=not-imported\n")
        return
    ours = sys.modules.get("proton")
    which = "ours" if ours is not None and module is ours else "triton"
    sys.stderr.write(f"[api-shim] triton.profiler={which} ({getattr(module, '__file__', '?')})\n")


_install()
atexit.register(_report)
