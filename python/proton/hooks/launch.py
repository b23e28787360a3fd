"""``LaunchHook``: Triton's launch hook (profiler.md §1.9, §3.6, §3.7).

For each Triton launch, ``enter`` evaluates the kernel's ``launch_metadata`` under the state
``__proton_launch_metadata:<compiled kernel name>`` (so GPU work it causes lands under that
frame), then opens an *op* named by the metadata's ``"name"`` (or the compiled name) and
attaches every other numeric or tensor entry as a metric. ``exit`` closes the op; the CUDA
launch in between attributes its kernel time and count to the op's node.
"""

from __future__ import annotations

import threading

from .. import _C
from ..metric import transform_tensor_metrics, _tensor_to_host
from ..state import COMPUTE_METADATA_SCOPE_PREFIX
from .hook import Hook

def _compile(patterns):
    if patterns is None:
        return None
    import re  # only when a filter is configured

    if isinstance(patterns, str):
        patterns = [patterns]
    return [re.compile(p) for p in patterns]


def _compiled_name(metadata: Any) -> Optional[str]:
    """The compiled kernel name, read before ``launch_metadata`` may override ``"name"``."""
    data = getattr(metadata, "data", None)
    if isinstance(data, dict):
        name = data.get("name")
        if isinstance(name, str):
            return name
    if isinstance(metadata, dict) and isinstance(metadata.get("name"), str):
        return metadata["name"]
    return None


def _evaluate(metadata: Any) -> dict:
    getter = getattr(metadata, "get", None)
    if callable(getter) and not isinstance(metadata, dict):
        result = getter()
    else:
        result = metadata
    return dict(result) if result is not None else {}


class LaunchHook(Hook):
    """Process-wide singleton: ``LaunchHook() is LaunchHook()``."""

    # Highest priority: runs first at enter and last at exit.
    priority = 100
    flops_width = [8, 16, 32, 64]
    metrics = [f"flops{width}" for width in flops_width] + ["bytes"] + ["flops"]
    # Metadata keys that are never metrics.
    reserved_keys = ("name", "function", "stream")

    _instance = None
    _instance_lock = threading.Lock()

    def __new__(cls):
        if cls._instance is None:
            with cls._instance_lock:
                if cls._instance is None:
                    instance = super().__new__(cls)
                    instance._local = threading.local()
                    instance._include = None
                    instance._exclude = None
                    cls._instance = instance
        return cls._instance

    def configure(self, *, include=None, exclude=None) -> None:
        """Limits the hook to kernels whose compiled name matches (``re.match``) ``include``
        and none of ``exclude``. Launches filtered out are recorded like unhooked launches."""
        self._include = _compile(include)
        self._exclude = _compile(exclude)

    def _selected(self, kernel: Optional[str]) -> bool:
        if self._include is None and self._exclude is None:
            return True
        name = kernel or ""
        if self._include is not None and not any(p.match(name) for p in self._include):
            return False
        if self._exclude is not None and any(p.match(name) for p in self._exclude):
            return False
        return True

    def _ops(self) -> list:
        local = self._local
        ops = getattr(local, "ops", None)
        if ops is None:
            ops = local.ops = []
            local.busy = False
        return ops

    def enter(self, metadata) -> None:
        ops = self._ops()
        local = self._local
        kernel = _compiled_name(metadata)
        # Re-entry guard: launches made while the hook runs (e.g. by launch_metadata itself)
        # are not hooked again; a None entry keeps enter/exit paired.
        if local.busy or not _C.get_profiling_on() or not self._selected(kernel):
            ops.append(None)
            return
        local.busy = True
        state_name = COMPUTE_METADATA_SCOPE_PREFIX + (kernel or "")
        _C.enter_state(state_name)
        try:
            values = _evaluate(metadata)
            fn_metrics = {k: v for k, v in values.items()
                          if k not in self.reserved_keys
                          and (isinstance(v, (int, float)) or hasattr(v, "data_ptr"))}
            scalar_metrics, tensor_metrics = transform_tensor_metrics(fn_metrics)
            # Device tensors are read back while the state is active, so the copies land
            # under __proton_launch_metadata/<kernel>.
            for key, tensor in tensor_metrics.items():
                value = _tensor_to_host(tensor)
                if value is not None:
                    scalar_metrics[key] = value
        finally:
            _C.exit_state()
            local.busy = False
        op_name = values.get("name")
        if not isinstance(op_name, str):
            op_name = kernel or "<unknown kernel>"
        op_id = _C.new_scope_id()
        _C.enter_op(op_id, op_name)
        ops.append(op_id)
        if scalar_metrics:
            _C.add_op_metrics(op_id, scalar_metrics)

    def exit(self, metadata) -> None:
        ops = self._ops()
        if not ops:
            return
        op_id = ops.pop()
        if op_id is not None:
            _C.exit_op(op_id)


__all__ = ["LaunchHook"]
