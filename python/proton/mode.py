"""Profiling modes (profiler.md §1.10). ``str(mode)`` is the mode string given to the core.

Written as plain immutable classes rather than dataclasses: ``dataclasses`` imports
``inspect``, which would double the cost of ``import proton``.
"""


class BaseMode:
    """A named mode; ``str()`` is its mode string."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __setattr__(self, key, value):
        raise AttributeError(f"cannot assign to field {key!r}")

    def _fields(self):
        return tuple(getattr(self, k) for k in self._field_names())

    @classmethod
    def _field_names(cls):
        return ("name",)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self):
        return hash((self.__class__, self._fields()))

    def __repr__(self):
        args = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._field_names())
        return f"{self.__class__.__name__}({args})"

    def __str__(self) -> str:
        return self.name


class PCSampling(BaseMode):
    """``pcsampling:interval=N`` (CUPTI instruction sampling with stall reasons)."""

    __slots__ = ("interval",)

    def __init__(self, interval: int = 1000) -> None:
        super().__init__("pcsampling")
        if interval <= 0:
            raise ValueError("Interval must be a positive integer.")
        object.__setattr__(self, "interval", interval)

    @classmethod
    def _field_names(cls):
        return ("name", "interval")

    def __str__(self) -> str:
        return f"{self.name}:interval={self.interval}"


__all__ = ["BaseMode", "PCSampling"]
