"""``proton.viewer``: the viewer as a command and as a Python API (viewer.md §11.10).

``python -m proton.viewer [args]`` and ``proton.viewer.main()`` behave like
``proton-viewer [args]``. The executable is looked up inside this package (``_bin``, where the
wheel puts it), next to it in the build tree (``<build>/bin``), then on ``PATH``.

The functions below have the names, signatures and defaults of Triton's
``triton.profiler.viewer``, so that scripts written for it run unchanged::

    tree, metrics = proton.viewer.parse(["time/ms"], "matmul.hatchet")
    proton.viewer.print_tree(tree, metrics)

They run on the C++ viewer (the ``proton._viewer`` extension): ``print_tree`` prints exactly
what ``proton-viewer`` prints for the same options, and errors raise an exception whose
message is the command's error line without its ``proton-viewer: error:`` prefix.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Any, List, Optional, Sequence, Tuple, Union

from ._viewer_tree import GraphFrame, core

Metrics = Union[str, Sequence[str]]

# The flop widths of the util metric (viewer.md §4.4.5).
_FLOPS_WIDTHS = (8, 16, 32, 64)


def _find_viewer() -> Optional[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "_bin", "proton-viewer"),  # installed wheel
                      os.path.join(here, "..", "..", "bin", "proton-viewer"),  # build tree
                      os.path.join(here, "bin", "proton-viewer")):
        if os.access(candidate, os.X_OK):
            return os.path.normpath(candidate)
    return shutil.which("proton-viewer")


def main(argv: Optional[List[str]] = None) -> int:
    """Runs proton-viewer with ``argv`` (default: ``sys.argv[1:]``); returns its status."""
    args = sys.argv[1:] if argv is None else list(argv)
    viewer = _find_viewer()
    if viewer is None:
        from ._cli import not_built_reason
        reason = not_built_reason("proton-viewer")
        print("proton-viewer: error: " + (reason or "the proton-viewer executable was not found"),
              file=sys.stderr)
        return 1
    return subprocess.call([viewer] + args)


# ---- reading ------------------------------------------------------------------------------

def _read_file(filename: Any) -> GraphFrame:
    """Reads the profile file ``filename`` (str, bytes or os.PathLike), opened as ``open()``
    opens it: the same names work, and a name that cannot be opened raises what ``open()``
    raises (FileNotFoundError, IsADirectoryError, ValueError for a NUL byte, ...). An int,
    which open() takes as a file descriptor to read and then close, is refused."""
    if isinstance(filename, int):
        raise TypeError(f"expected str, bytes or os.PathLike object, not {type(filename).__name__}")
    with open(filename, "rb", buffering=0) as f:
        return GraphFrame.read_fd(f.fileno(), os.fsencode(filename))


def _read_source(x: Any) -> GraphFrame:
    if isinstance(x, (str, os.PathLike)):
        return _read_file(x)
    if isinstance(x, (bytes, bytearray, memoryview)):
        return GraphFrame.read_bytes(bytes(x), "<memory>")
    if hasattr(x, "read"):
        data = x.read()
        name = str(getattr(x, "name", "<file>"))
        return GraphFrame.read_bytes(data.encode() if isinstance(data, str) else data, name)
    if isinstance(x, (list, tuple, dict)):
        # The document of proton.data.get(): read back as the JSON it came from, written
        # without recursion as deep as it is.
        from ._json_text import dumps
        return GraphFrame.read_bytes(dumps(x).encode(), "<memory>")
    raise TypeError("expected a file name, a file, bytes or the document of proton.data.get(), "
                    f"not {type(x).__name__}")


def get_raw_metrics(x: Any) -> Tuple[GraphFrame, List[str], List[str], dict]:
    """Reads ``x`` (a file name, an open file, bytes of a profile, or ``proton.data.get()``'s
    document).

    Returns ``(gf, inclusive_metrics, exclusive_metrics, device_info)``: the raw metric keys
    listed on the root, ``"name"`` and the other keys, and the device table."""
    gf = _read_source(x)
    inclusive, exclusive = gf.metric_names()
    return gf, inclusive, exclusive, gf.device_info()


def read(filename: Any) -> Tuple[GraphFrame, List[str], List[str], dict]:
    """:func:`get_raw_metrics` of the file ``filename`` (str, bytes or os.PathLike, as for
    ``open()``); inclusive sums are always up to date."""
    gf = _read_file(filename)
    inclusive, exclusive = gf.metric_names()
    return gf, inclusive, exclusive, gf.device_info()


# ---- metrics ------------------------------------------------------------------------------

def _metric_text(metrics: Metrics) -> str:
    """``metrics`` (a list, or one comma-separated string) as the text of ``-m``."""
    return metrics if isinstance(metrics, str) else ",".join(metrics)


def _split_items(text: str) -> List[str]:
    """The items of an -m text that the command's checks accepted."""
    return [item.strip(" \t") for item in text.split(",")] if text else []


