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

from run_tests_imports import Imports

SKIPPED_DIRS = {"__pycache__", "node_modules", "site-packages", ".git"}
PRELOADED_NAMES = ("sitecustomize.py", "usercustomize.py")


class Graph:
    def __init__(self, root, roots):
        # Real paths: where the interpreter finds a module is given as one.
        self.root = os.path.realpath(root)
        self.roots = sorted({os.path.abspath(r) for r in roots})
        self.parsed = {}
        self.specs = {}
        self.listed = {}
        self.resolved = {}
        self.holders = None

    def inside(self, path):
        return path.startswith(self.root + os.sep)

    def parse(self, path):
        if path not in self.parsed:
            try:
                with open(path, "rb") as f:
                    source = f.read()
                self.parsed[path] = Imports(importlib.util.decode_source(source), ast.parse(source, filename=path))
            except SyntaxError as error:
                self.parsed[path] = f"cannot be parsed ({type(error).__name__}: {error.msg}, line {error.lineno})"
            except (OSError, ValueError) as error:
                self.parsed[path] = f"cannot be parsed ({type(error).__name__}: {error})"
        return self.parsed[path]

    def listing(self, directory):
        """The files and the directories in a directory, each directory listed once."""
        if directory not in self.listed:
            files, dirs = set(), set()
            try:
                with os.scandir(directory) as found:
                    for entry in found:
                        (dirs if entry.is_dir() else files).add(entry.name)
            except OSError:
                pass
            self.listed[directory] = (files, dirs)
        return self.listed[directory]

    def walk(self, start, parts):
        """The files `parts` loads below `start` (a package's __init__.py, before a
        module, before a namespace directory, as Python looks), and the directories it
        names when every part is a package (where `from x import *` looks)."""
        files, here = [], start
        for part in parts:
            names, dirs = self.listing(here)
            package = os.path.join(here, part)
            if part in dirs and "__init__.py" in self.listing(package)[0]:
                files.append(os.path.join(package, "__init__.py"))
            elif part + ".py" in names:
                files.append(package + ".py")
                return files, []
            elif part not in dirs:
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
                origin = os.path.realpath(spec.origin) if spec.origin and spec.has_location else None
                locations = [os.path.realpath(loc) for loc in spec.submodule_search_locations or []]
                if origin and self.inside(origin):
                    found = ([origin], [os.path.dirname(loc) for loc in locations])
                elif any(self.inside(loc) for loc in locations):
                    found = ([], [os.path.dirname(loc) for loc in locations])
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
        """The files `import name` can load, and the package directories it names."""
        key = (name, everywhere)
        if key not in self.resolved:
            parts = [p for p in name.split(".") if p]
            (spec_files, spec_roots), known = self.spec_dirs(parts[0]) if parts else (([], []), True)
            hits = [self.walk(start, parts) for start in self.roots + spec_roots] if parts else []
            if parts and (everywhere or (not known and not any(f or d for f, d in hits))):
                hits += [self.walk(start, parts) for start in self.holding(parts[0])]
            self.resolved[key] = ([file for found, _ in hits for file in found] + spec_files, [d for _, named in hits for d in named])
        return self.resolved[key]

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
    root = os.path.realpath(given["root"])
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
