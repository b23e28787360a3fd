"""Profiling modes (profiler.md §1.10). ``str(mode)`` is the mode string given to the core."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class BaseMode:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class PCSampling(BaseMode):
    name: str = field(default="pcsampling", init=False)
    interval: int = 1000

    def __post_init__(self):
        if self.interval <= 0:
            raise ValueError("Interval must be a positive integer.")

    def __str__(self) -> str:
        return f"{self.name}:interval={self.interval}"


__all__ = ["BaseMode", "PCSampling"]
