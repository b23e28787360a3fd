"""Metric helpers and values (profiler.md §1.8).

Accepted metric values: int (bool counts as int), float, a list of ints or of floats, a CPU
tensor (read with ``.item()``/``.tolist()``) and a device tensor (copied to the host, which
synchronises its stream). The roofline names are coerced: ``flops*`` to float, ``bytes`` to
int. The conversion itself happens in ``proton._C``; tensors come back here.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, Tuple

from . import _C

FLOPS_WIDTHS = (8, 16, 32, 64)
ROOFLINE_METRICS = tuple(f"flops{w}" for w in FLOPS_WIDTHS) + ("flops", "bytes")

_skipped_under_capture = 0
_warned_capture = False


def _is_tensor(value: Any) -> bool:
    return hasattr(value, "data_ptr")


def _on_cpu(tensor: Any) -> bool:
    device = getattr(tensor, "device", None)
    return device is None or getattr(device, "type", "cpu") == "cpu"


def _capturing() -> bool:
    """True while the current CUDA stream is being captured into a graph (torch only)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    try:
        return bool(torch.cuda.is_current_stream_capturing())
    except Exception:  # noqa: BLE001 - no CUDA, or an old torch
        return False


def _tensor_to_host(tensor: Any):
    """A tensor metric as a scalar or list, or None when it must be skipped (graph capture).

    Device tensors under CUDA-graph capture cannot be read back; until metric kernels exist
    (profiler.md §1.8, later) they are skipped and counted, with one warning per process.
    """
    global _skipped_under_capture, _warned_capture
    if not _on_cpu(tensor) and _capturing():
        _skipped_under_capture += 1
        if not _warned_capture:
            _warned_capture = True
            print("[proton] warning: tensor metrics recorded during CUDA graph capture are "
                  "skipped", file=sys.stderr)
        return None
    numel = tensor.numel() if hasattr(tensor, "numel") else 1
    if numel == 1 and getattr(tensor, "dim", lambda: 0)() == 0:
        return tensor.item()
    return tensor.tolist()


def transform_tensor_metrics(metrics: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """Splits ``metrics`` into ``(scalar_metrics, tensor_metrics)``.

    CPU tensors are read into the scalar part; device tensors stay in the tensor part.
    """
    scalar_metrics: Dict[str, Any] = {}
    tensor_metrics: Dict[str, Any] = {}
    for key, value in metrics.items():
        if _is_tensor(value):
            if _on_cpu(value):
                scalar_metrics[key] = _tensor_to_host(value)
            else:
                tensor_metrics[key] = value
        else:
            scalar_metrics[key] = value
    return scalar_metrics, tensor_metrics


def _ensure_registered() -> None:
    _C.set_tensor_converter(_tensor_to_host)


_ensure_registered()

__all__ = ["FLOPS_WIDTHS", "transform_tensor_metrics"]
