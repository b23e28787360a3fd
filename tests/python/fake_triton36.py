"""Triton 3.6's launch machinery, verbatim, for tests and benchmarks without Triton or a GPU:
`HookChain` (triton/knobs.py, the type of `knobs.runtime.launch_enter_hook`/`launch_exit_hook`)
and `LazyDict` (triton/compiler/compiler.py, the metadata object the launcher passes to them),
as printed from the installed Triton 3.6 on the H200. Sources as strings: the users write them
into a fake `triton` package or exec them."""

HOOK_CHAIN_SOURCE = """
class HookChain:
    def __init__(self, reversed=False):
        self.calls = []
        self.reversed = reversed
    def add(self, func):
        if func not in self.calls:
            self.calls.append(func)
    def remove(self, func):
        if func in self.calls:
            self.calls.remove(func)
    def __call__(self, *args, **kwargs):
        for call in (reversed(self.calls) if self.reversed else self.calls):
            call(*args, **kwargs)
"""

# triton/knobs.py as far as the hooks go: the runtime knobs hold two chains.
KNOBS_SOURCE = HOOK_CHAIN_SOURCE + """
class _Runtime:
    launch_enter_hook = HookChain()
    launch_exit_hook = HookChain(reversed=True)

runtime = _Runtime()
"""

LAZY_DICT_SOURCE = """
class LazyDict:
    def __init__(self, data):
        self.data = data
        self.extras = []
    def get(self):
        for func, args in self.extras:
            self.data = self.data | func(*args)
        self.extras.clear()
        return self.data
    def add(self, func, args):
        self.extras.append((func, args))
"""
