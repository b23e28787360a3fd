"""``pip install .``: CMake builds the compiled parts and setuptools packages them with the
Python sources, as Triton's own setup.py does.

The wheel holds the layout that src/launcher/layout.cc calls the package copy:

    proton/                 the package (python/proton) with _C, _viewer (when the viewer is
                            built) and libproton.so.0 next to them (_C's RPATH is $ORIGIN)
    proton/_bin/            the proton and proton-viewer executables (python/proton/_cli.py
                            runs them as the console scripts of the same names)
    proton_bootstrap/       the launcher's bootstrap (python/proton_bootstrap)

PROTON_CMAKE_BUILD_DIR names the CMake build directory (default: build-pip/cmake-py<X.Y>).
One that already holds a CMakeCache.txt is built as it is configured (so a developer's build/
or a test's build tree is reused); otherwise it is configured for this interpreter with the
tests and benchmarks off. CMAKE_BUILD_PARALLEL_LEVEL sets the build's parallelism.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig

SOURCE_DIR = os.path.dirname(os.path.abspath(__file__))
# The requirement check and the build directory's rule, shared with the build backend
# (pyproject.toml); on sys.path here too for a direct `python setup.py ...`.
sys.path.insert(0, os.path.join(SOURCE_DIR, "pip_build"))
import proton_build_requirements as requirements

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

BUILD_BASE = requirements.BUILD_BASE
# (name, required): the viewer is built only where its libraries are (simdjson, PCRE2).
EXTENSIONS = (("_C", True), ("_viewer", False))
EXECUTABLES = (("proton", True), ("proton-viewer", False))


def package_version():
    with open(os.path.join(SOURCE_DIR, "python", "proton", "__init__.py")) as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)


def run_cmake(args):
    """A failed CMake step has printed its own errors: end with one line, not a traceback."""
    status = subprocess.call([requirements.cmake_program() or "cmake"] + args)
    if status != 0:
        sys.exit(f"setup.py: error: `cmake {' '.join(args)}` failed (exit status {status}); "
                 "its errors are above")


def configure(build_dir):
    args = ["-S", SOURCE_DIR, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython3_EXECUTABLE={sys.executable}", "-DPROTON_BUILD_PYTHON=ON",
            "-DPROTON_BUILD_TESTS=OFF", "-DPROTON_BUILD_BENCH=OFF"]
    if shutil.which("ninja"):
        args += ["-G", "Ninja"]
    run_cmake(args)


def cmake_build(build_dir):
    if not requirements.is_configured(build_dir):
        configure(build_dir)
    run_cmake(["--build", build_dir])


def built_extension(build_dir, name, required):
    """The built proton.<name> for this interpreter (its EXT_SUFFIX), or None."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    path = os.path.join(build_dir, "python", "proton", name + suffix)
    if os.path.isfile(path):
        return path
    if required:
        found = [os.path.basename(p) for p in
                 glob.glob(os.path.join(build_dir, "python", "proton", name + ".*"))]
        sys.exit(f"setup.py: error: {build_dir} has no proton.{name} for this Python "
                 f"({name}{suffix}; found: {', '.join(found) or 'none'}): build it for "
                 f"{sys.executable} or unset PROTON_CMAKE_BUILD_DIR")
    return None


def built_executable(build_dir, name, required):
    path = os.path.join(build_dir, "bin", name)
    if os.path.isfile(path):
        return path
    if required:
        sys.exit(f"setup.py: error: {build_dir} has no bin/{name}")
    return None


# The Debian and Ubuntu packages of the viewer's dependency keys (cmake/ProtonDeps.cmake writes
# the keys into proton-parts.txt; scripts/lib/packages.sh holds every distribution's names).
VIEWER_PACKAGES = {"simdjson": "libsimdjson-dev", "rapidjson": "rapidjson-dev",
                   "pcre2": "libpcre2-dev", "pkg-config": "pkg-config",
                   "libiberty": "libiberty-dev"}
# Next to the executables in the package: one line per command that was not built, saying why
# (python/proton/_cli.py prints it when that command is run).
NOT_BUILT_FILE = "NOT_BUILT"


def part_line(build_dir, part):
    """proton-parts.txt's (built, keys, words) for part, or None (a tree configured before
    that file existed)."""
    try:
        with open(os.path.join(build_dir, "proton-parts.txt")) as f:
            for line in f:
                fields = line.rstrip("\n").split("|")
                if len(fields) == 4 and fields[0] == part:
                    return fields[1], fields[2].split(), fields[3]
    except OSError:
        pass
    return None


def viewer_not_built_reason(build_dir):
    """Why build_dir has no proton-viewer, in one line."""
    found = part_line(build_dir, "viewer")
    if found is None or not found[1]:
        return ("proton-viewer was not built (PROTON_BUILD_VIEWER=OFF in %s): `proton` and "
                "`import proton` work; view profiles with proton-viewer elsewhere" % build_dir)
    packages = [VIEWER_PACKAGES[key] for key in found[1] if key in VIEWER_PACKAGES]
    return ("proton-viewer was not built: missing %s (Debian/Ubuntu: apt-get install %s), then "
            "pip install again; `proton` and `import proton` work, and profiles can be viewed "
            "with proton-viewer on another machine" % (found[2], " ".join(packages)))


def copy_file(source, target, executable=False):
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(source, target)  # follows symlinks: a wheel holds plain files
    os.chmod(target, 0o755 if executable else 0o644)


class CMakeBuild(build_ext):
    """Builds everything with CMake once and copies the products into the package."""

    def build_extension(self, ext):
        requirements.check()  # also for a direct `python setup.py bdist_wheel`
        build_dir = requirements.cmake_build_dir()
        cmake_build(build_dir)
        package = os.path.dirname(self.get_ext_fullpath(ext.name))
        for name, required in EXTENSIONS:
            extension = built_extension(build_dir, name, required)
            if extension:
                copy_file(extension, os.path.join(package, os.path.basename(extension)))
        # _C links libproton.so.0 by soname; the launcher also finds it under that name.
        copy_file(os.path.join(build_dir, "lib", "libproton.so.0"),
                  os.path.join(package, "libproton.so.0"))
        not_built = []
        for name, required in EXECUTABLES:
            executable = built_executable(build_dir, name, required)
            if executable:
                copy_file(executable, os.path.join(package, "_bin", name), executable=True)
            else:
                not_built.append("%s: %s\n" % (name, viewer_not_built_reason(build_dir)))
        # pip shows a successful build's output only with -v: the installed command says it too.
        sys.stderr.write("".join("setup.py: " + line for line in not_built))
        with open(os.path.join(package, "_bin", NOT_BUILT_FILE), "w") as f:
            f.write("".join(not_built))


# The package layout lives here rather than in pyproject.toml's [tool.setuptools], which
# Debian 12's setuptools (66) still flags as beta with a warning on every build.
setup(
    version=package_version(),
    package_dir={"": "python"},
    packages=["proton", "proton.hooks", "proton_bootstrap"],
    ext_modules=[Extension("proton._C", sources=[])],  # built by CMakeBuild, not by setuptools
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": BUILD_BASE}},
)
