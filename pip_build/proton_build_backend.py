"""The PEP 517 build backend of `pip install .` (pyproject.toml): setuptools' own
(setuptools.build_meta), after checking that everything the build needs is installed
(proton_build_requirements.py). pip calls a wheel hook first, before any build, so a missing
setuptools, wheel, CMake, compiler or Python.h is one line naming it and how to get it,
instead of a traceback ("No module named 'setuptools'") or "invalid command 'bdist_wheel'".

This module imports nothing that might be missing until a hook runs: pip imports it first.
"""

import proton_build_requirements as requirements

def _setuptools_hook(name):
    import setuptools.build_meta
    return getattr(setuptools.build_meta, name)


def _checked(name, wheel, editable=False):
    """setuptools' hook `name`, after the check for a wheel (or for an sdist: setuptools only).
    Editable installs (PEP 660) need setuptools >= 64."""
    def hook(*args, **kwargs):
        requirements.check(wheel=wheel, editable=editable)
        return _setuptools_hook(name)(*args, **kwargs)
    hook.__name__ = name
    return hook


get_requires_for_build_wheel = _checked("get_requires_for_build_wheel", wheel=True)
prepare_metadata_for_build_wheel = _checked("prepare_metadata_for_build_wheel", wheel=True)
build_wheel = _checked("build_wheel", wheel=True)
get_requires_for_build_sdist = _checked("get_requires_for_build_sdist", wheel=False)
build_sdist = _checked("build_sdist", wheel=False)
get_requires_for_build_editable = _checked("get_requires_for_build_editable", True, True)
prepare_metadata_for_build_editable = _checked("prepare_metadata_for_build_editable", True, True)
build_editable = _checked("build_editable", True, True)
