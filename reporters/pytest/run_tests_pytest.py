"""run-tests' pytest plugin: writes run-tests' event format (schema/events.schema.json),
one JSON object per line, read by src/parsers/events.ts with pytest's rules
(src/runners/pytest/events.ts).

A test's setup, call and teardown become one test_end, written once its teardown is
reported; a collection error is an error event; the session's end is run_end, with
pytest's own totals and whether its exit status means every selected test ran (what
pytest's reports mean is in run_tests_pytest_results.py; the hooks that see them, here).

Loaded through PYTEST_PLUGINS (with this directory on PYTHONPATH), so the command line
the tests see in sys.argv stays the project's own. Inert unless RUN_TESTS_PYTEST_REPORT
names the report file. Lines are flushed one by one: a run killed by the timeout keeps
what finished.
"""

import json
import os
import re
import sys
import traceback

import pytest
from run_tests_pytest_results import Phases, bounded, ending, totals

REPORT_VAR = "RUN_TESTS_PYTEST_REPORT"
FILTER_VAR = "RUN_TESTS_PYTEST_FILTER"
MODULE = "run_tests_pytest"
SCHEMA = 1
# The oldest pytest this plugin works with: it reads item.path (pytest 7.0).
SUPPORTED_FROM = (7, 0)


def _without(value, item, sep):
    kept = [part for part in (value or "").split(sep) if part != item and part != ""]
    return sep.join(kept)


def _forget_injection():
    """Tests and the processes they start see the environment the project would give
    them: a nested pytest must not load this plugin or write into our report."""
    for var in (REPORT_VAR, FILTER_VAR):
        os.environ.pop(var, None)
    for var, item, sep in (
        ("PYTEST_PLUGINS", MODULE, ","),
        ("PYTHONPATH", os.path.dirname(os.path.abspath(__file__)), os.pathsep),
    ):
        if var in os.environ:
            rest = _without(os.environ[var], item, sep)
            if rest:
                os.environ[var] = rest
            else:
                del os.environ[var]


def _version(text):
    """(7, 2) from "7.2.1", "7.2.0rc1"; (0, 0) when unreadable."""
    match = re.match(r"(\d+)\.(\d+)", text)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def _refuse_unsupported(path):
    """Below SUPPORTED_FROM the plugin would crash mid-run: say so in the report (an
    unusable event: the run is RUNNER_UNSUPPORTED) and stop pytest before any test runs."""
    if _version(pytest.__version__) >= SUPPORTED_FROM:
        return
    supported = "%d.%d or later" % SUPPORTED_FROM
    message = (
        f"pytest {pytest.__version__} ({sys.executable}) is not supported: run-tests supports pytest {supported}; "
        "install one into this python, or into the project's virtualenv"
    )
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps({"event": "unusable", "code": "RUNNER_UNSUPPORTED", "message": message}) + "\n")
    raise pytest.UsageError(f"run-tests supports pytest {supported}; this is pytest {pytest.__version__}")


def pytest_configure(config):
    path = os.environ.get(REPORT_VAR)
    if not path or hasattr(config, "workerinput"):
        return
    _refuse_unsupported(path)
    pattern = os.environ.get(FILTER_VAR)
    _forget_injection()
    config.pluginmanager.register(Reporter(config, path, pattern), "run_tests_pytest_reporter")


def _frame_line(tb, test_file):
    """The innermost line of a traceback (oldest frame first) inside test_file."""
    line = None
    while tb is not None:
        if os.path.abspath(tb.tb_frame.f_code.co_filename) == test_file:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _describe(exc):
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


