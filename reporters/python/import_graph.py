"""The import graph of a project's test modules, read with Python's own parser (ast),
never by importing them: for `run-tests plan` and `--changed` (pytest and unittest).

argv[1] names a JSON file: {"root", "roots", "entries", "parse", "plugins",
"entry_points"}: the project root; the directories absolute imports are resolved
against; the files the graph starts from (test files, conftest.py files); files to parse
only to see that they do (the changed ones); module names loaded before every test
(pytest's -p); entry-point groups whose modules are too (pytest11). Prints one JSON
document: {"modules": {file: [files it imports]}, "problems": [{"file", "reason"}],
"preloaded": [{"file", "why"}]}, files relative to the root. A problem is a module
whose imports cannot be known: it does not parse, or imports a name it computes.

An import is every file it can load: each root that holds the name (and where the
project's python finds it, when that is in the project: an editable install), the
packages' __init__.py on the way, `from a import b` as the submodule a.b too. Where a
module changes sys.path, or a name is found nowhere, every directory of the project
holding that name is a root too. Wider than Python resolves it, never narrower.
"""

import ast
import importlib.util
import json
import os
import sys

SKIPPED_DIRS = {"__pycache__", "node_modules", "site-packages", ".git"}
PRELOADED_NAMES = ("sitecustomize.py", "usercustomize.py")
COMPUTED_IMPORTS = {"__import__", "import_module", "importorskip"}
FILE_LOADERS = {"spec_from_file_location", "SourceFileLoader", "SourcelessFileLoader", "load_source", "load_module", "run_path", "run_module"}
SYS_PATH_CHANGES = {"addsitedir", "syspath_prepend"}


def literal(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def call_name(func):
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def shown(source, node):
    text = ast.get_source_segment(source, node) or call_name(getattr(node, "func", node)) or "?"
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


class Imports(ast.NodeVisitor):
    """A module's imports as (level, dotted name, names imported from it or None)."""

    def __init__(self, source):
        self.source = source
        self.found = []
        self.computed = None
        self.changes_sys_path = False

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
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "sys":
            if node.attr == "path":
                self.changes_sys_path = True
            elif node.attr == "executable":
                self.refuse(f"starts python itself ({shown(self.source, node)})")
        self.generic_visit(node)

    def visit_Assign(self, node):
        if any(isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in node.targets):
            names = [literal(node.value)] if literal(node.value) is not None else None
            if names is None and isinstance(node.value, (ast.List, ast.Tuple)):
                names = [literal(e) for e in node.value.elts]
            if names is None or None in names:
                self.refuse(f"names its pytest_plugins by a computed value ({shown(self.source, node)})")
            else:
                self.found.extend((0, name, None) for name in names)
        self.generic_visit(node)

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
        self.generic_visit(node)

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


class Graph:
    def __init__(self, root, roots):
        self.root = os.path.abspath(root)
        self.roots = sorted({os.path.abspath(r) for r in roots})
        self.parsed = {}
        self.specs = {}
        self.holders = None

    def inside(self, path):
        return path.startswith(self.root + os.sep)

    def parse(self, path):
        if path not in self.parsed:
            try:
                with open(path, "rb") as f:
                    source = f.read()
                tree = ast.parse(source, filename=path)
                visitor = Imports(source.decode("utf-8", "replace"))
                visitor.visit(tree)
                self.parsed[path] = visitor
            except SyntaxError as error:
                self.parsed[path] = f"cannot be parsed ({type(error).__name__}: {error.msg}, line {error.lineno})"
            except (OSError, ValueError) as error:
                self.parsed[path] = f"cannot be parsed ({type(error).__name__}: {error})"
        return self.parsed[path]

    def walk(self, start, parts):
        """The files `parts` loads below `start`, and the directories it names when
        every part is a package (where `from x import *` looks)."""
        files, here = [], start
        for part in parts:
            package = os.path.join(here, part)
            if os.path.isfile(os.path.join(package, "__init__.py")):
                files.append(os.path.join(package, "__init__.py"))
            elif os.path.isfile(package + ".py"):
                files.append(package + ".py")
                return files, []
            elif not os.path.isdir(package):
                return files, []
            here = package
        return files, [here]

    def spec_dirs(self, top):
        """Where the project's python finds a top-level name, when in the project: the
        module's file, or the directories holding it (as roots)."""
        if top not in self.specs:
            found = ([], [])
            try:
                spec = importlib.util.find_spec(top)
            except Exception:
                spec = None
            if spec is not None:
                origin = spec.origin if spec.has_location else None
                locations = list(spec.submodule_search_locations or [])
                if origin and self.inside(os.path.abspath(origin)):
                    found = ([os.path.abspath(origin)], [os.path.dirname(os.path.abspath(loc)) for loc in locations])
                elif any(self.inside(os.path.abspath(loc)) for loc in locations):
                    found = ([], [os.path.dirname(os.path.abspath(loc)) for loc in locations])
            self.specs[top] = (found, spec is not None)
        return self.specs[top]

    def holding(self, top):
        """Every directory of the project holding `top` (a module or a directory)."""
        if self.holders is None:
            self.holders = {}
            for here, dirs, files in os.walk(self.root):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS and not os.path.isfile(os.path.join(here, d, "pyvenv.cfg"))]
                for name in dirs + [f[:-3] for f in files if f.endswith(".py")]:
                    self.holders.setdefault(name, set()).add(here)
        return sorted(self.holders.get(top, ()))

    def absolute(self, name, everywhere):
        parts = [p for p in name.split(".") if p]
        if not parts:
            return [], []
        files, dirs = [], []
        (spec_files, spec_roots), known = self.spec_dirs(parts[0])
        starts = list(self.roots) + spec_roots
        hits = [self.walk(start, parts) for start in starts]
        if everywhere or (not known and not any(f or d for f, d in hits)):
            hits += [self.walk(start, parts) for start in self.holding(parts[0])]
        for f, d in hits:
            files += f
            dirs += d
        return files + spec_files, dirs

    def imports_of(self, path, visitor, everywhere):
        found = []
        for level, name, names in visitor.found:
            if level == 0:
                files, dirs = self.absolute(name, everywhere)
                resolve = lambda sub: self.absolute(f"{name}.{sub}", everywhere)[0]
            else:
                base = os.path.dirname(path)
                for _ in range(level - 1):
                    base = os.path.dirname(base)
                init = os.path.join(base, "__init__.py")
                files, dirs = self.walk(base, name.split(".") if name else [])
                files = ([init] if os.path.isfile(init) else []) + files
                resolve = lambda sub, base=base, name=name: self.walk(base, [*(name.split(".") if name else []), sub])[0]
            found += files
            for sub in names or []:
                found += [m for d in dirs for m in modules_in(d)] if sub == "*" else resolve(sub)
        return [f for f in found if self.inside(f) and f != path]

    def build(self, entries, everywhere):
        """Every module the entries reach, with the files each imports."""
        modules, queue, entries = {}, list(entries), set(entries)
        while queue:
            path = queue.pop()
            if path in modules:
                continue
            visitor = self.parse(path)
            deps = package_chain(path) if path in entries else []
            if not isinstance(visitor, str):
                deps += self.imports_of(path, visitor, everywhere)
            modules[path] = sorted(set(deps))
            queue += [d for d in modules[path] if d not in modules]
        return modules


