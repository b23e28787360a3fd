"""The commands of the installed package (python/proton/_cli.py): ``proton`` and
``proton-viewer`` find their executables inside the package (``_bin``) or in the build tree,
and replace the Python process with them. The installed layout itself is tested by
tests/package/install_test.sh."""

import os
import shutil
import subprocess
import sys

import proton
from proton import _cli

PACKAGE_DIR = os.path.dirname(os.path.abspath(proton.__file__))


def run_entry(code, cwd, extra_path=None):
    env = dict(os.environ)
    env.pop("PROTON_PYTHON", None)
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join([extra_path, env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_build_tree_executables_are_found():
    assert _cli.executable_path("proton") == os.path.join(PACKAGE_DIR, "_bin", "proton")
    viewer = _cli.executable_path("proton-viewer")
    assert viewer is not None and os.access(viewer, os.X_OK), viewer
    assert _cli.launcher_path() == _cli.executable_path("proton")


def test_viewer_main_runs_the_viewer_with_its_status(tmp_path):
    ok = run_entry("from proton._cli import viewer_main; viewer_main(['-h'])", tmp_path)
    assert ok.returncode == 0 and ok.stdout.startswith("usage: proton-viewer"), ok
    bad = run_entry("from proton._cli import viewer_main; viewer_main(['-m', 'time', 'none.x'])",
                    tmp_path)
    assert bad.returncode == 1, bad
    assert bad.stderr.startswith("proton-viewer: error:"), bad.stderr


def _package_with_bin(tmp_path, executables):
    """A package directory holding only _cli.py and the given fake executables in _bin."""
    package = tmp_path / "site" / "proton"
    (package / "_bin").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copy(os.path.join(PACKAGE_DIR, "_cli.py"), package / "_cli.py")
    for name in executables:
        path = package / "_bin" / name
        path.write_text("#!/bin/sh\necho \"%s ran: $*\"\necho \"PROTON_PYTHON=$PROTON_PYTHON\"\n"
                        "exit 7\n" % name)
        path.chmod(0o755)
    return str(tmp_path / "site")


def test_executables_inside_the_package_come_first(tmp_path):
    site = _package_with_bin(tmp_path, ["proton", "proton-viewer"])
    viewer = run_entry("from proton._cli import viewer_main; viewer_main(['-x'])", tmp_path, site)
    assert viewer.returncode == 7, viewer
    assert viewer.stdout == "proton-viewer ran: -x\nPROTON_PYTHON=\n", viewer.stdout
    launcher = run_entry("import sys; from proton._cli import main; sys.exit(main(['-V']))",
                         tmp_path, site)
    assert launcher.returncode == 7, launcher
    # The launcher gets this interpreter as the default Python of its targets.
    assert launcher.stdout == "proton ran: -V\nPROTON_PYTHON=%s\n" % sys.executable


def test_a_missing_executable_is_one_error_line(tmp_path):
    site = _package_with_bin(tmp_path, [])
    result = run_entry("import sys; from proton._cli import viewer_main; sys.exit(viewer_main([]))",
                       tmp_path, site)
    assert result.returncode == 1
    assert result.stderr.startswith("proton-viewer: error: the proton-viewer executable was "
                                    "not found next to the proton package"), result.stderr
    assert result.stderr.count("\n") == 1


def test_a_command_not_built_says_why(tmp_path):
    # setup.py writes _bin/NOT_BUILT where the viewer's libraries were missing at build time.
    site = _package_with_bin(tmp_path, ["proton"])
    reason = ("proton-viewer was not built: missing simdjson >= 3.0 (Debian/Ubuntu: apt-get "
              "install libsimdjson-dev), then pip install again")
    (tmp_path / "site" / "proton" / "_bin" / "NOT_BUILT").write_text("proton-viewer: %s\n" % reason)
    result = run_entry("import sys; from proton._cli import viewer_main; sys.exit(viewer_main([]))",
                       tmp_path, site)
    assert result.returncode == 1
    assert result.stderr == "proton-viewer: error: %s\n" % reason, result.stderr
    launcher = run_entry("import sys; from proton._cli import main; sys.exit(main(['-V']))",
                         tmp_path, site)
    assert launcher.returncode == 7, launcher  # the launcher that was built still runs