def _metric_items(metrics: Metrics) -> List[str]:
    """The -m items of ``metrics``, checked as the command checks ``-m``."""
    text = _metric_text(metrics)
    core().check_view(_option_text(text), "", "", None)
    return _split_items(text)


# ---- SQL ----------------------------------------------------------------------------------

def to_sqlite(files: Any, path: Any, metrics: Optional[Metrics] = None) -> str:
    """Writes the SQLite database of the profile ``files`` (one name, or a list: ranks, part
    files) to ``path``, as ``proton-viewer --export PATH.sqlite FILE...`` does (viewer.md
    §11.13; schema: formats.md §8), and returns ``path``. ``metrics`` (items as for ``-m``,
    raw or derived) become columns of ``frame_values`` besides every raw metric. ``path`` is
    replaced only once the database is complete. Read it with ``sqlite3`` or
    ``pandas.read_sql``::

        db = proton.viewer.to_sqlite(glob.glob("run.rank*.hatchet"), "run.sqlite")
        pandas.read_sql("SELECT * FROM frame_rows WHERE kind = 'kernel'", sqlite3.connect(db))

    Names are opened as ``open()`` opens them first, so a missing file raises what ``open()``
    raises; a file that is not a profile, or files from different devices, raise
    RuntimeError with the command's message."""
    names = [files] if isinstance(files, (str, bytes, os.PathLike)) else list(files)
    encoded = []
    for name in names:
        if isinstance(name, int):
            raise TypeError(f"expected str, bytes or os.PathLike object, not {type(name).__name__}")
        with open(name, "rb", buffering=0):
            pass
        # '-' is a file name here, not standard input as on the command line.
        encoded.append(b"./-" if os.fsencode(name) == b"-" else os.fsencode(name))
    items = _metric_items(metrics) if metrics else []
    core().to_sqlite(encoded, os.fsencode(path), items)
    return os.fspath(path)


def derive_metrics(gf: GraphFrame, metrics: Metrics, inclusive_metrics: Any = None,
                   exclusive_metrics: Any = None, device_info: Any = None) -> List[str]:
    """Computes the columns of ``metrics`` (raw or derived, viewer.md §4) on ``gf`` and
    returns their labels (``"time/ms (inc)"``, ``"util"``, ...). The metric lists and the
    device table are those ``gf`` was read with; the arguments are accepted for
    compatibility and not needed."""
    return core().derive(gf.handle, _metric_items(metrics))


def _on_device(df: Any, device_index: str) -> Any:
    """Rows whose device_id is ``device_index`` (compared as text, viewer.md §4.4.5)."""
    def as_text(value: Any) -> Optional[str]:
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and value == value:
            return str(int(value)) if float(value).is_integer() else str(value)
        return None

    if "device_id" not in df.columns:
        return df.index != df.index
    return df["device_id"].map(as_text) == str(device_index)


def get_min_time_flops(df: Any, device_info: dict) -> Any:
    """Per row, the least time the row's flops take at the device's peak (``min_time``)."""
    import pandas
    from . import specs
    min_time = pandas.DataFrame(0.0, index=df.index, columns=["min_time"])
    for device_type, devices in device_info.items():
        for device_index, device in devices.items():
            rows = _on_device(df, device_index)
            for width in _FLOPS_WIDTHS:
                if f"flops{width}" not in df.columns:
                    continue
                peak = specs.max_flops(device_type, device.get("arch"), width,
                                       device.get("num_sms"), device.get("clock_rate"))
                flops = df.loc[rows, f"flops{width}"].astype(float).fillna(0.0)
                min_time.loc[rows, "min_time"] += flops / peak
    return min_time


def get_min_time_bytes(df: Any, device_info: dict) -> Any:
    """Per row, the least time the row's bytes take at the device's peak bandwidth."""
    import pandas
    from . import specs
    min_time = pandas.DataFrame(0.0, index=df.index, columns=["min_time"])
    for device_type, devices in device_info.items():
        for device_index, device in devices.items():
            rows = _on_device(df, device_index)
            peak = specs.max_bps(device_type, device.get("arch"), device.get("bus_width"),
                                 device.get("memory_clock_rate"))
            moved = (df.loc[rows, "bytes"].astype(float) if "bytes" in df.columns
                     else float("nan"))
            min_time.loc[rows, "min_time"] += moved / peak
    return min_time


# ---- filters and names --------------------------------------------------------------------

def _option_text(value: Any) -> str:
    """A str option value, refused with the TypeError that joining it to its option's name
    (``"--include=" + value``, the command line this API once built) raised."""
    return "" + value


class _FilterPass:
    """The -i/-e/-t values of one filter pass (the text of -t as ``str()`` makes it)."""

    def __init__(self, include: str = "", exclude: str = "",
                 threshold: Optional[str] = None) -> None:
        self.include, self.exclude, self.threshold = include, exclude, threshold


