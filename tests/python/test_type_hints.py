"""Every annotation of the public Python surface resolves: ``typing.get_type_hints`` (what
IDEs, pydantic-style validators and documentation tools call) raises NameError when a module
names ``Optional``, ``Dict``, ... in an annotation without importing it."""

import importlib
import inspect
import typing

import pytest

MODULES = ["proton", "proton.context", "proton.data", "proton.flags", "proton.hooks",
           "proton.hooks.hook", "proton.hooks.launch", "proton.metric", "proton.mode",
           "proton.profile", "proton.scope", "proton.specs", "proton.state", "proton.viewer",
           "proton._frame_filters", "proton._viewer_tree", "proton._cli"]


def _own_callables(module):
    """Functions and classes defined in the proton package that ``module`` exposes."""
    for name, value in vars(module).items():
        if name.startswith("__") or not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        if getattr(value, "__module__", "").startswith("proton"):
            yield name, value


def _annotated(name, value):
    """The object itself and, for a class, every function defined in its body."""
    yield name, value
    if inspect.isclass(value):
        for attr, member in vars(value).items():
            function = getattr(member, "__func__", member)  # staticmethod, classmethod
            if inspect.isfunction(function):
                yield f"{name}.{attr}", function


def _surface():
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name, value in _own_callables(module):
            for qualified, obj in _annotated(name, value):
                yield f"{module_name}.{qualified}", obj


def test_the_surface_has_annotated_functions():
    names = [name for name, _ in _surface()]
    for expected in ("proton.start", "proton.viewer.parse", "proton.data.get",
                     "proton.hooks.HookManager.register", "proton.context.depth"):
        assert expected in names, expected


@pytest.mark.parametrize("obj", [pytest.param(obj, id=name) for name, obj in _surface()])
def test_get_type_hints_resolves(obj):
    typing.get_type_hints(obj)
