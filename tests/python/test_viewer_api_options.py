"""The option values of proton.viewer's API, checked by the command's own typed checks (not
by a command line built and parsed again): every bad value raises the command's error line
for the same value (viewer.md §11.10), and a wrong type what the API always raised."""

import os

import pytest

import proton.viewer as viewer
from viewer_cases import ROOT, api_error, command

PATH = os.path.join(ROOT, "tests", "compat", "viewer", "profiles", "cuda.json")


def parsed():
    return viewer.parse(["time/ns"], PATH)


def print_with(**print_args):
    gf, labels = parsed()
    viewer.print_tree(gf, labels, **print_args)


def print_formatted(format, **print_args):
    """print_tree of a tree whose format was set directly, not through format_frames."""
    gf, labels = parsed()
    gf.format = format
    viewer.print_tree(gf, labels, **print_args)


def filter_with(**filter_args):
    gf, labels = parsed()
    viewer.filter_frames(gf, metric=labels[0], **filter_args)


@pytest.mark.parametrize("call,args", [
    (lambda: print_with(depth="abc"), ["-d", "abc"]),
    (lambda: print_with(depth=1.5), ["-d", "1.5"]),
    (lambda: print_with(depth="-x"), ["-d", "-x"]),
    (lambda: print_with(depth="--d"), ["-d", "--d"]),
    (lambda: print_with(depth="-"), ["-d", "-"]),
    (lambda: print_with(format="tree"), ["-f", "tree"]),
    (lambda: print_with(format="-x"), ["-f", "-x"]),
    (lambda: print_with(format=""), ["-f", ""]),
    (lambda: print_formatted("-x", depth="x"), ["-d", "x", "-f", "-x"]),
    (lambda: print_formatted("-x", depth="1"), ["-d", "1", "-f", "-x"]),
    (lambda: print_formatted("short", depth="-x"), ["-d", "-x", "-f", "short"]),
    (lambda: viewer.parse(["time/ns"], PATH, threshold="abc"), ["-t", "abc"]),
    (lambda: viewer.parse(["time/ns"], PATH, threshold=float("nan")), ["-t", "nan"]),
    (lambda: viewer.parse(["time/ns", " "], PATH, threshold="abc"), ["-t", "abc"]),
    (lambda: viewer.parse(["time/ns", " "], PATH, threshold="inf"), ["-m", "time/ns, "]),
    (lambda: filter_with(threshold="abc"), ["-t", "abc"]),
    (lambda: filter_with(threshold=float("-inf")), ["--threshold=-inf"]),
    (lambda: viewer.format_frames(parsed()[0], "-f"), ["-f", "-f"]),
])
def test_bad_values_raise_the_commands_line(call, args):
    if "-m" not in args:
        args = ["-m", "time/ns"] + args
    status, _, error_line = command(args + [PATH])
    assert status != 0
    expected_type, message = api_error(error_line)
    with pytest.raises(expected_type) as raised:
        call()
    assert str(raised.value) == message


@pytest.mark.parametrize("call,message", [
    (lambda: print_with(format=5), "option must be str, not int"),
    (lambda: viewer.format_frames(parsed()[0], b"full"), "option must be str, not bytes"),
    (lambda: viewer.parse(["time/ns"], PATH, include=5),
     'can only concatenate str (not "int") to str'),
    (lambda: filter_with(exclude=b"x"), 'can only concatenate str (not "bytes") to str'),
])
def test_wrong_types_raise_type_error(call, message):
    with pytest.raises(TypeError) as raised:
        call()
    assert str(raised.value) == message


def test_good_text_values_work_as_on_the_command_line():
    gf, labels = parsed()
    viewer.print_tree(gf, labels, depth="-1")  # a negative number is a value, not an option
    viewer.print_tree(gf, labels, depth=" 2 ", format="function_line")
    viewer.filter_frames(gf, threshold="0", metric=labels[0])
