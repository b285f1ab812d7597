"""Writes run-tests' event format (schema/events.schema.json) for a `python -m unittest`
run, from the result object of unittest's own runner: one test_end per test as unittest
counts it (a test method, or a doctest that load_tests adds; subtests are part of their
test), error events for a module that failed to import and for a setUpClass or
setUpModule that raised, and run_end with unittest's own counts. Lines are flushed one
by one: a run killed by the timeout keeps what finished. Started by
run_tests_unittest.py; read by src/runners/unittest/events.ts.
"""

import json
import os
import re
import sys
import time
import traceback

from run_tests_unittest_places import FRAME, IMPORT_FAILURE, load_error_place

# Above run-tests' own 2 KiB cut, which says how many lines it leaves out: it can count
# them only in what it is given. Keeps each event line bounded all the same.
MESSAGE_LIMIT = 16 * 1024


def bounded(text):
    """Valid UTF-8 of at most MESSAGE_LIMIT bytes, never cut inside a character."""
    data = str(text).encode("utf-8", "replace")
    return data[:MESSAGE_LIMIT].decode("utf-8", "ignore")


def _exception_line(err):
    exc_type, exc, _ = err
    return "".join(traceback.format_exception_only(exc_type, exc)).strip()


class Outcome:
    """What one test's run said: unittest calls add* once per test, and addSubTest once
    per subtest, before stopTest."""

    def __init__(self, test):
        self.test = test
        self.started = time.perf_counter()
        self.counted = False  # by startTest, in unittest's testsRun
        self.failures = []  # (message, err)
        self.errors = []
        self.skipped = None
        self.expected_failure = None
        self.unexpected_success = False


