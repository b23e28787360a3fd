"""``Hook`` and ``HookManager`` (profiler.md §1.9).

The manager keeps, per session, which hooks it registered and whether they are active. A
hook is active while any session that registered it is active; ``enter`` runs active hooks by
descending priority and ``exit`` in reverse. Triton's runtime hooks
(``triton.knobs.runtime.launch_enter_hook``/``launch_exit_hook``) point at the manager while
any hook is registered; ``triton`` is imported only then, never at ``import proton``.
"""

from __future__ import annotations

import sys
from typing import Dict, List, Optional

from .. import _C


class Hook:
    """Interface of a launch hook. Subclasses override what they need."""

    priority: int = 0

    def init_handle(self, module, function, name, metadata_group, hash) -> None:  # noqa: A002
        pass

    def destroy_handle(self, module, function, name, metadata_group, hash) -> None:  # noqa: A002
        pass

    def enter(self, metadata) -> None:
        pass

    def exit(self, metadata) -> None:
        pass

    def activate(self) -> None:
        pass

    def deactivate(self) -> None:
        pass


class _RuntimeHooks:
    """Installs the manager into Triton's runtime knobs and removes it again.

    A knob that offers ``add``/``remove`` (Triton's hook chain) is used as such; a plain
    attribute holding one callable (or None) is chained: ours runs with the previous value,
    which is restored on removal if nobody replaced ours meanwhile.
    """

    def __init__(self):
        self.installed = False
        self.runtime = None
        self.saved: Dict[str, object] = {}
        self.installed_values: Dict[str, object] = {}

    @staticmethod
    def _find_runtime():
        try:
            __import__("triton.knobs")
            knobs = sys.modules["triton.knobs"]
        except ImportError:
            return None
        return getattr(knobs, "runtime", None)

    def install(self, enter, exit_) -> None:
        if self.installed:
            return
        runtime = self._find_runtime()
        if runtime is None:
            return  # no Triton in this process: the hook has nothing to attach to
        self.runtime = runtime
        for attr, ours, ours_first in (("launch_enter_hook", enter, False),
                                       ("launch_exit_hook", exit_, True)):
            current = getattr(runtime, attr, None)
            if hasattr(current, "add") and hasattr(current, "remove"):
                current.add(ours)
                self.installed_values[attr] = ours
                continue
            self.saved[attr] = current
            value = ours if current is None else _chain(current, ours, ours_first)
            setattr(runtime, attr, value)
            self.installed_values[attr] = value
        self.installed = True

    def uninstall(self) -> None:
        if not self.installed:
            return
        runtime = self.runtime
        for attr, value in self.installed_values.items():
            current = getattr(runtime, attr, None)
            if attr not in self.saved:
                if hasattr(current, "remove"):
                    current.remove(value)
            elif current is value:
                setattr(runtime, attr, self.saved[attr])
        self.saved.clear()
        self.installed_values.clear()
        self.installed = False
        self.runtime = None


def _chain(previous, ours, ours_first):
    """One callable that runs ``ours`` and the previously installed hook (exit: ours first)."""
    if ours_first:
        def chained(*args, **kwargs):
            ours(*args, **kwargs)
            return previous(*args, **kwargs)
    else:
        def chained(*args, **kwargs):
            previous(*args, **kwargs)
            return ours(*args, **kwargs)
    chained.__proton_previous__ = previous
    return chained


class HookManager:
    """Static registry of hooks per session (profiler.md §1.9)."""

    active_hooks: List[Hook] = []
    # session id -> {hook: active}
    session_hooks: Dict[int, Dict[Hook, bool]] = {}
    _runtime = _RuntimeHooks()

    @staticmethod
    def init_handle(module, function, name, metadata_group, hash) -> None:  # noqa: A002
        for hook in HookManager.active_hooks:
            hook.init_handle(module, function, name, metadata_group, hash)

    # Runs the active hooks' enter by descending priority, and exit in reverse. These are the
    # callables installed in Triton's knobs: C functions (src/python/launch_hook.cc), so no
    # Python frame of ours runs per launch for LaunchHook.
    enter = staticmethod(_C.hook_enter)
    exit = staticmethod(_C.hook_exit)

    @staticmethod
    def _publish() -> None:
        """Sorts the active hooks and hands the dispatcher a snapshot of them."""
        HookManager.active_hooks.sort(key=lambda h: h.priority, reverse=True)
        _C.set_active_hooks(tuple(HookManager.active_hooks))

    @staticmethod
    def _sessions(session: Optional[int]):
        if session is None:
            return list(HookManager.session_hooks.keys())
        return [session] if session in HookManager.session_hooks else []

    @staticmethod
    def _needed(hook: Hook) -> bool:
        return any(hooks.get(hook, False) for hooks in HookManager.session_hooks.values())

    @staticmethod
    def _activate_hook(hook: Hook) -> None:
        if hook not in HookManager.active_hooks:
            hook.activate()
            HookManager.active_hooks.append(hook)
            HookManager._publish()

    @staticmethod
    def _drop_unneeded() -> None:
        for hook in list(HookManager.active_hooks):
            if not HookManager._needed(hook):
                hook.deactivate()
                HookManager.active_hooks.remove(hook)
        HookManager._publish()

    @staticmethod
    def register(hook: Hook, session: int) -> None:
        HookManager.session_hooks.setdefault(session, {})[hook] = True
        HookManager._activate_hook(hook)
        HookManager._runtime.install(HookManager.enter, HookManager.exit)

    @staticmethod
    def activate(session: Optional[int] = None) -> None:
        for sid in HookManager._sessions(session):
            hooks = HookManager.session_hooks[sid]
            for hook in hooks:
                hooks[hook] = True
                HookManager._activate_hook(hook)

    @staticmethod
    def deactivate(session: Optional[int] = None) -> None:
        for sid in HookManager._sessions(session):
            hooks = HookManager.session_hooks[sid]
            for hook in hooks:
                hooks[hook] = False
        HookManager._drop_unneeded()

    @staticmethod
    def unregister(session: Optional[int] = None) -> None:
        for sid in HookManager._sessions(session):
            del HookManager.session_hooks[sid]
        HookManager._drop_unneeded()
        if not HookManager.session_hooks:
            HookManager._runtime.uninstall()


__all__ = ["Hook", "HookManager"]
