"""The test files `python -m unittest ARGS` would run, as unittest's own loader finds
them: for each argument list in the JSON array given as argv[1], unittest.TestProgram
parses it (discovery with its start directory, pattern and top-level directory, or
names) and builds the suite without running it, while the loader notes each module that
gave tests, failed to import, or skipped itself. Written to RUN_TESTS_UNITS_OUT as
{"files": [...]} for run-tests --shard, or {"refused": why} where a module's load_tests
decides what runs (its tests may come from anywhere).
"""

import json
import os
import sys
import unittest
import unittest.loader

# As `python -m unittest`: the current directory first on sys.path.
sys.path[0] = os.getcwd()


class Refused(Exception):
    pass


files = set()
Loader = unittest.loader.TestLoader
from_module, find_test_path, from_name = Loader.loadTestsFromModule, Loader._find_test_path, Loader.loadTestsFromName


def noting_module(self, module, *args, **kwargs):
    if getattr(module, "load_tests", None) is not None:
        raise Refused(f"{getattr(module, '__file__', module.__name__)} defines load_tests, which decides itself which tests run")
    suite = from_module(self, module, *args, **kwargs)
    if suite.countTestCases() > 0 and getattr(module, "__file__", None):
        files.add(os.path.abspath(module.__file__))
    return suite


def noting_path(self, full_path, pattern):
    """Discovery's one file: a module that failed to import or skipped itself is its file."""
    tests, recurse = find_test_path(self, full_path, pattern)
    if tests is not None and tests.countTestCases() > 0:
        if not os.path.isfile(full_path):
            raise Refused(f"the package {full_path} itself gives tests or failed to import")
        if any(type(test).__name__ == "ModuleSkipped" for test in tests):
            # Only discovery catches it: `python -m unittest <name>` ends on it.
            raise Refused(f"{full_path} raises SkipTest as it is imported, which unittest cannot run by name")
        files.add(os.path.abspath(full_path))
    return tests, recurse


def noting_name(self, name, module=None):
    """A name on the command line that failed to import: the file it names, found on sys.path."""
    before = len(files)
    suite = from_name(self, name, module)
    if module is None and len(files) == before and suite.countTestCases() > 0:
        relative = name.replace(".", os.sep)
        found = [p for d in sys.path for p in (os.path.join(d or os.getcwd(), relative + ".py"),) if os.path.isfile(p)]
        if not found:
            raise Refused(f"unittest's tests for {name} come from no file run-tests can name")
        files.add(os.path.abspath(found[0]))
    return suite


class Listing(unittest.TestProgram):
    def runTests(self):
        pass


def main():
    Loader.loadTestsFromModule, Loader._find_test_path, Loader.loadTestsFromName = noting_module, noting_path, noting_name
    try:
        for args in json.loads(sys.argv[1]):
            Listing(module=None, argv=["python -m unittest", *args], exit=False)
        answer = {"files": sorted(files)}
    except Refused as why:
        answer = {"refused": str(why)}
    with open(os.environ["RUN_TESTS_UNITS_OUT"], "w", encoding="utf-8") as out:
        json.dump(answer, out)


main()
