"""JSON profiles the in-memory reader cannot hold (viewer.md §11.4): the streaming reader on
hostile input, with PROTON_JSON_STREAM_ABOVE=0 PROTON_JSON_FAST_PATH=0 sending every document
to it, from a file and from standard input, each under a deadline; a profile whose simdjson
index does not fit the address space; a pipe whose writer stays open after bad input.
Each must end with the right tree or one error line, never a hang, crash or traceback."""

import os
import subprocess
import sys
import time

import pytest

from conftest import ROOT, VIEWER, address_space_limit, needs_no_sanitizer, one_error_line, \
    run_viewer

sys.path.insert(0, os.path.join(ROOT, "bench", "viewer"))
import gen_huge_json  # noqa: E402

STREAMED = {"PROTON_JSON_STREAM_ABOVE": "0", "PROTON_JSON_FAST_PATH": "0"}
CANNOT_READ = "not a JSON or MessagePack profile"


def env(**extra):
    e = {k: v for k, v in os.environ.items() if not k.startswith("PROTON_JSON_")}
    e.update(extra)
    return e


def node(name, metrics="{}", children="[]"):
    return ('{"frame": {"name": "%s", "type": "function"}, "metrics": %s, "children": %s}'
            % (name, metrics, children))


def profile(children, metrics='{"time (ns)": 0}'):
    return ("[" + node("ROOT", metrics, "[" + ",".join(children) + "]") + "]").encode()


KERNEL = node("k", '{"time (ns)": 5, "count": 1, "v": [1, 2.5, NaN]}')
GOOD = profile([KERNEL, node("s", "{}", "[" + KERNEL + "]")])


def chain(depth):
    return ("[" + '{"frame": {"name": "n"}, "metrics": {"time (ns)": 1}, "children": [' * depth
            + node("leaf", '{"time (ns)": 1}') + "]}" * depth + "]").encode()


READABLE = {
    "deep_chain_100k": (chain(100000), b"100001.000 n"),
    "name_32mib": (profile([node("n" * (32 << 20), '{"time (ns)": 1}')]), b"nnnnnnnn"),
    "string_200mib_skipped": (profile([node("k", '{"time (ns)": 1, "note": "%s"}'
                                               % ("x" * (200 << 20)))]), b"k"),
    "number_8mib_digits": (profile([node("k", '{"time (ns)": %s}' % ("9" * (8 << 20)))]),
                           b"inf"),
    "overflowing_exponent": (profile([node("k", '{"time (ns)": 1e400}')]), b"inf"),
}

UNREADABLE = {
    "deep_unclosed_100k": b"[" + b'{"children": [' * 100000,
    "deep_arrays_1m": b"[" * 1000000,
    "deep_arrays_4m_unclosed": b"[" * (4 << 20) + b"]" * ((4 << 20) - 1),
    "truncated_in_name": GOOD[:40],
    "truncated_in_vector": GOOD[:GOOD.index(b"2.5")],
    "truncated_before_end": GOOD[:-1],
    "nul_in_name": GOOD.replace(b'"k"', b'"k\x00"', 1),
    "nul_between_tokens": GOOD.replace(b", ", b",\x00", 1),
    "nul_after_document": GOOD + b"\x00",
    "utf8_overlong": GOOD.replace(b'"k"', b'"\xc0\xaf"', 1),
    "utf8_surrogate": GOOD.replace(b'"k"', b'"\xed\xa0\x80"', 1),
    "utf8_cut": GOOD.replace(b'"k"', b'"\xe2\x82"', 1),
    "escaped_lone_surrogate": GOOD.replace(b'"k"', b'"\\udc00"', 1),
    "garbage_in_vector_metric": GOOD.replace(b"2.5", b"2!5", 1),
    "garbage_in_unknown_key": GOOD.replace(b'"children"', b'"x": tru, "children"', 1),
    "inf_spelled_short": GOOD.replace(b"NaN", b"Inf", 1),
    "string_cut_after_64mib": b'[{"frame": {"name": "' + b"a" * (64 << 20),
}


