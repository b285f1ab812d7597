"""What pytest's reports and exit status mean for run-tests, for the plugin
(run_tests_pytest.py) to write: one result per test from its phases, pytest's own totals,
and whether the run ended with every selected test run. Imports nothing from pytest.
"""

# Above run-tests' own 2 KiB cut, which says how many lines it leaves out: it can count
# them only in what it is given. Keeps each event line bounded all the same.
MESSAGE_LIMIT = 16 * 1024
# pytest's exit statuses after which every selected test ran: tests passed, tests failed,
# no tests collected. 2 (interrupted) also follows collection errors: see ending().
RAN_ALL = (0, 1, 5)
WHY_STOPPED = {2: "was interrupted", 3: "hit an internal error", 4: "stopped with a usage error"}
# The summary line's categories (pytest_report_teststatus), as run_end's totals count them.
# A test counts once, in the first that holds it: one that fails, then errors in its
# teardown, is one failed test (two in pytest's summary line).
CATEGORIES = (
    ("failed", "failed"), ("error", "errors"), ("skipped", "skipped"), ("xfailed", "skipped"),
    ("passed", "passed"), ("xpassed", "passed"),
)


def bounded(text):
    """Valid UTF-8 of at most MESSAGE_LIMIT bytes, never cut inside a character."""
    data = str(text).encode("utf-8", "replace")
    return data[:MESSAGE_LIMIT].decode("utf-8", "ignore")


class Phases:
    """One test's phases made one result, as pytest counts them: the first failing phase
    decides the status and where it failed, a later one (a teardown error after a failed
    call) adds its message. Assertions and strict xpasses in the call are failures; any
    other exception, and every setup or teardown exception, is an error. `failure` is
    {"assertion", "message", "line" in the test file or None}."""

    def __init__(self, test_id, file, line):
        self.event = {"event": "test_end", "id": test_id, "name": test_id, "file": file, "line": line}
        self.seconds = 0.0
        self.restart()

    def restart(self):
        self.status, self.message, self.where, self.stack = None, None, None, None

    def add(self, report, failure):
        self.seconds += report.duration
        if report.passed:
            if report.when == "call" and self.status is None:
                self.status = "passed"
        elif report.skipped:
            if self.status is None:
                self.status, self.message = "skipped", skip_message(report)
        elif report.failed:
            self.fail(report.when, failure)

    def fail(self, when, failure):
        message = failure["message"] if when == "call" else f"at {when}: {failure['message']}"
        if self.status in ("failed", "error"):
            self.message = f"{self.message}\n\nthen {message}"
            return
        self.status = "failed" if when == "call" and failure["assertion"] else "error"
        self.message, self.where, self.stack = message, failure["line"], failure.get("stack")

    def end(self):
        """The test_end event, or None when no phase gave a result (--setup-only)."""
        if self.status is None:
            return None
        event = {**self.event, "status": self.status, "duration_ms": round(self.seconds * 1000, 3)}
        if self.message is not None:
            event["message"] = self.message
        if self.where is not None:
            event["location"] = {"file": self.event["file"], "line": self.where}
        if self.stack is not None:
            event["stack"] = self.stack
        return event


def skip_message(report):
    if hasattr(report, "wasxfail"):
        return f"xfail: {report.wasxfail}" if report.wasxfail else "xfail"
    longrepr = report.longrepr
    return bounded(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else None


def totals(config):
    """pytest's own count of the tests it reported, or None without its terminal."""
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    if terminal is None:
        return None
    counted = {}
    for category, field in CATEGORIES:
        for report in terminal.stats.get(category, []):
            counted.setdefault(getattr(report, "nodeid", None), field)
    count = {field: 0 for _, field in CATEGORIES}
    for field in counted.values():
        count[field] += 1
    return {"tests": len(counted), **count}


def ending(status, collect_errors, tests_reported):
    """Whether every selected test ran, and the warnings pytest's exit status calls for."""
    if status == 2 and collect_errors > 0:
        if tests_reported:
            return True, []
        return True, ["pytest ran no tests: it stops after errors during collection (exit 2; --continue-on-collection-errors runs the rest)"]
    if status in RAN_ALL:
        return True, []
    return False, [f"pytest {WHY_STOPPED.get(status, 'ended')} (exit status {status}); the log has its output"]
