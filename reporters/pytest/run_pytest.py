"""`python3 -m pytest ARGS`, or `pytest ARGS` from PATH when this python has no pytest
module (pytest installed with pipx, say). run-tests starts this file as
`python3 run_pytest.py ARGS`: plan() stays pure, and the choice is made where the
interpreter is known. Never imported by the plugin.
"""

import importlib.util
import os
import runpy
import sys

# As `python -m`: the current directory first on sys.path (unless -P / PYTHONSAFEPATH).
if getattr(sys.flags, "safe_path", False):
    del sys.path[0]
else:
    sys.path[0] = os.getcwd()

if importlib.util.find_spec("pytest") is None:
    sys.stderr.write(f"run-tests: {sys.executable} has no pytest module; running pytest from PATH\n")
    sys.stderr.flush()
    try:
        os.execvp("pytest", ["pytest", *sys.argv[1:]])
    except OSError:
        sys.stderr.write("run-tests: no pytest found (install python3-pytest, or pytest into the project's virtualenv)\n")
        sys.exit(127)

runpy.run_module("pytest", run_name="__main__", alter_sys=True)
