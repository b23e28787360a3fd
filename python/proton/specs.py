"""Peak device throughput (``triton.profiler.specs``), as used by the viewer's ``util`` and
``*/%`` metrics. Formulas and units: viewer.md §4.5 (clock rates in kHz, bus widths in bits).
"""

flops_by_device = {
    "CUDA": {
        "80": lambda width, **kwargs: 624e12 / (width / 8),
        "89": lambda width, **kwargs: (330.3 * 1e12) / (width / 8),
        "90": lambda width, num_sms, clock_rate, **kwargs:
            ((num_sms / 114 * clock_rate / (1755 * 1e3) * 1513) * 1e12) / (width / 8),
        "100": lambda width, num_sms, clock_rate, **kwargs:
            (num_sms * 16384 * (clock_rate / 1e3) * 1e6) / (width / 8),
    },
    "HIP": {
        "gfx90a": lambda width, num_sms, clock_rate, **kwargs:
            1024 * num_sms * clock_rate * 1e3 / (width / 8),
        "gfx942": lambda width, num_sms, clock_rate, **kwargs:
            4096 * num_sms * clock_rate * 1e3 / (width / 8),
        "gfx950": lambda width, num_sms, clock_rate, **kwargs:
            8192 * num_sms * clock_rate * 1e3 / (width / 8),
    },
}

_HIP_BANDWIDTH = {"gfx90a": 3.2 * 1e12, "gfx942": 5.3 * 1e12, "gfx950": 8.0 * 1e12}


def max_flops(device_type, arch, width, num_sms, clock_rate):
    """Peak FLOP/s of one device at ``width`` bits."""
    if device_type not in flops_by_device:
        raise ValueError(f"Unsupported device type: {device_type}")
    if arch not in flops_by_device[device_type]:
        raise ValueError(f"Unsupported architecture: {arch}")
    return flops_by_device[device_type][arch](width=width, num_sms=num_sms, clock_rate=clock_rate)


def max_bps(device_type, arch, bus_width, memory_clock_rate):
    """Peak memory bandwidth of one device in bytes/s."""
    if device_type == "CUDA":
        return 2 * bus_width * memory_clock_rate * 1e3 / 8
    if device_type == "HIP":
        if arch not in _HIP_BANDWIDTH:
            raise ValueError(f"Unsupported architecture: {arch}")
        return _HIP_BANDWIDTH[arch]
    raise ValueError(f"Unsupported device type: {device_type}")


__all__ = ["flops_by_device", "max_flops", "max_bps"]
