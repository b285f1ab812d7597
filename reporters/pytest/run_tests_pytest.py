"""run-tests' pytest plugin: one JSON line per test phase, collection problem and session.

Loaded through PYTEST_PLUGINS (with this directory on PYTHONPATH), so the command line
the tests see in sys.argv stays the project's own. Inert unless RUN_TESTS_PYTEST_REPORT
names the report file. Lines are flushed one by one: a run killed by the timeout keeps
what finished. See src/runners/pytest/events.ts for the reader.
"""

import json
import os
import re
import sys
import traceback

import pytest

REPORT_VAR = "RUN_TESTS_PYTEST_REPORT"
FILTER_VAR = "RUN_TESTS_PYTEST_FILTER"
MODULE = "run_tests_pytest"
MESSAGE_LIMIT = 2048
# The oldest pytest this plugin works with: it reads item.path (pytest 7.0).
SUPPORTED_FROM = (7, 0)


def bounded(text):
    """Valid UTF-8 of at most MESSAGE_LIMIT bytes, never cut inside a character."""
    data = str(text).encode("utf-8", "replace")
    return data[:MESSAGE_LIMIT].decode("utf-8", "ignore")


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
    """Below SUPPORTED_FROM the plugin would crash mid-run: say so in the report (the
    harness makes it RUNNER_UNSUPPORTED) and stop pytest before any test runs."""
    if _version(pytest.__version__) >= SUPPORTED_FROM:
        return
    supported = "%d.%d or later" % SUPPORTED_FROM
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps({
            "type": "unsupported", "pytest": pytest.__version__, "python": sys.executable, "supported": supported,
        }) + "\n")
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
        self.emit({
            "type": "start", "pid": os.getpid(), "pytest": pytest.__version__,
            "python": sys.version.split()[0], "rootdir": self.rootdir, "dir": self.base,
        })

    @pytest.hookimpl(hookwrapper=True)
    def pytest_collection(self, session):
        outcome = yield
        # A node id on the command line that no longer exists stops pytest here (exit 4).
        if outcome.excinfo is not None and isinstance(outcome.excinfo[1], pytest.UsageError):
            self.emit({"type": "usage", "message": bounded(outcome.excinfo[1])})

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session, config, items):
        if self.pattern is None:
            return
        selected = [item for item in items if self.pattern.search(self.test_id(item.nodeid))]
        deselected = [item for item in items if not self.pattern.search(self.test_id(item.nodeid))]
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = selected

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        excinfo = call.excinfo
        if excinfo is None or report.outcome != "failed":
            return
        exc = excinfo.value
        report.run_tests_failure = {
            "exception": type(exc).__name__,
            "assertion": isinstance(exc, (AssertionError, pytest.fail.Exception)),
            "message": bounded(excinfo.exconly(tryshort=True)),
            "frame_line": _frame_line(excinfo.tb, os.path.abspath(str(item.path))),
        }

    def pytest_runtest_logreport(self, report):
        file = self.nodeid_file(report.nodeid)
        location = report.location
        definition = location[1] + 1 if location and location[1] is not None and self.abspath(location[0]) == file else None
        record = {
            "type": "test", "nodeid": report.nodeid, "id": self.test_id(report.nodeid), "when": report.when,
            "outcome": report.outcome, "duration": round(report.duration, 6), "file": file, "line": definition,
        }
        if hasattr(report, "wasxfail"):
            record["xfail"] = report.wasxfail
        if report.failed:
            record.update(self.failure(report, file))
        elif report.skipped and isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
            record["message"] = bounded(report.longrepr[2])
        self.emit(record)

    def failure(self, report, file):
        crash = getattr(report.longrepr, "reprcrash", None)
        detail = getattr(report, "run_tests_failure", None)
        fields = {
            "crash_path": self.abspath(crash.path) if crash is not None else None,
            "crash_line": crash.lineno if crash is not None else None,
        }
        if detail is not None:
            fields.update(detail)
        else:
            # No exception (a strict xpass), or a report made elsewhere (an xdist worker).
            # pytest writes a strict xpass as "[XPASS(strict)] " + the mark's reason: with
            # no reason, that ends in a space.
            fields.update({
                "exception": None, "assertion": False,
                "message": bounded(crash.message if crash is not None else str(report.longrepr).rstrip()),
                "frame_line": self.reported_frame(report.longrepr, file),
            })
        return fields

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
        if report.passed:
            return
        line, message = self.collect_lines.pop(report.nodeid, (None, None))
        if message is None:
            longrepr = report.longrepr
            message = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        self.emit({
            "type": "collect", "nodeid": report.nodeid, "id": self.test_id(report.nodeid),
            "outcome": report.outcome, "file": self.nodeid_file(report.nodeid), "line": line,
            "message": bounded(message),
        })

    @pytest.hookimpl(hookwrapper=True)
    def pytest_sessionfinish(self, session, exitstatus):
        yield
        self.emit({"type": "session", "exitstatus": int(exitstatus), "pid": os.getpid()})
        self.out.close()
