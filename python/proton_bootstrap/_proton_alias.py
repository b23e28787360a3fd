"""The ``triton.profiler`` alias (profiler.md §2.12): under the ``proton`` command,
``import triton.profiler`` (and its submodules that exist in ours) gives our ``proton``
module, so scripts written for the reference reach the running session instead of Triton's
own, never-started profiler. The parent ``triton`` is imported by Python first, so without a
real ``triton`` package the import fails as usual; nothing is fabricated.
"""

import os
import sys


class _AliasLoader:
    """Loads ``triton.profiler[.sub]`` as the existing ``proton[.sub]`` module."""

    def __init__(self, target):
        self._target = target
        self._spec = None

    def create_module(self, spec):
        import importlib
        module = importlib.import_module(self._target)
        self._spec = getattr(module, "__spec__", None)
        return module

    def exec_module(self, module):
        # The import system stamped the alias spec on our module; give it its own back.
        if self._spec is not None:
            module.__spec__ = self._spec
        # Register the submodules already loaded under their alias names too. Otherwise a
        # later `import triton.profiler.scope` would load it anew and the import system
        # would rebind the package attribute `scope` (the class) to the submodule.
        prefix = self._target + "."
        alias = "triton.profiler" + self._target[len("proton"):] + "."
        for name, loaded in list(sys.modules.items()):
            if name.startswith(prefix):
                sys.modules.setdefault(alias + name[len(prefix):], loaded)


class TritonProfilerAlias:
    """Meta-path finder for ``triton.profiler`` and ``triton.profiler.*``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "triton.profiler" and not fullname.startswith("triton.profiler."):
            return None
        import importlib.machinery
        import importlib.util
        ours = "proton" + fullname[len("triton.profiler"):]
        try:
            found = importlib.util.find_spec(ours)
        except (ImportError, ValueError):
            found = None
        if found is not None:
            return importlib.util.spec_from_loader(
                fullname, _AliasLoader(ours),
                is_package=found.submodule_search_locations is not None)
        # A submodule we do not have (e.g. Triton's instrumentation language): Triton's own.
        triton = sys.modules.get("triton")
        if triton is None or not getattr(triton, "__file__", None):
            return None
        real_dir = os.path.join(os.path.dirname(triton.__file__), "profiler")
        return importlib.machinery.PathFinder.find_spec(fullname, [real_dir])


def install():
    if not any(isinstance(finder, TritonProfilerAlias) for finder in sys.meta_path):
        sys.meta_path.insert(0, TritonProfilerAlias())
