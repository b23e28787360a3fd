"""Shared pieces of the proton.viewer API tests: the bundled profiles, the command's runs and
the comparison of an API call with the command line (viewer.md §11.10)."""

import contextlib
import glob
import io
import json
import os
import re
import subprocess

import proton.viewer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PREFIX = "proton-viewer: error: "


def viewer_executable():
    path = os.environ.get("PROTON_VIEWER") or proton.viewer._find_viewer()
    assert path and os.access(path, os.X_OK), "proton-viewer is not built"
    return path


def bundled_profiles():
    """Every tree profile bundled with the tests (chrome traces are not tree profiles)."""
    patterns = ["tests/refdata/*.hatchet", "tests/compat/viewer/profiles/*.hatchet",
                "tests/compat/viewer/profiles/*.hatchet_msgpack",
                "tests/compat/viewer/profiles/*.json"]
    found = sorted(p for pattern in patterns for p in glob.glob(os.path.join(ROOT, pattern)))
    assert len(found) >= 25, found
    return found


def command(args, cwd=None):
    """The command's (status, stdout bytes, last stderr line)."""
    proc = subprocess.run([viewer_executable()] + list(args), capture_output=True, cwd=cwd,
                          timeout=60)
    lines = proc.stderr.decode(errors="replace").splitlines()
    return proc.returncode, proc.stdout, lines[-1] if lines else ""


def api_error(error_line):
    """(exception type, message) the API raises where the command prints ``error_line``
    (viewer.md §11.10): the reference's types and messages for a metric that is not found,
    an unsupported unit and a file that cannot be opened, else ValueError or RuntimeError
    with the command's message."""
    text = error_line[len(PREFIX):] if error_line.startswith(PREFIX) else error_line
    found = re.fullmatch(r"(Metric .*) is not found in '.*'(\. Use the --list flag to list "
                         r"available metrics)", text)
    if found:
        return RuntimeError, found.group(1) + " is not found" + found.group(2)
    unit = re.fullmatch(r"(Unsupported unit .*) in metric .*", text)
    if unit:
        return ValueError, unit.group(1)
    opened = re.fullmatch(r"cannot open '(.*)': (.*)", text)
    if opened:
        number = next(n for n in range(1, 200) if os.strerror(n) == opened.group(2))
        return OSError, f"[Errno {number}] {opened.group(2)}: {opened.group(1)!r}"
    if text.startswith("cannot read ") or " is not a Proton tree profile" in text or \
            " is a Chrome trace" in text or text.endswith(" contains no profile data"):
        return RuntimeError, text
    return ValueError, text


def api_output(call):
    """(stdout text, exception) of ``call()``, the exception being None on success."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            call()
    except (ValueError, RuntimeError, OSError) as error:
        return out.getvalue(), error
    return out.getvalue(), None


def assert_same_as_command(args, call):
    """``call()`` prints what ``proton-viewer args`` prints, or fails with its error line."""
    status, stdout, error_line = command(args)
    text, error = api_output(call)
    if status == 0:
        assert error is None, f"{args}: the command succeeded, the API raised {error!r}"
        assert text.encode() == stdout, args
    else:
        assert error is not None, f"{args}: the command failed ({error_line}), the API did not"
        error_type, message = api_error(error_line)
        assert (isinstance(error, error_type), str(error)) == (True, message), args
        assert text == ""


def metric_lists(path):
    """-m lists that suit the profile: time and count, and its flops/bytes rates and util."""
    lists = [["time/ns"], ["count"], ["time/ms", "count", "time/%"]]
    try:
        _, inclusive, exclusive, _ = proton.viewer.read(path)
    except (OSError, RuntimeError):
        return lists
    keys = inclusive + exclusive
    widths = [m.group(1) for k in keys for m in [re.fullmatch(r"flops(\d+)", k)] if m]
    rates = [f"gflop{w}/s" for w in widths] + (["gbyte/s"] if "bytes" in keys else [])
    if rates:
        lists.append(rates + ["avg_time/us"])
    if "device_id" in keys:
        lists.append(["util", "time/us"])
    return lists


def first_child_pattern(path):
    """A -i/-e pattern matching the first child of ROOT (None for a bare root)."""
    gf = proton.viewer.read(path)[0]
    names = gf.dataframe["name"]
    return re.escape(names[1]) if len(names) > 1 else None


def export_rows(args, tmp_path):
    """The rows ``--export`` writes for ``args`` (all depths)."""
    out = os.path.join(str(tmp_path), "rows.jsonl")
    status, _, error_line = command(list(args) + ["-d", "1000000", "--export", out])
    assert status == 0, error_line
    with open(out) as f:
        return [json.loads(line) for line in f]
