"""`python3 -m pytest ARGS`, or `pytest ARGS` from PATH when this python has no pytest
module (pytest installed with pipx, say). run-tests starts this file as
`python3 run_pytest.py ARGS`: plan() stays pure, and the choice is made where the
interpreter is known; a fallback is written into the report as a launch event, which
the report shows, and no pytest at all as an unusable one. Never imported by the plugin.
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


def _tell_report(record):
    """An event first in the report (schema/events.schema.json), about pytest itself:
    which one really runs instead of `python3 -m pytest` (which would fail by hand), or
    that there is none."""
    import json  # only here: the usual path imports no more than it needs

    report = os.environ.get("RUN_TESTS_PYTEST_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")


if importlib.util.find_spec("pytest") is None:
    import shutil

    pytest = shutil.which("pytest")
    if pytest is None:
        message = f"python3 ({sys.executable}) has no pytest module, and there is no pytest on PATH"
        sys.stderr.write(f"run-tests: {message}\n")
        _tell_report({"event": "unusable", "code": "RUNNER_MISSING", "message": message})
        sys.exit(127)
    why = f"python3 ({sys.executable}) has no pytest module: ran pytest from PATH ({pytest}) instead"
    sys.stderr.write(f"run-tests: {why}\n")
    sys.stderr.flush()
    _tell_report({"event": "launch", "argv": ["pytest", *sys.argv[1:]], "why": why})
    os.execv(pytest, ["pytest", *sys.argv[1:]])

runpy.run_module("pytest", run_name="__main__", alter_sys=True)
