"""What one module imports, read from its syntax tree (ast) by import_graph.py: each
import statement, literal dynamic imports (importlib.import_module("a"), __import__,
pytest.importorskip, pytest_plugins), whether it changes sys.path, and what makes its
imports unknowable: a name it computes, code it builds (exec), runpy or a file loader,
python started by sys.executable.
"""

import ast

COMPUTED_IMPORTS = {"__import__", "import_module", "importorskip"}
FILE_LOADERS = {"spec_from_file_location", "SourceFileLoader", "SourcelessFileLoader", "load_source", "load_module", "run_path", "run_module"}
SYS_PATH_CHANGES = {"addsitedir", "syspath_prepend"}
# What starts a process: with sys.executable in the same module, python itself, running
# what no import names (`python -m pkg.cli`).
PROCESS_STARTS = {"run", "call", "check_call", "check_output", "Popen", "system", "popen", "getoutput", "getstatusoutput",
                  "execv", "execve", "execl", "execle", "execlp", "execvp", "execvpe", "spawnv", "spawnve", "spawnl", "spawnle",
                  "create_subprocess_exec", "create_subprocess_shell", "spawn", "runpython", "runpython_c", "popen2"}


def literal(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def is_sys(node, attr):
    return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) and node.value.id == "sys"


def call_name(func):
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def shown(source, node):
    text = ast.get_source_segment(source, node) or call_name(getattr(node, "func", node)) or "?"
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


class Imports:
    """A module's imports as (level, dotted name, names imported from it or None), what
    makes them unknowable (`computed`), and whether it changes sys.path."""

    def __init__(self, source, tree):
        self.source = source
        self.found = []
        self.computed = None
        self.changes_sys_path = False
        self.names_python = self.starts_processes = False
        # ast.walk and a dispatch on the node's type: a NodeVisitor's recursion costs
        # twice the parse on a large suite.
        for node in ast.walk(tree):
            read = getattr(self, READERS.get(type(node), ""), None)
            if read is not None:
                read(node)
        if self.names_python and self.starts_processes:
            self.refuse("starts python itself (a name for sys.executable, and a process)")

    def refuse(self, reason):
        if self.computed is None:
            self.computed = reason

    def visit_Import(self, node):
        for alias in node.names:
            self.found.append((0, alias.name, None))
            if alias.name.split(".")[0] == "runpy":
                self.refuse("imports runpy, which runs modules by name or path")

    def visit_ImportFrom(self, node):
        names = [alias.name for alias in node.names]
        self.found.append((node.level, node.module or "", names))
        if node.level == 0 and (node.module or "").split(".")[0] == "runpy":
            self.refuse("imports runpy, which runs modules by name or path")

    def visit_Attribute(self, node):
        if is_sys(node, "path"):
            self.changes_sys_path = True

    def visit_List(self, node):
        """`[sys.executable, "-m", "pkg.cli"]`, `[sys.executable, "-c", "import x"]`: a
        command line for python, whose module or code is imports of this module when
        written out; anything else it runs is not known."""
        at = next((i for i, e in enumerate(node.elts) if is_sys(e, "executable")), None)
        if at is None:
            return
        words = [literal(e) for e in node.elts[at + 1:]]
        while words and words[0] is not None and words[0].startswith("-") and words[0] not in ("-c", "-m"):
            words.pop(0)
        if len(words) >= 2 and words[0] == "-m" and words[1] is not None:
            self.found.append((0, words[1], None))
        elif len(words) >= 2 and words[0] == "-c" and words[1] is not None and self.read_code(words[1]):
            pass
        elif words:
            self.refuse(f"starts python itself ({shown(self.source, node)})")

    def read_code(self, code):
        try:
            inner = Imports(code, ast.parse(code))
        except SyntaxError:
            return False
        self.found.extend((0, name, names) for level, name, names in inner.found if level == 0)
        return inner.computed is None

    def visit_FormattedValue(self, node):
        if is_sys(node.value, "executable"):
            self.refuse(f"starts python itself ({shown(self.source, node.value)} in a command line)")

    def visit_Assign(self, node):
        # `PYTHON = sys.executable`, in a module that starts processes: given to one, likely.
        if is_sys(node.value, "executable") and any(isinstance(t, ast.Name) for t in node.targets):
            self.names_python = True
        if any(isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in node.targets):
            names = [literal(node.value)] if literal(node.value) is not None else None
            if names is None and isinstance(node.value, (ast.List, ast.Tuple)):
                names = [literal(e) for e in node.value.elts]
            if names is None or None in names:
                self.refuse(f"names its pytest_plugins by a computed value ({shown(self.source, node)})")
            else:
                self.found.extend((0, name, None) for name in names)

    def visit_Call(self, node):
        name = call_name(node.func)
        if name in COMPUTED_IMPORTS:
            self.computed_import(node)
        elif name == "exec" and isinstance(node.func, ast.Name):
            self.refuse(f"runs code it builds ({shown(self.source, node)})")
        elif name in FILE_LOADERS:
            self.refuse(f"loads a module by its path or name ({shown(self.source, node)})")
        elif name in SYS_PATH_CHANGES:
            self.changes_sys_path = True
        elif name in PROCESS_STARTS:
            self.starts_processes = True
            if any(is_sys(arg, "executable") for arg in [*node.args, *(k.value for k in node.keywords)]):
                self.refuse(f"starts python itself ({shown(self.source, node)})")

    def computed_import(self, node):
        target = literal(node.args[0]) if node.args else None
        package = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "package"), None)
        if target is not None and not target.startswith("."):
            self.found.append((0, target, None))
        elif target is not None and isinstance(package, ast.Name) and package.id in ("__name__", "__package__"):
            level = len(target) - len(target.lstrip("."))
            self.found.append((level, target[level:], None))
        else:
            self.refuse(f"imports a computed name ({shown(self.source, node)})")


READERS = {ast.Import: "visit_Import", ast.ImportFrom: "visit_ImportFrom", ast.Attribute: "visit_Attribute", ast.Assign: "visit_Assign",
           ast.Call: "visit_Call", ast.List: "visit_List", ast.Tuple: "visit_List", ast.FormattedValue: "visit_FormattedValue"}
