"""The test files a pytest run would execute, as pytest's own collection finds them
(testpaths, python_files, conftest.py, norecursedirs, the arguments given): loaded by
run-tests --shard as `pytest --collect-only -p run_tests_pytest_units ARGS`, it writes
{"files": [...]} (absolute paths) to RUN_TESTS_UNITS_OUT. A file whose collection failed,
or that skipped itself at module level, is listed too: the run reports it, so the shard
given that file does. Inert unless RUN_TESTS_UNITS_OUT is set.
"""

import json
import os

OUT_VAR = "RUN_TESTS_UNITS_OUT"


def pytest_configure(config):
    if os.environ.get(OUT_VAR):
        config.pluginmanager.register(Units(str(config.rootpath)), "run_tests_units")


class Units:
    def __init__(self, rootdir):
        self.rootdir = rootdir
        self.files = set()

    def pytest_collectreport(self, report):
        # The session's own report (node id "") is no file: a usage error ends the listing.
        path = report.nodeid.split("::", 1)[0]
        if not report.passed and path:
            self.files.add(os.path.normpath(os.path.join(self.rootdir, path)))

    def pytest_collection_finish(self, session):
        for item in session.items:
            self.files.add(os.path.abspath(str(getattr(item, "path", None) or item.fspath)))
        with open(os.environ[OUT_VAR], "w", encoding="utf-8") as out:
            json.dump({"files": sorted(self.files)}, out)
