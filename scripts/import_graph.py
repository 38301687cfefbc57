#!/usr/bin/env python3
"""The import graph of a Python package, drawn from its source with `ast`, and its cycles.

Usage: python3 scripts/import_graph.py [PACKAGE_DIR]   (default: bindings/python/weft)
prints every cycle (strongly connected component of more than one module) and every import
written inside a function; exits 1 when there is a cycle. tests/python/test_import_graph.py
runs it in CI.

Note [Import graph]
~~~~~~~~~~~~~~~~~~~
A node is a module of the package; a package is its `__init__.py`. There is an edge A -> B when
A imports B anywhere in its text: at module level, inside a function, or under `if` / `try` --
an import moved into a function still makes the two modules depend on each other, it only hides
the circle from the interpreter, so it counts. `import pkg.mod` and `from pkg import mod` (a
submodule) are an edge to `pkg.mod` alone: Python runs `pkg/__init__.py` first, but following
that implicit step would make every package whose `__init__` re-exports its children a circle
with each child (import-linter's grimp draws the same graph). `from pkg import name`, where
`name` is not a submodule, is an edge to `pkg` itself -- so a child that takes a name from its
own package's `__init__` while that `__init__` imports the child is a circle, as it should be.
Modules generated at install time (GENERATED) are leaves outside the graph.

Imports inside functions are listed apart: the only ones we keep load an optional or heavy
dependency lazily (cv2, scipy, ...), or run something at call time on purpose, and each says so
in a comment. The cycle check does not care about them being in functions; the count is a
measure of how much the code hides its dependencies.
"""
import ast
import os
import sys


def _module_name(root, path):
    """Dotted name of the file `path` inside the package directory `root`."""
    rel = os.path.relpath(path, os.path.dirname(root))
    parts = rel[:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def collect_modules(root):
    """{dotted module name: file path} for every .py file under the package directory root."""
    mods = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        if "__init__.py" not in filenames:
            dirnames[:] = []
            continue
        for fn in sorted(filenames):
            if fn.endswith(".py"):
                path = os.path.join(dirpath, fn)
                mods[_module_name(root, path)] = path
    return mods


def _resolve_base(module, is_package, level, target):
    """Absolute dotted name that `from <level dots><target> import ...` names inside module."""
    if level == 0:
        return target
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[:len(parts) - (level - 1)]
    base = ".".join(parts)
    return base + "." + target if target else base


class _ImportVisitor(ast.NodeVisitor):
    """Records (imported absolute name, line, inside_function) for every import statement."""

    def __init__(self, module, is_package):
        self.module = module
        self.is_package = is_package
        self.found = []
        self._depth = 0

    def _in_function(self, node):
        self._depth += 1
        self.generic_visit(node)
        self._depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _in_function

    def visit_Import(self, node):
        for alias in node.names:
            self.found.append(([alias.name], node.lineno, self._depth > 0))

    def visit_ImportFrom(self, node):
        base = _resolve_base(self.module, self.is_package, node.level, node.module or "")
        # Each name may be a submodule (`from . import autograd`) or an attribute of base.
        names = [base + "." + a.name for a in node.names if a.name != "*"]
        self.found.append(([base] + names, node.lineno, self._depth > 0))


# Modules the package builds at install time (no .py file in the source tree): importing one
# is an edge to that leaf, not to the package that holds it.
GENERATED = ("weft._weft_ffi",)


def build_graph(root, generated=GENERATED):
    """Import graph of the package at directory root.

    Returns (modules, edges, inner) where edges is {module: {imported module: first line}}
    and inner is a list of (module, line, imported names) for imports inside functions.
    """
    mods = collect_modules(root)
    edges = {m: {} for m in mods}
    inner = []
    for mod, path in mods.items():
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), filename=path)
        v = _ImportVisitor(mod, path.endswith("__init__.py"))
        v.visit(tree)
        for names, line, in_func in v.found:
            hit = _targets(names, mods, generated)
            for t in hit:
                if t != mod and t not in generated:
                    edges[mod].setdefault(t, line)
            if in_func:
                inner.append((mod, line, names[0]))
    return mods, edges, inner


def _targets(names, mods, generated=()):
    """Modules of the package that an import statement's candidate names reach.

    names[0] is the statement's base; for `from base import a, b` the others are base.a,
    base.b. A candidate that is a module is an edge; `from base import attr` of a non-module
    is an edge to base itself; `import a.b.c` reaches the deepest module in the package."""
    base, rest = names[0], names[1:]
    out = set()
    if not rest:  # `import x.y.z`
        parts = base.split(".")
        for i in range(len(parts), 0, -1):
            cand = ".".join(parts[:i])
            if cand in mods:
                out.add(cand)
                break
        return out
    attr_of_base = False
    for n in rest:
        if n in mods or n in generated:
            out.add(n)
        else:
            attr_of_base = True
    if attr_of_base:
        parts = base.split(".")
        for i in range(len(parts), 0, -1):
            cand = ".".join(parts[:i])
            if cand in mods:
                out.add(cand)
                break
    return out


def find_cycles(edges):
    """Strongly connected components with more than one module (Tarjan, iterative), each
    sorted, the list sorted by size then name."""
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in edges:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    sccs.append(sorted(comp))
    return sorted(sccs, key=lambda c: (-len(c), c))


def cycle_path(comp, edges):
    """One closed path through the component, for the message: shortest cycle through its
    first module (breadth-first inside the component)."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt in sorted(edges[node]):
                if nxt == start:
                    path = [node]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return list(reversed(path)) + [start]
                if nxt in members and nxt not in prev:
                    prev[nxt] = node
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return comp


def describe(root):
    """(cycles, report text, inner imports) for the package at root."""
    _, edges, inner = build_graph(root)
    cycles = find_cycles(edges)
    lines = []
    for comp in cycles:
        path = cycle_path(comp, edges)
        steps = " -> ".join("%s(:%d)" % (a, edges[a][b]) for a, b in zip(path, path[1:]))
        lines.append("cycle of %d modules: %s\n  e.g. %s -> %s" % (len(comp), ", ".join(comp),
                                                                   steps, path[-1]))
    files = sorted({m for m, _, _ in inner})
    lines.append("%d cycle(s); %d import(s) inside functions in %d file(s)"
                 % (len(cycles), len(inner), len(files)))
    return cycles, "\n".join(lines), inner


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    args = [a for a in argv[1:] if a != "-v"]
    root = args[0] if args else os.path.join(here, os.pardir, "bindings", "python", "weft")
    cycles, text, inner = describe(os.path.normpath(root))
    if "-v" in argv:
        for mod, line, name in inner:
            print("inner import %s:%d %s" % (mod, line, name))
    print(text)
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