class Reporter:
    def __init__(self, path, result):
        import unittest.case
        import unittest.loader
        import unittest.suite

        self.case = unittest.case
        self.failed_test = unittest.loader._FailedTest
        self.error_holder = unittest.suite._ErrorHolder
        self.result = result
        self.out = open(path, "a", encoding="utf-8")
        self.current = None
        self.holders = 0
        # Python 3.12.0 and 3.12.1 end a test its decorator skips with stopTest alone,
        # never startTest, and leave it out of testsRun (3.12.2 and 3.13 count it again).
        self.uncounted = 0
        self.emit({
            "event": "run_start", "schema": 1, "runner": "unittest",
            "runner_version": "python " + sys.version.split()[0], "pid": os.getpid(),
        })
        for name in ("startTest", "stopTest", "addSuccess", "addFailure", "addError", "addSkip",
                     "addExpectedFailure", "addUnexpectedSuccess", "addSubTest", "stopTestRun"):
            self.wrap(name)

    def emit(self, record):
        self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.out.flush()

    def wrap(self, name):
        """The result's own method, called first, then ours: unittest's counts and
        output stay its own. A failure of ours never fails the project's run."""
        original = getattr(self.result, name, None)
        if original is None:
            return
        ours = getattr(self, name)

        def both(*args, **kwargs):
            value = original(*args, **kwargs)
            try:
                ours(*args)
            except Exception as exc:  # pragma: no cover - reported, never raised into unittest
                self.emit({"event": "note", "text": bounded(f"run-tests' unittest reporter failed in {name}: {exc!r}")})
            return value

        setattr(self.result, name, both)

    def parent(self, test):
        return test.test_case if isinstance(test, self.case._SubTest) else test

    def outcome(self, test):
        test = self.parent(test)
        if self.current is None or self.current.test is not test:
            self.current = Outcome(test)
        return self.current

    # unittest's TestResult protocol

    def startTest(self, test):
        self.current = Outcome(test)
        self.current.counted = True
        if not isinstance(test, self.failed_test):
            self.emit({"event": "test_start", "id": self.test_id(test), "name": test.id(), "file": self.where(test)[0]})

    def addSuccess(self, test):
        pass

    def addFailure(self, test, err):
        if isinstance(test, self.error_holder):
            return self.holder_error(test, err)
        message = _doctest_message(str(err[1])) if getattr(test, "_dt_test", None) is not None else _exception_line(err)
        self.outcome(test).failures.append((message, err))

    def addError(self, test, err):
        if isinstance(test, self.error_holder):
            return self.holder_error(test, err)
        self.outcome(test).errors.append((_exception_line(err), err))

    def addSkip(self, test, reason):
        if isinstance(test, self.error_holder):
            self.holders += 1
            selector, _ = self.holder_scope(test)
            self.emit({"event": "test_end", "id": selector, "name": test.id(), "status": "skipped", "message": bounded(reason)})
        elif not isinstance(test, self.case._SubTest):
            self.outcome(test).skipped = reason

    def addExpectedFailure(self, test, err):
        self.outcome(test).expected_failure = _exception_line(err)

    def addUnexpectedSuccess(self, test):
        self.outcome(test).unexpected_success = True

    def addSubTest(self, test, subtest, err):
        if err is None:
            return
        described = bounded(subtest._subDescription()) if hasattr(subtest, "_subDescription") else str(subtest)
        entry = (f"{described}: {_exception_line(err)}", err)
        failure = issubclass(err[0], test.failureException)
        (self.outcome(test).failures if failure else self.outcome(test).errors).append(entry)

    def stopTest(self, test):
        outcome = self.outcome(test)
        self.current = None
        if not outcome.counted:
            self.uncounted += 1
        if isinstance(test, self.failed_test):
            return self.load_error(test, outcome)
        file, line = self.where(test)
        record = {
            "event": "test_end", "id": self.test_id(test), "name": test.id(), "file": file, "line": line,
            "duration_ms": round((time.perf_counter() - outcome.started) * 1000, 3),
        }
        problems = outcome.errors or outcome.failures
        if problems:
            record["status"] = "error" if outcome.errors else "failed"
            record["message"] = bounded("\n".join(m for m, _ in outcome.errors + outcome.failures))
            record["location"] = self.failing_place(test, file, problems[0][1])
        elif outcome.unexpected_success:
            record["status"] = "failed"
            record["message"] = "unexpected success: marked expectedFailure, but passed"
        elif outcome.expected_failure is not None:
            record["status"] = "skipped"
            record["message"] = bounded(f"expected failure: {outcome.expected_failure}")
        elif outcome.skipped is not None:
            record["status"] = "skipped"
            record["message"] = bounded(outcome.skipped)
        else:
            record["status"] = "passed"
        self.emit(record)

    def stopTestRun(self):
        self.emit({"event": "run_end", "pid": os.getpid(), "totals": self.totals(), "interrupted": bool(self.result.shouldStop)})
        self.out.close()

    # what the events say

    def totals(self):
        """unittest's own lists, one entry per test: a test with two failing subtests is
        two failures to unittest but one failed test. The fixtures that failed (setUpClass
        …) are errors unittest does not count as tests run; they are counted here, as the
        events report them, and so are the skipped tests Python 3.12.0 and 3.12.1 leave
        out."""
        result = self.result
        key = lambda t: id(self.parent(t))  # noqa: E731
        errors = {key(t) for t, _ in result.errors}
        failed = {key(t) for t, _ in result.failures} | {key(t) for t in result.unexpectedSuccesses}
        skipped = [t for t, _ in result.skipped if not isinstance(t, self.case._SubTest)]
        return {
            "tests": result.testsRun + self.holders + self.uncounted,
            "failed": len(failed - errors),
            "errors": len(errors),
            "skipped": len(skipped) + len(result.expectedFailures),
        }

    def where(self, test):
        """The file and line that define a test: its method, a doctest's docstring."""
        doctest = getattr(test, "_dt_test", None)
        if doctest is not None:
            return doctest.filename, (doctest.lineno + 1 if doctest.lineno is not None else None)
        function = getattr(test, "_testFunc", None) or getattr(test, getattr(test, "_testMethodName", ""), None)
        function = getattr(function, "__func__", function)
        while hasattr(function, "__wrapped__"):
            function = function.__wrapped__
        code = getattr(function, "__code__", None)
        if code is not None:
            return os.path.abspath(code.co_filename), code.co_firstlineno
        module = sys.modules.get(type(test).__module__)
        file = getattr(module, "__file__", None)
        return (os.path.abspath(file) if file else None), None

    def test_id(self, test):
        """`python -m unittest <id>` runs exactly this test when its id names a method of a
        class of its module; otherwise (a doctest) the id is `<module that loaded it>::<id>`,
        and a rerun runs that module."""
        cls = type(test)
        method = getattr(test, "_testMethodName", None)
        module = sys.modules.get(cls.__module__)
        if method and test.id() == f"{cls.__module__}.{cls.__qualname__}.{method}" and _lookup(module, cls.__qualname__) is cls:
            return test.id()
        loader = getattr(test, "_run_tests_module", None)
        return f"{loader}::{test.id()}" if loader else test.id()

    def failing_place(self, test, file, err):
        """The innermost frame in the test's file; for a doctest, the failing example."""
        place = _innermost(err[2], file)
        if place is None and getattr(test, "_dt_test", None) is not None:
            place = _last_frame_in(str(err[1]), file)
        return place

    def load_error(self, test, outcome):
        """A module that failed to import, a load_tests that raised, a name on the
        command line that is not there: unittest's _FailedTest, named by that module or
        name, placed where its traceback last is in the project. An import's traceback
        survives only as text in the message."""
        name = getattr(test, "_run_tests_name", None) or test._testMethodName
        _, err = (outcome.errors or outcome.failures or [(None, None)])[0]
        text = str(err[1]) if err is not None else ""
        file, line, note = load_error_place(name, err)
        lines = [row.strip() for row in text.strip().splitlines() if row.strip()]
        imported = text.startswith(IMPORT_FAILURE) and lines
        message = lines[-1] if imported else (_exception_line(err) if err is not None else "failed to load")
        stack = text if imported or err is None else "".join(traceback.format_exception(*err))
        self.emit({
            "event": "error", "kind": "load", "id": name, "name": f"load error: {name}", "file": file, "line": line,
            "message": bounded(message if note is None else f"{message}\n{note}"), "stack": bounded(stack),
        })

    def holder_error(self, test, err):
        """setUpClass, setUpModule, tearDownClass or tearDownModule raised: unittest
        reports it as `setUpClass (module.Class)` and skips the class's tests."""
        self.holders += 1
        selector, module = self.holder_scope(test)
        file = getattr(sys.modules.get(module), "__file__", None)
        file = os.path.abspath(file) if file else None
        place = _innermost(err[2], file)
        line = place["line"] if place else None
        self.emit({
            "event": "error", "kind": "hook", "id": selector, "name": test.id(), "file": file, "line": line,
            "message": bounded(_exception_line(err)), "stack": bounded("".join(traceback.format_exception(*err))),
        })

    def holder_scope(self, test):
        """`setUpClass (pkg.mod.Class)` -> ("pkg.mod.Class", "pkg.mod"); a module's -> its own."""
        match = re.match(r"^(\w+) \((.+)\)$", test.id())
        if match is None:
            return test.id(), None
        what, scope = match.groups()
        return scope, scope if what.endswith("Module") else scope.rpartition(".")[0]


def _doctest_message(text):
    """doctest's report without its header and rules, paths relative to the project:
    `File "calc.py", line 16, in calc.halve` / `Failed example:` / … / `Got:` / …"""
    blocks = [b.strip("\n") for b in re.split(r"^-{20,}$", text, flags=re.M)]
    examples = [b for b in blocks[1:] if b.strip()] or blocks
    root = os.getcwd() + os.sep
    return "\n".join(examples).replace(f'File "{root}', 'File "')


def _lookup(module, qualname):
    value = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
    return value


def _innermost(tb, file):
    """The innermost frame of a traceback in `file`, as {file, line}, or None."""
    place = None
    while tb is not None:
        if file is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) == file:
            place = {"file": file, "line": tb.tb_lineno}
        tb = tb.tb_next
    return place


def _last_frame_in(text, file):
    place = None
    for match in FRAME.finditer(text):
        if file is not None and os.path.abspath(match.group("file")) == file:
            place = {"file": file, "line": int(match.group("line"))}
    return place
