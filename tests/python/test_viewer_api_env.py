"""proton.viewer's Python API in its surroundings (viewer.md §11.10): data recorded in memory,
a missing pandas, a missing extension, and the Triton tutorials' `triton.profiler.viewer`."""

import os
import sys

import pytest

import proton
import proton.viewer as viewer
from helpers import run_python
from viewer_cases import ROOT, command

BUILT_PYTHON = os.path.dirname(os.path.dirname(os.path.abspath(proton.__file__)))
BOOTSTRAP = os.path.join(BUILT_PYTHON, "proton_bootstrap")

RECORD = """
import sys
import proton
import proton_fake
import proton.viewer as viewer
proton_fake.register_backend()
s = proton.start("mem", backend="fake")
with proton.scope("phase", {"flops16": 8.0}):
    for _ in range(3):
        proton_fake.launch("work_kernel", 1000)
proton_fake.launch("outside", 500)
proton.deactivate(s, flushing=True)
doc = proton.data.get(s)
proton.finalize()
gf, inclusive, exclusive, device_info = viewer.get_raw_metrics(doc)
labels = viewer.derive_metrics(gf, ["time/ns", "count"], inclusive, exclusive, device_info)
viewer.print_tree(gf, labels)
"""


def test_in_memory_data_reads_like_the_file(tmp_path):
    proc = run_python(RECORD, tmp_path)
    status, stdout, _ = command(["-m", "time/ns,count", str(tmp_path / "mem.hatchet")])
    assert status == 0
    assert b"work_kernel" in stdout
    assert proc.stdout == stdout


def test_dataframe_without_pandas_names_the_package(monkeypatch):
    gf = viewer.read(os.path.join(ROOT, "tests", "compat", "viewer", "profiles", "cuda.json"))[0]
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now fails
    with pytest.raises(ImportError, match="pandas"):
        gf.dataframe


def test_import_proton_works_without_the_extension(tmp_path):
    proc = run_python("""
        import sys

        class Hide:
            def find_spec(self, name, path=None, target=None):
                if name == "proton._viewer":
                    raise ImportError("hidden for the test")
                return None

        sys.meta_path.insert(0, Hide())
        import proton
        import proton.viewer
        try:
            proton.viewer.parse(["time"], "x.hatchet")
        except ImportError as error:
            print(error)
    """, tmp_path)
    assert b"proton._viewer extension, which is not built" in proc.stdout


def test_tutorial_snippet_through_the_triton_alias(tmp_path):
    # Triton's tutorials end with this; `triton.profiler` is our package under the alias.
    fake = tmp_path / "fake" / "triton"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    profile = os.path.join(ROOT, "tests", "refdata", "ref_python.hatchet")
    # The bootstrap directory is added late: on PYTHONPATH its sitecustomize would run.
    proc = run_python(f"""
        import sys
        sys.path.insert(0, {BOOTSTRAP!r})
        import _proton_alias
        _proton_alias.install()
        import triton.profiler.viewer as proton_viewer
        import proton.viewer
        assert proton_viewer is proton.viewer
        metric_names = ["time/ms"]
        tree, metrics = proton_viewer.parse(metric_names, {profile!r})
        proton_viewer.print_tree(tree, metrics)
    """, tmp_path, env={"PYTHONPATH": os.pathsep.join([str(tmp_path / "fake"), BUILT_PYTHON])})
    status, stdout, _ = command(["-m", "time/ms", profile])
    assert status == 0
    assert proc.stdout == stdout