def _filter_passes(include: Optional[str], exclude: Optional[str],
                   threshold: Any) -> List[_FilterPass]:
    """The -i/-e/-t values of each filter pass. The command refuses -i with -e (§2.3); the
    reference's filter_frames applies the include, then the exclude filter: two passes."""
    include_text = _option_text(include) if include else ""
    exclude_text = _option_text(exclude) if exclude else ""
    threshold_text = None if threshold is None else str(threshold)
    if include and exclude:
        return [_FilterPass(include=include_text),
                _FilterPass(exclude=exclude_text, threshold=threshold_text)]
    if include or exclude or threshold is not None:
        return [_FilterPass(include_text, exclude_text, threshold_text)]
    return []


def _filter_in_place(gf: GraphFrame, options: _FilterPass, metric: Optional[str]) -> None:
    if options.threshold is not None and metric is None:
        raise ValueError("a threshold needs the metric it applies to (metric=...)")
    core().filter(gf.handle, options.include, options.exclude, options.threshold, metric or "")


def filter_frames(gf: GraphFrame, include: Optional[str] = None, exclude: Optional[str] = None,
                  threshold: Optional[float] = None, metric: Optional[str] = None) -> GraphFrame:
    """``gf`` reduced by the -i/-e/-t filters (viewer.md §5); ``metric`` is the label of
    the column the threshold tests. Returns a new tree when some filter applies."""
    passes = _filter_passes(include, exclude, threshold)
    if not passes:
        return gf
    filtered = gf.copy()
    for options in passes:
        _filter_in_place(filtered, options, metric)
    return filtered


def format_frames(gf: GraphFrame, format: Optional[str]) -> GraphFrame:
    """Sets how ``gf`` shows frame names (``-f``, viewer.md §7.1); returns ``gf``."""
    if format is not None:
        _check_scan(["--format", format])
        core().check_format(format)
        gf.format = None if format == "full" else format
    return gf


def _check_scan(options: List[Any]) -> None:
    """The command line's own errors for values given after their option ("--depth -x":
    "expected one argument", ambiguous options): only a value that starts with '-' can meet
    them, and the typed checks (check_view, check_format, render) do all the others."""
    values = options[1::2]
    if any(isinstance(value, str) and value.startswith("-") for value in values):
        core().check_options(options)


# ---- the whole pipeline -------------------------------------------------------------------

def parse(metrics: Metrics, filename: Any, include: Optional[str] = None,
          exclude: Optional[str] = None,
          threshold: Optional[float] = None) -> Tuple[GraphFrame, List[str]]:
    """What ``proton-viewer -m METRICS [-i/-e/-t] FILE`` computes before printing: the tree
    and the labels of the metric columns."""
    passes = _filter_passes(include, exclude, threshold)
    text = _option_text(_metric_text(metrics))
    for options in passes or [_FilterPass()]:  # usage errors come first (§8)
        core().check_view(text, options.include, options.exclude, options.threshold)
    items = _split_items(text)
    if not items:
        raise ValueError("no metric given")
    gf = read(filename)[0]
    labels = core().derive(gf.handle, items)
    for options in passes:
        _filter_in_place(gf, options, labels[0])
    return gf, labels


def apply_diff_profile(gf: GraphFrame, derived_metrics: List[str], diff_file: Any,
                       metrics: Metrics, include: Optional[str], exclude: Optional[str],
                       threshold: Optional[float]) -> GraphFrame:
    """``gf`` minus the profile ``diff_file`` parsed with the same metrics and filters
    (``--diff-profile``, viewer.md §6); the result shows ``derived_metrics``."""
    other, other_labels = parse(metrics, diff_file, include, exclude, threshold)
    labels = list(derived_metrics)
    difference = core().diff(gf.handle, labels, other.handle, other_labels[:len(labels)])
    return GraphFrame(difference, gf.format)


def print_tree(gf: GraphFrame, metrics: Metrics, depth: int = 100, format: Optional[str] = None,
               print_sorted: bool = False) -> None:
    """Prints ``gf`` with the columns ``metrics`` (labels, as :func:`parse` returns them) to
    ``sys.stdout``, byte for byte as ``proton-viewer`` does (colour when it is a terminal)."""
    gf = format_frames(gf, format)
    labels = [metrics] if isinstance(metrics, str) else list(metrics)
    depth_text = str(depth)
    _check_scan(["--depth", depth_text] + gf.format_options())
    isatty = getattr(sys.stdout, "isatty", None)
    color = bool(isatty()) if isatty is not None else False
    text = core().render(gf.handle, labels, depth_text, gf.format or None, print_sorted, color)
    sys.stdout.write(text.decode("utf-8", "surrogateescape"))


__all__ = [
    "parse", "print_tree", "read", "get_raw_metrics", "get_min_time_flops",
    "get_min_time_bytes", "derive_metrics", "filter_frames", "format_frames",
    "apply_diff_profile", "to_sqlite", "main", "GraphFrame",
]


if __name__ == "__main__":
    sys.exit(main())
