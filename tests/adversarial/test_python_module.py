"""The Python module against hostile conditions (profiler.md §1.2, §1.7; viewer.md §11.10):
trees deeper than Python's recursion limit, huge names, file names with NUL, bytes and
non-UTF-8 names, and `-` with a standard input that never ends. Each case runs in a child
Python with a deadline, so a hang fails its test."""

import os
import subprocess
import textwrap

from conftest import PYTHON, PYTHON_DIR, ROOT, needs_no_sanitizer

CUDA = os.path.join(ROOT, "tests", "compat", "viewer", "profiles", "cuda.json")


def python_env():
    """The environment of a child that imports proton and the test-only proton_fake."""
    env = dict(os.environ)
    test_dir = os.path.join(os.path.dirname(PYTHON_DIR), "python-test")
    paths = [PYTHON_DIR, test_dir] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    for key in ("PROTON_DISABLE", "TRITON_PROTON_DISABLE"):
        env.pop(key, None)
    return env


def run_python(code, cwd, timeout=120, **kwargs):
    return subprocess.run([PYTHON, "-c", textwrap.dedent(code)], cwd=cwd, env=python_env(),
                          capture_output=True, timeout=timeout, **kwargs)


DEEP = """
    import resource
    limit = 2048 << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import proton, proton_fake
    import proton.viewer as viewer
    proton_fake.register_backend()
    s = proton.start("deep", backend="fake")
    for _ in range(10000):
        proton.enter_scope("d")
    huge = "h" * (16 << 20)
    proton.enter_scope(huge)
    proton_fake.launch("k", 100)
    proton.deactivate(s, flushing=True)
    doc = proton.data.get(s)
    node, depth = doc[0], 0
    while node["children"]:
        node, depth = node["children"][0], depth + 1
    assert node["frame"]["name"] == "k" and depth == 10002, depth
    for source in (doc, proton.data.get_msgpack(s)):
        gf, inclusive, exclusive, device_info = viewer.get_raw_metrics(source)
        labels = viewer.derive_metrics(gf, ["time/ns"], inclusive, exclusive, device_info)
        assert labels == ["time/ns (inc)"], labels
    proton.finalize(s, output_format="hatchet_msgpack")
    print("ok")
"""


@needs_no_sanitizer
def test_data_get_and_the_viewer_read_10000_levels_and_a_16_mb_name(tmp_path):
    # json.loads raised RecursionError from about 500 levels, json.dumps from about 1,000.
    proc = run_python(DEEP, tmp_path)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    assert proc.stdout == b"ok\n"


def test_dash_is_a_file_name_even_while_standard_input_stays_open(tmp_path):
    # "-" was read as standard input: with one that never ends, the call never returned.
    read_end, write_end = os.pipe()
    try:
        proc = run_python("""
            import proton.viewer as viewer
            try:
                viewer.read("-")
            except FileNotFoundError as error:
                print(error)
        """, tmp_path, timeout=60, stdin=read_end)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert proc.stdout == b"[Errno 2] No such file or directory: '-'\n", proc.stderr


def test_viewer_file_names_are_open_names(tmp_path):
    # NUL was cut (a.hatchet read instead), bytes were read as a profile's contents,
    # non-UTF-8 names refused, and a 1 MB name was a RuntimeError instead of open()'s OSError.
    proc = run_python(f"""
        import os, pathlib, shutil
        import proton.viewer as viewer
        shutil.copy({CUDA!r}, "a.hatchet")
        shutil.copy({CUDA!r}, b"\\xff.hatchet")
        def outcome(call):
            try:
                return "ok %d" % len(call()[1])
            except Exception as error:
                return f"{{type(error).__name__}}: {{str(error)[:60]}}"
        for name in ("a.hatchet\\0b", b"a.hatchet\\0b", b"\\xff.hatchet",
                     pathlib.Path(os.fsdecode(b"\\xff.hatchet")), "n" * (1 << 20)):
            print(outcome(lambda: viewer.parse(["time"], name)))
    """, tmp_path)
    assert proc.stdout.decode().splitlines() == [
        "ValueError: embedded null byte", "ValueError: embedded null byte", "ok 1", "ok 1",
        "OSError: " + ("[Errno 36] File name too long: '" + "n" * 60)[:60]], proc.stderr


def test_session_names_are_open_names(tmp_path):
    # bytes and non-UTF-8 names were refused with TypeError / UnicodeEncodeError.
    proc = run_python("""
        import os, pathlib
        import proton
        for name in (b"\\xffbytes", pathlib.Path(os.fsdecode(b"\\xfepath")), b"nul\\0x"):
            try:
                proton.start(name)
                proton.finalize()
            except ValueError as error:
                print("ValueError:", error)
        print(sorted(f for f in os.listdir(b".")))
    """, tmp_path)
    assert proc.stdout.decode(errors="surrogateescape").splitlines() == [
        "ValueError: embedded null byte", "[b'\\xfepath.hatchet', b'\\xffbytes.hatchet']"], \
        proc.stderr
