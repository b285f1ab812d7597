"""run-tests' hook into `python -m unittest`, installed by sitecustomize.py when
RUN_TESTS_UNITTEST_EVENTS names the events file: unittest's own TestProgram.runTests,
with the result its runner makes reported by run_tests_unittest_reporter.py, the tests
filtered for `--name`, and each test marked with what loaded it (for reruns).
"""

import os
import re
import sys

from run_tests_unittest_reporter import Reporter

EVENTS_VAR = "RUN_TESTS_UNITTEST_EVENTS"
FILTER_VAR = "RUN_TESTS_UNITTEST_FILTER"

def _forget_injection(here):
    """Tests and the processes they start see the environment the project gives them: a
    nested python neither loads this hook nor writes into our events."""
    for var in (EVENTS_VAR, FILTER_VAR):
        os.environ.pop(var, None)
    kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and os.path.abspath(p) != here]
    if kept:
        os.environ["PYTHONPATH"] = os.pathsep.join(kept)
    else:
        os.environ.pop("PYTHONPATH", None)


def install(here):
    path = os.environ.get(EVENTS_VAR)
    pattern = os.environ.get(FILTER_VAR)
    _forget_injection(here)
    import unittest
    import unittest.runner

    original = unittest.TestProgram.runTests
    state = {"reporter": None}

    def run_tests(program):
        """unittest's own runTests, with the result of its runner reported; a nested
        unittest.main inside a test is left alone."""
        if state["reporter"] is not None:
            return original(program)
        if pattern:
            _keep_matching(program.test, re.compile(pattern))
        make_result = unittest.runner.TextTestRunner._makeResult

        def reporting_result(runner):
            result = make_result(runner)
            if state["reporter"] is None:
                state["reporter"] = False  # tried: once, whatever happens
                try:
                    state["reporter"] = Reporter(path, result)
                except Exception as exc:  # no events: run-tests says so; the run goes on
                    sys.stderr.write(f"run-tests: the unittest reporter could not start: {exc!r}\n")
            return result

        unittest.runner.TextTestRunner._makeResult = reporting_result
        try:
            return original(program)
        finally:
            unittest.runner.TextTestRunner._makeResult = make_result

    unittest.TestProgram.runTests = run_tests
    _mark_loading_modules(unittest.TestLoader)
    _mark_names(unittest.TestLoader)


def _keep_matching(suite, pattern):
    """`--name`: only the tests whose id `re.search`es the pattern, suites kept (so class
    and module fixtures still run around them). unittest's -k filters test methods only,
    never the doctests load_tests adds."""
    kept = []
    for test in suite:
        if hasattr(test, "_tests"):
            _keep_matching(test, pattern)
            kept.append(test)
        elif pattern.search(test.id()):
            kept.append(test)
    suite._tests = kept


def _mark_loading_modules(loader_class):
    """Remembers which test module loaded each test, for a rerun of those a dotted name
    cannot select (a doctest that a module's load_tests adds)."""
    original = loader_class.loadTestsFromModule

    def load(loader, module, *args, **kwargs):
        suite = original(loader, module, *args, **kwargs)
        _mark(suite, getattr(module, "__name__", None))
        return suite

    loader_class.loadTestsFromModule = load


def _mark_names(loader_class):
    """Names each test that stands for a name on the command line unittest could not
    load (`tests.test_x.Class.test_gone`) by that whole name, not its last part."""
    original = loader_class.loadTestsFromName

    def load(loader, name, *args, **kwargs):
        try:
            suite = original(loader, name, *args, **kwargs)
        except Exception as exc:
            tb = _raised_importing(exc, original.__code__)
            if tb is None:
                raise
            suite = _failed_import(loader, name, exc, tb)
        for test in _iterate(suite):
            if type(test).__name__ == "_FailedTest" and not hasattr(test, "_run_tests_name"):
                test._run_tests_name = name
        return suite

    loader_class.loadTestsFromName = load


def _raised_importing(exc, code):
    """The loader's frame (it runs `code`) when a module named on the command line raised
    `exc`, other than ImportError, as the loader imported it: a SyntaxError, a NameError.
    The loader lets it out and the run ends before any test, where discovery reports it
    as a module that failed to import. None otherwise; SkipTest is unittest's to handle."""
    import linecache
    import unittest.case

    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    importing = tb is not None and "__import__(" in linecache.getline(code.co_filename, tb.tb_lineno)
    return tb if importing and not isinstance(exc, unittest.case.SkipTest) else None


def _failed_import(loader, name, exc, tb):
    """The failed test discovery makes of it, with the traceback from the loader's frame
    on (as unittest's own, without this hook's), so that the other names still run."""
    import traceback
    import unittest.loader

    message = f"Failed to import test module: {name}\n{''.join(traceback.format_exception(type(exc), exc, tb))}"
    suite, message = unittest.loader._make_failed_test(name, ImportError(message), loader.suiteClass, message)
    loader.errors.append(message)
    return suite


def _mark(suite, name):
    for test in _iterate(suite):
        if not hasattr(test, "_run_tests_module"):
            try:
                test._run_tests_module = name
            except AttributeError:
                pass


def _iterate(suite):
    try:
        children = list(suite)
    except TypeError:
        return [suite]
    return [test for child in children for test in _iterate(child)] if hasattr(suite, "_tests") else [suite]