class Reporter:
    def __init__(self, config, path, pattern):
        self.config = config
        self.base = str(config.invocation_params.dir)
        self.rootdir = str(config.rootpath)
        self.pattern = re.compile(pattern) if pattern else None
        self.collect_lines = {}
        self.running = {}
        self.collect_errors = 0
        self.tests_reported = False
        self.warnings = []
        self.out = open(path, "a", encoding="utf-8")

    def emit(self, record):
        self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.out.flush()

    def abspath(self, relative):
        return os.path.normpath(os.path.join(self.rootdir, relative))

    def nodeid_file(self, nodeid):
        return self.abspath(nodeid.split("::", 1)[0])

    def test_id(self, nodeid):
        """The node id relative to the directory pytest ran in (= pytest's own node id
        unless its rootdir lies elsewhere): what a rerun gives pytest on its command line."""
        path, sep, rest = nodeid.partition("::")
        relative = os.path.relpath(self.abspath(path), self.base).replace(os.sep, "/")
        return relative + sep + rest

    def pytest_sessionstart(self, session):
        self.emit({"event": "run_start", "schema": SCHEMA, "runner": "pytest", "runner_version": pytest.__version__, "pid": os.getpid()})

    @pytest.hookimpl(hookwrapper=True)
    def pytest_collection(self, session):
        outcome = yield
        # A node id on the command line that no longer exists stops pytest here (exit 4).
        if outcome.excinfo is not None and isinstance(outcome.excinfo[1], pytest.UsageError):
            self.warnings.append(f"pytest: {bounded(outcome.excinfo[1])}")

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session, config, items):
        if self.pattern is None:
            return
        selected = [item for item in items if self.pattern.search(self.test_id(item.nodeid))]
        deselected = [item for item in items if not self.pattern.search(self.test_id(item.nodeid))]
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = selected

    def pytest_collection_finish(self, session):
        # The tests about to run, deselections made: the live display's total.
        self.emit({"event": "plan", "tests": len(session.items)})

    def pytest_runtest_logstart(self, nodeid, location):
        self.emit({"event": "test_start", "id": self.test_id(nodeid), "name": self.test_id(nodeid), "file": self.nodeid_file(nodeid)})

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        excinfo = call.excinfo
        if excinfo is None or report.outcome != "failed":
            return
        exc = excinfo.value
        test_file = os.path.abspath(str(item.path))
        crash = getattr(report.longrepr, "reprcrash", None)
        report.run_tests_failure = {
            "assertion": isinstance(exc, (AssertionError, pytest.fail.Exception)),
            "message": bounded(excinfo.exconly(tryshort=True)),
            "line": _frame_line(excinfo.tb, test_file) or self.crash_line(crash, test_file),
            "stack": bounded("".join(traceback.format_tb(excinfo.tb))),
        }

    def crash_line(self, crash, test_file):
        """Where pytest says the exception was raised, when that is in the test file."""
        return crash.lineno if crash is not None and self.abspath(crash.path) == test_file else None

    def pytest_runtest_logreport(self, report):
        self.tests_reported = True
        test = self.running.get(report.nodeid)
        if test is None:
            test = self.running[report.nodeid] = self.new_phases(report)
        if report.outcome == "rerun":  # pytest-rerunfailures: the next attempt decides
            test.seconds += report.duration
            test.restart()
            return
        test.add(report, self.failure(report, test.event["file"]) if report.failed else None)
        if report.when == "teardown":
            event = self.running.pop(report.nodeid).end()
            if event is not None:
                self.emit(event)

    def new_phases(self, report):
        file = self.nodeid_file(report.nodeid)
        location = report.location
        definition = location[1] + 1 if location and location[1] is not None and self.abspath(location[0]) == file else None
        return Phases(self.test_id(report.nodeid), file, definition)

    def failure(self, report, file):
        detail = getattr(report, "run_tests_failure", None)
        if detail is not None:
            return detail
        # No exception (a strict xpass), or a report made elsewhere (an xdist worker):
        # what the report says. pytest writes a strict xpass as "[XPASS(strict)] " + the
        # mark's reason: with no reason, that ends in a space.
        crash = getattr(report.longrepr, "reprcrash", None)
        return {
            "assertion": True,
            "message": bounded(crash.message if crash is not None else str(report.longrepr).rstrip()),
            "line": self.reported_frame(report.longrepr, file) or self.crash_line(crash, file),
        }

    def reported_frame(self, longrepr, file):
        entries = getattr(getattr(longrepr, "reprtraceback", None), "reprentries", None) or []
        line = None
        for entry in entries:
            loc = getattr(entry, "reprfileloc", None)
            if loc is not None and os.path.normpath(os.path.join(self.base, loc.path)) == file:
                line = loc.lineno
        return line

    def pytest_exception_interact(self, node, call, report):
        if getattr(report, "when", None) != "collect" or call.excinfo is None:
            return
        file = os.path.abspath(str(getattr(node, "path", "")))
        exc = call.excinfo.value
        cause = exc.__cause__ or exc.__context__ or exc
        line = None
        for candidate in (cause, exc):
            if isinstance(candidate, SyntaxError) and candidate.filename and os.path.abspath(candidate.filename) == file:
                line = candidate.lineno
            line = line or _frame_line(candidate.__traceback__, file)
            if line:
                break
        self.collect_lines[report.nodeid] = (line, _describe(cause))

    def pytest_collectreport(self, report):
        """A module that failed to import is an error entry; one that skipped itself
        (pytest.skip(allow_module_level=True)) a skipped entry, both named by the file."""
        if report.passed:
            return
        line, message = self.collect_lines.pop(report.nodeid, (None, None))
        if message is None:
            longrepr = report.longrepr
            message = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        test_id, file = self.test_id(report.nodeid), self.nodeid_file(report.nodeid)
        if report.failed:
            self.collect_errors += 1
            self.emit({"event": "error", "kind": "collect", "id": test_id, "name": test_id, "file": file, "line": line, "message": bounded(message)})
        else:
            self.emit({"event": "test_end", "id": test_id, "name": test_id, "file": file, "line": None, "status": "skipped", "message": bounded(message)})

    @pytest.hookimpl(hookwrapper=True)
    def pytest_sessionfinish(self, session, exitstatus):
        yield
        complete, warnings = ending(int(exitstatus), self.collect_errors, self.tests_reported)
        event = {"event": "run_end", "pid": os.getpid(), "interrupted": not complete}
        counted = totals(self.config)
        if counted is not None:
            event["totals"] = counted
        if self.warnings or warnings:
            event["warnings"] = self.warnings + warnings
        self.emit(event)
        self.out.close()
