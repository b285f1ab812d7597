"""Where a test module unittest could not load went wrong, for the error event
run_tests_unittest_reporter.py writes: the deepest frame of its traceback inside the
project, which for a module that failed to import is the failing import statement (or the
syntax error), in the test module or in a project module it imports. Frames in the
standard library, in a virtualenv's site-packages and in this hook are not the project's.
"""

import os
import re
import sys
import sysconfig

# `  File "/p/tests/test_x.py", line 3, in <module>`, and a SyntaxError's own
# `  File "/p/tests/test_x.py", line 5`, in a traceback's text.
FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)', re.M)
IMPORT_FAILURE = "Failed to import test module: "
DEPENDENCIES = ("site-packages", "dist-packages")
# The project is the directory unittest starts in (run-tests starts it at the project's
# root), read as the hook is loaded: before a test module could change directory.
ROOT = os.getcwd()
HERE = os.path.dirname(os.path.abspath(__file__))


def load_error_place(name, err):
    """(file, line, note) for unittest's _FailedTest of `name`, err its (type, value,
    traceback): the deepest project frame, else the module's file and no line. The note
    says where the test module imports the project module that raised, when that is not
    the test module itself."""
    text = str(err[1]) if err is not None else ""
    frames = _frames(text, err[2] if err is not None else None)
    inside = [frame for frame in frames if _in_project(frame[0])]
    own = _module_file(name, frames, imported=not text.startswith(IMPORT_FAILURE))
    if not inside:
        return own, None, None
    file, line = inside[-1]
    importing = [at for f, at in inside if f == own]
    note = f"raised in {_shown(file)}:{line}, imported from {_shown(own)}:{importing[-1]}" if file != own and importing else None
    return file, line, note


def _frames(text, tb):
    """(file, line) of each frame, outermost first: those the text of an import failure
    keeps (unittest makes it an ImportError holding the traceback as text), then those of
    the exception's own traceback (load_tests raised, a name not found)."""
    found = [(os.path.abspath(m.group("file")), int(m.group("line"))) for m in FRAME.finditer(text) if not m.group("file").startswith("<")]
    while tb is not None:
        found.append((os.path.abspath(tb.tb_frame.f_code.co_filename), tb.tb_lineno))
        tb = tb.tb_next
    return found


def _in_project(file):
    if not file.startswith(ROOT + os.sep):
        return False
    if any(part in DEPENDENCIES for part in file[len(ROOT) + 1:].split(os.sep)):
        return False
    # A Python or run-tests installed below the project (a project in /root, pyenv in
    # /root/.pyenv) is still not the project's.
    outside = [HERE] + [sysconfig.get_paths().get(key) for key in ("stdlib", "platstdlib")]
    return not any(d and file.startswith(os.path.abspath(d) + os.sep) for d in outside)


def _module_file(name, frames, imported):
    """The file of module `name`. A name that imported but has no such attribute
    (`tests.test_a.Class.test_gone`): the longest imported module it starts with. Else the
    module's own (`pkg/mod.py`, `pkg/mod/__init__.py`) among the frames or where Python
    imports from, never its package's: that is not where the import failed."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1) if imported else ():
        module = sys.modules.get(".".join(parts[:k]))
        if module is not None and getattr(module, "__file__", None):
            return os.path.abspath(module.__file__)
    tails = [os.sep + name.replace(".", os.sep) + end for end in (".py", os.sep + "__init__.py")]
    for file, _ in frames:
        if any(file.endswith(tail) for tail in tails):
            return file
    for directory in sys.path:
        for tail in tails:
            if os.path.isfile(os.path.abspath(directory or os.curdir) + tail):
                return os.path.abspath(directory or os.curdir) + tail
    return None


def _shown(file):
    """A project file as the report shows it: relative to the root, `/`-separated."""
    return os.path.relpath(file, ROOT).replace(os.sep, "/")