def read(data, tmp_path, how, **extra):
    """Runs the viewer on `data` from a file or standard input (-m time/ns)."""
    e = env(**STREAMED, **extra)
    if how == "stdin":
        return run_viewer(["-m", "time/ns", "-"], input=data, env=e, timeout=120)
    path = tmp_path / "p.json"
    path.write_bytes(data)
    return run_viewer(["-m", "time/ns", str(path)], env=e, timeout=120)


@pytest.mark.parametrize("how", ["file", "stdin"])
@pytest.mark.parametrize("name", sorted(READABLE))
def test_streamed_hostile_but_valid(name, how, tmp_path):
    data, expected = READABLE[name]
    r = read(data, tmp_path, how)
    assert r.returncode == 0, r.stderr[-2000:]
    assert expected in r.stdout
    # The same tree as the default readers build.
    if how == "file" and len(data) < (64 << 20):
        d = run_viewer(["-m", "time/ns", str(tmp_path / "p.json")], env=env(), timeout=120)
        assert d.returncode == 0 and d.stdout == r.stdout


@pytest.mark.parametrize("how", ["file", "stdin"])
@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_streamed_hostile_refused(name, how, tmp_path):
    r = read(UNREADABLE[name], tmp_path, how)
    assert r.returncode == 1
    line = one_error_line(r.stderr)
    assert CANNOT_READ in line, line
    # The default readers refuse it with the same line.
    if how == "file":
        d = run_viewer(["-m", "time/ns", str(tmp_path / "p.json")], env=env(), timeout=120)
        assert d.returncode == 1 and one_error_line(d.stderr) == line


@needs_no_sanitizer
def test_index_beyond_the_address_space_is_streamed(tmp_path):
    """300 MB with vector metrics: simdjson's index (about 6 bytes a byte) does not fit in
    1 GiB of address space, so the document is streamed instead of refused."""
    path = tmp_path / "p300m.json"
    gen_huge_json.write(str(path), 300 * 1000 * 1000)
    full = run_viewer(["-m", "time/ns", "-d", "1", str(path)], env=env(), timeout=300)
    assert full.returncode == 0, full.stderr[-2000:]
    limited = run_viewer(["-m", "time/ns", "-d", "1", str(path)], env=env(), timeout=300,
                         preexec_fn=address_space_limit(1024))
    assert limited.returncode == 0, limited.stderr[-2000:]
    assert limited.stdout == full.stdout


def test_stdin_over_the_threshold_streams_the_rest(tmp_path):
    """Standard input past the threshold: the bytes read so far, then the rest streamed."""
    data = profile([KERNEL] * 20000)
    path = tmp_path / "p.json"
    path.write_bytes(data)
    want = run_viewer(["-m", "time/ns", str(path)], env=env(), timeout=60)
    assert want.returncode == 0
    for threshold in ("0", "1000", str(len(data) // 2)):
        got = run_viewer(["-m", "time/ns", "-"], input=data, timeout=60,
                         env=env(PROTON_JSON_STREAM_ABOVE=threshold))
        assert got.returncode == 0, got.stderr
        assert got.stdout == want.stdout


def test_bad_pipe_refused_while_its_writer_stays_open():
    """A streamed pipe is refused at its first bad byte, not after its writer closes."""
    p = subprocess.Popen([VIEWER, "-m", "time/ns", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(**STREAMED))
    start = time.monotonic()
    p.stdin.write(b'[{"frame": {"name": "R"}, "metrics": {"v": [1!')
    p.stdin.flush()
    try:
        p.wait(timeout=30)  # a hang fails here
    finally:
        p.stdin.close()
        p.kill()
        p.wait()
    elapsed = time.monotonic() - start
    assert elapsed < 20, "waited for the writer"
    assert p.returncode == 1
    assert CANNOT_READ in one_error_line(p.stderr.read())
