"""run-tests' hook into `python -m unittest`: Python imports this module at start-up
because run-tests puts this directory first on PYTHONPATH, so the command that runs is the
project's own, argv unchanged. Inert unless RUN_TESTS_UNITTEST_EVENTS names the events
file; then run_tests_unittest.py reports the run (see it for what is written).

Python imports only the first `sitecustomize` on its path: the one this one hides (the
project's own, or the interpreter's, such as Debian's) is run afterwards, as it would
have been.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _run_hidden_sitecustomize():
    import importlib.machinery
    import importlib.util

    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


if os.environ.get("RUN_TESTS_UNITTEST_EVENTS"):
    import run_tests_unittest

    run_tests_unittest.install(_HERE)

_run_hidden_sitecustomize()
