"""The write path under stress (profiler.md §1.2): memory independent of the tree's depth,
out of memory as an error, names of every legal length, names with a NUL byte refused."""

import os

import pytest

from deep_readers import chain, load_hatchet, load_msgpack
from helpers import run_python, under_address_sanitizer

# Each script limits its own address space (RLIMIT_AS) before it profiles, so memory that
# grows with depth ends the write with MemoryError/abort instead of passing unnoticed.
# ASan reserves terabytes of address space for its shadow memory at start-up, so RLIMIT_AS
# cannot bound a process under it: the ASan tree skips these tests, the Release tree runs them.
bounds_address_space = pytest.mark.skipif(
    under_address_sanitizer(), reason="RLIMIT_AS cannot bound a process under ASan")
DEEP = """
    import resource, sys
    import proton
    limit = int(sys.argv[3]) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    proton.start("deep")
    for _ in range(int(sys.argv[1])):
        proton.enter_scope("d")
    proton.finalize(output_format=sys.argv[2])
    print("finalized")
"""


def _files(directory):
    return sorted(f for f in os.listdir(directory) if f != "script.py")


@bounds_address_space
def test_depth_100000_msgpack_in_bounded_memory(tmp_path):
    proc = run_python(DEEP, tmp_path, args=("100000", "hatchet_msgpack", "256"))
    assert proc.stdout == b"finalized\n"
    assert _files(tmp_path) == ["deep.hatchet_msgpack"]
    depth, names, leaf = chain(load_msgpack(tmp_path / "deep.hatchet_msgpack"))
    assert (depth, names, leaf["metrics"]) == (100000, {"d"}, {})


@bounds_address_space
def test_deep_hatchet_in_bounded_memory(tmp_path):
    # 3,000 levels: a 324 MB file (indentation is quadratic in depth) in a 128 MB process.
    proc = run_python(DEEP, tmp_path, args=("3000", "hatchet", "128"))
    assert proc.stdout == b"finalized\n"
    assert _files(tmp_path) == ["deep.hatchet"]
    doc = load_hatchet(tmp_path / "deep.hatchet")
    assert chain(doc)[:2] == (3000, {"d"})
    assert doc[1] == {}


@bounds_address_space
def test_out_of_memory_during_the_write_is_an_error(tmp_path):
    # Address space for the tree, not for the writer's 1 MB chunk buffer.
    proc = run_python("""
        import os, resource
        import proton
        proton.start("oom")
        for _ in range(3000):
            proton.enter_scope("d")
        with open("/proc/self/status") as f:
            size = int(f.read().split("VmSize:")[1].split()[0]) << 10
        resource.setrlimit(resource.RLIMIT_AS, (size + (256 << 10), resource.RLIM_INFINITY))
        try:
            proton.finalize()
        except RuntimeError as error:
            print(error)
        resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY,) * 2)
        print(sorted(f for f in os.listdir(".") if f != "script.py"))
    """, tmp_path)
    assert proc.stdout.decode() == "cannot write oom.hatchet: out of memory\n[]\n"


@pytest.mark.parametrize("fmt,data", [("hatchet", "tree"), ("hatchet_msgpack", "tree"),
                                      ("chrome_trace", "trace")])
def test_names_of_240_to_255_bytes(tmp_path, fmt, data):
    proc = run_python("""
        import sys
        import proton
        fmt, data = sys.argv[1], sys.argv[2]
        for length in range(240, 256):
            name = "n" * (length - len(fmt) - 1)
            proton.start(name, data=data)
            proton.enter_scope("s")
            proton.finalize(output_format=fmt)
        try:
            proton.start("n" * (256 - len(fmt) - 1), data=data)
            proton.finalize(output_format=fmt)
        except RuntimeError as error:
            print(error)
    """, tmp_path, args=(fmt, data))
    expected = ["n" * (length - len(fmt) - 1) + "." + fmt for length in range(240, 256)]
    assert _files(tmp_path) == sorted(expected)
    assert proc.stdout.decode().endswith(": File name too long\n")
    if data == "tree":  # a trace without kernels is an empty file (formats.md §6)
        for name in expected:
            assert os.path.getsize(tmp_path / name) > 0


def test_name_with_nul_byte_is_refused(tmp_path):
    proc = run_python("""
        import os
        import proton
        try:
            proton.start("a\\0b")
        except ValueError as error:
            print("ValueError:", error)
        proton.finalize()
        proton.start("c")
        proton.finalize()
        print(sorted(f for f in os.listdir(".") if f != "script.py"))
    """, tmp_path)
    assert proc.stdout.decode() == "ValueError: embedded null byte\n['c.hatchet']\n"


def test_names_of_bytes_and_non_utf8_are_used_as_open_uses_them(tmp_path):
    # bytes raised TypeError, a non-UTF-8 os.PathLike UnicodeEncodeError; now as open().
    proc = run_python("""
        import os, pathlib
        import proton
        for name in (b"\\xffraw", pathlib.Path(os.fsdecode(b"\\xfepath")), 42):
            try:
                proton.start(name)
                proton.finalize()
            except TypeError as error:
                print("TypeError:", error)
        print(sorted(f for f in os.listdir(b".") if f != b"script.py"))
    """, tmp_path)
    assert proc.stdout.decode(errors="surrogateescape").splitlines() == [
        "TypeError: expected str, bytes or os.PathLike object, not int",
        "[b'\\xfepath.hatchet', b'\\xffraw.hatchet']"]
