"""Bootstrap of the ``proton`` command (profiler.md §2.9): the launcher puts this directory
first on PYTHONPATH, so every Python process of a ``proton`` run imports this module at
start-up. It hands the process to ``_proton_cli_process`` (CLI mode, session 0, the
``triton.profiler`` alias, the ``-k triton`` hook, exit handling), then runs any other
``sitecustomize`` that this one shadows. It never stops the user's program: a failure is one
warning on stderr.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _drop_bootstrap_dir():
    # The directory stays in PYTHONPATH for child processes but leaves sys.path, so the
    # script sees the same sys.path as without the profiler (plus the proton package).
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]


def _chain_other_sitecustomize():
    # The import system's own modules: importlib.util would cost milliseconds per process.
    import _frozen_importlib
    import _frozen_importlib_external

    spec = _frozen_importlib_external.PathFinder.find_spec("sitecustomize", sys.path)
    if spec is None or spec.loader is None:
        return
    module = _frozen_importlib.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


def _start():
    if os.environ.get("PROTON_CLI") != "1":
        return
    try:
        import _proton_cli_process
        _proton_cli_process.bootstrap()
    except Exception as error:
        sys.stderr.write("proton: warning: the profiler could not start in pid %d (%s: %s)\n"
                         % (os.getpid(), type(error).__name__, error))


try:
    _start()
finally:
    _drop_bootstrap_dir()
    _chain_other_sitecustomize()
