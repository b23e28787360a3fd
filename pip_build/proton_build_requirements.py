"""What `pip install .` needs before its CMake build starts, checked in well under a second,
so a missing piece is one line naming it and how to get it, not a failure deep in the build
(a venv of pyenv's or conda's Python has no `wheel`, and pip then stops with
"invalid command 'bdist_wheel'"; Python 3.12's venvs have no setuptools at all).

Used by the build backend (proton_build_backend.py) and by setup.py. Standard library only:
it runs before setuptools is known to be importable.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_BASE = "build-pip"  # setuptools' default build/ is the README's CMake build directory
MIN_SETUPTOOLS = (61,)  # pyproject.toml's [project] table
MIN_SETUPTOOLS_EDITABLE = (64,)  # PEP 660 editable installs
# CMake's defaults (CMAKE_<LANG>_COMPILER), after $CXX and $CC.
CXX_COMPILERS = ("c++", "g++", "clang++")
C_COMPILERS = ("cc", "gcc", "clang")


def cmake_build_dir():
    """PROTON_CMAKE_BUILD_DIR, or one tree per Python version under build-pip/: the extension
    is built for one interpreter."""
    configured = os.environ.get("PROTON_CMAKE_BUILD_DIR")
    default = os.path.join(SOURCE_DIR, BUILD_BASE, "cmake-py%d.%d" % sys.version_info[:2])
    return os.path.abspath(configured or default)


def is_configured(build_dir):
    return os.path.isfile(os.path.join(build_dir, "CMakeCache.txt"))


def cmake_program():
    """cmake on PATH, else the one `pip install cmake` put next to this interpreter (pip does
    not put an unactivated venv's bin/ on PATH)."""
    beside = os.path.join(os.path.dirname(sys.executable), "cmake")
    return shutil.which("cmake") or (beside if os.access(beside, os.X_OK) else None)


def version_tuple(text):
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def min_cmake_version():
    """cmake_minimum_required of the top CMakeLists.txt; (0,) where there is none (a source
    copy that only reuses a configured PROTON_CMAKE_BUILD_DIR)."""
    try:
        with open(os.path.join(SOURCE_DIR, "CMakeLists.txt")) as f:
            # VERSION <min>[...<policy max>]: the minimum is the first dotted number.
            found = re.search(r"cmake_minimum_required\s*\(\s*VERSION\s+(\d+(?:\.\d+)*)",
                              f.read())
    except OSError:
        found = None
    return version_tuple(found.group(1)) if found else (0,)


def cmake_version(program):
    try:
        out = subprocess.run([program, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"cmake version ([\d.]+)", out)
    return version_tuple(found.group(1)) if found else None


def dotted(version):
    return ".".join(str(part) for part in version)


def compiler_found(variable, names):
    """What CMake would pick: $CXX/$CC (a program, possibly with flags), else a default name."""
    chosen = os.environ.get(variable, "").split()
    if chosen:
        return shutil.which(chosen[0]) is not None
    return any(shutil.which(name) for name in names)


def setuptools_version():
    """setuptools' version, or None when it cannot be imported."""
    try:
        import setuptools
    except ImportError:
        return None
    return version_tuple(getattr(setuptools, "__version__", "0"))


def has_bdist_wheel():
    """Whether setuptools will find a bdist_wheel command: the `distutils.commands` entry point
    that the `wheel` distribution registers (setuptools >= 70.1 registers its own). A `wheel`
    module without its distribution metadata does not count: setuptools would not see it."""
    import importlib.metadata
    found = importlib.metadata.entry_points()
    if hasattr(found, "select"):  # Python >= 3.10
        commands = found.select(group="distutils.commands")
    else:
        commands = found.get("distutils.commands", [])
    return any(entry.name == "bdist_wheel" for entry in commands)


class Missing:
    """One missing requirement: how to name it, and the package that provides it from pip
    (PyPI or a local index) and from Debian's apt, where either has one."""

    def __init__(self, name, pip=None, apt=None):
        self.name, self.pip, self.apt = name, pip, apt


def debian_python():
    """Debian's /usr/bin/python3, with its dist-packages visible (the interpreter itself or a
    venv made with --system-site-packages): apt's python3-* packages reach it."""
    return "/usr/lib/python3/dist-packages" in sys.path


def missing_python_packages(min_setuptools):
    found = setuptools_version()
    wanted = "setuptools>=%s" % dotted(min_setuptools)
    missing = []
    if found is None or found < min_setuptools:
        name = wanted if found is None else "%s (found %s)" % (wanted, dotted(found))
        missing.append(Missing(name, pip="'%s'" % wanted, apt="python3-setuptools"))
    if not has_bdist_wheel():
        missing.append(Missing("wheel", pip="wheel", apt="python3-wheel"))
    return missing


def missing_cmake():
    program, wanted = cmake_program(), min_cmake_version()
    found = cmake_version(program) if program else None
    if found is not None and found >= wanted:
        return []
    name = "CMake>=%s" % dotted(wanted) if wanted > (0,) else "CMake"
    if program:
        name += " (found %s)" % (dotted(found) if found else program + ", which does not run")
    return [Missing(name, pip="cmake", apt="cmake")]


def missing_toolchain():
    """What configuring a new CMake tree needs: compilers, a build tool, Python.h."""
    missing = []
    if not compiler_found("CXX", CXX_COMPILERS):
        missing.append(Missing("a C++20 compiler ($CXX, c++, g++ or clang++)", apt="g++"))
    if not compiler_found("CC", C_COMPILERS):
        missing.append(Missing("a C compiler ($CC, cc, gcc or clang)", apt="gcc"))
    if not (shutil.which("ninja") or shutil.which("make")):
        missing.append(Missing("ninja or make", apt="make"))
    include = sysconfig.get_paths()["include"]
    if not os.path.isfile(os.path.join(include, "Python.h")):
        missing.append(Missing("this Python's headers (no %s/Python.h)" % include,
                               apt="python%d.%d-dev" % sys.version_info[:2]))
    return missing


def missing_requirements(wheel=True, editable=False):
    """Every missing requirement of a wheel (or only setuptools, for an sdist)."""
    floor = MIN_SETUPTOOLS_EDITABLE if editable else MIN_SETUPTOOLS
    missing = missing_python_packages(floor)
    if not wheel:
        return [m for m in missing if m.name.startswith("setuptools")]
    missing += missing_cmake()
    if not is_configured(cmake_build_dir()):
        missing += missing_toolchain()
    return missing


def how_to_get(missing):
    """"install it with `python -m pip install …` and `apt-get install …`", the way this
    machine can (apt for Python packages only where Debian's dist-packages are visible)."""
    apt = shutil.which("apt-get") is not None or os.path.exists("/usr/bin/apt-get")
    pip_names, apt_names, others = [], [], False
    for m in missing:
        is_python_package = m.name.startswith(("setuptools", "wheel"))
        if m.apt and apt and (debian_python() or not is_python_package):
            apt_names.append(m.apt)
        elif m.pip:
            pip_names.append(m.pip)
        else:
            others = True
    ways = []
    if pip_names:
        ways.append("`%s -m pip install %s`" % (sys.executable, " ".join(pip_names)))
    if apt_names:
        ways.append("`apt-get install %s`" % " ".join(apt_names))
    pronoun = "it" if len(missing) == 1 else "them"
    if not ways:
        return "install %s with your system's package manager" % pronoun
    text = "install %s with %s" % (pronoun, " and ".join(ways))
    return text + (", the others with your system's package manager" if others else "")


def requirements_error(missing):
    """The one line for pip's output."""
    line = "proton: error: cannot build proton for %s, missing: %s; %s" % (
        sys.executable, ", ".join(m.name for m in missing), how_to_get(missing))
    if any(m.name.startswith(("setuptools", "wheel")) for m in missing):
        line += " (or run pip without --no-build-isolation, which fetches setuptools and wheel)"
    return line


def check(wheel=True, editable=False):
    """Exits with the one line when something is missing (SystemExit: pip shows it as the
    backend's whole output, exit status 1)."""
    missing = missing_requirements(wheel=wheel, editable=editable)
    if missing:
        raise SystemExit(requirements_error(missing))