def package_chain(path):
    """The __init__.py of each package a module is imported inside of."""
    chain, here = [], os.path.dirname(path)
    while os.path.isfile(os.path.join(here, "__init__.py")) and os.path.dirname(here) != here:
        chain.append(os.path.join(here, "__init__.py"))
        here = os.path.dirname(here)
    return [c for c in chain if c != path]


def basedir(path):
    """The directory pytest's rootdir-based import mode puts on sys.path for a module."""
    here = os.path.dirname(path)
    while os.path.isfile(os.path.join(here, "__init__.py")) and os.path.dirname(here) != here:
        here = os.path.dirname(here)
    return here


def modules_in(directory):
    names = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
    return [os.path.join(directory, n, "__init__.py") if os.path.isdir(os.path.join(directory, n)) else os.path.join(directory, n)
            for n in names if n.endswith(".py") or os.path.isfile(os.path.join(directory, n, "__init__.py"))]


def entry_point_modules(groups):
    if not groups:
        return []
    import importlib.metadata

    found = importlib.metadata.entry_points()
    points = [p for g in groups for p in (found.select(group=g) if hasattr(found, "select") else found.get(g, []))]
    return sorted({(p.value.split(":")[0].strip(), f"an entry point of group {p.group} ({p.name})") for p in points})


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        given = json.load(f)
    # The project's python as it starts, without this script's directory: where it
    # finds a name outside the given roots (site-packages, an editable install).
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != here]
    root = os.path.abspath(given["root"])
    entries = [os.path.abspath(os.path.join(root, e)) for e in given["entries"]]
    graph = Graph(root, [os.path.join(root, r) for r in given["roots"]] + [basedir(e) for e in entries])
    named = [(name, f"the pytest plugin -p {name}") for name in given.get("plugins", [])] + entry_point_modules(given.get("entry_points", []))
    preloaded = {}
    for name, why in named:
        for f in graph.absolute(name, False)[0]:
            preloaded.setdefault(f, why)
    for r in graph.roots:
        for name in PRELOADED_NAMES:
            if os.path.isfile(os.path.join(r, name)) and graph.inside(os.path.join(r, name)):
                preloaded.setdefault(os.path.join(r, name), f"Python imports {name} as it starts")
    starts = sorted(set(entries) | set(preloaded))
    modules = graph.build(starts, False)
    if any(not isinstance(graph.parsed[m], str) and graph.parsed[m].changes_sys_path for m in modules):
        modules = graph.build(starts, True)
    problems = [(m, v if isinstance(v, str) else v.computed) for m in modules for v in (graph.parsed[m],) if isinstance(v, str) or v.computed]
    for extra in given.get("parse", []):
        path = os.path.abspath(os.path.join(root, extra))
        if path not in modules and isinstance(graph.parse(path), str):
            problems.append((path, graph.parsed[path]))
    rel = lambda p: os.path.relpath(p, root).replace(os.sep, "/")
    json.dump({
        "modules": {rel(m): [rel(d) for d in deps] for m, deps in sorted(modules.items())},
        "problems": [{"file": rel(p), "reason": r} for p, r in sorted(problems)],
        "preloaded": [{"file": rel(p), "why": w} for p, w in sorted(preloaded.items())],
    }, sys.stdout)


main()
