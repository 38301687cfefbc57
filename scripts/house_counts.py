#!/usr/bin/env python3
"""The counts issue 36's "Done when" asks for, drawn from the tree (rerun it for a closing note).

Usage: python3 scripts/house_counts.py [--root DIR]
Prints one line per count. tests/python/test_house_counts.py checks that the counts which must
be zero are (no `_more` product file, no product file over 800 lines); the others have their own
tests (include arrows: test_include_layers.py; raw registry Add(: test_register_op_lint.py;
import circles: test_import_graph.py), whose own code this script runs, so both count alike.

Note [House counts]
~~~~~~~~~~~~~~~~~~~
  - FullyConnected's span: the files of core/op whose code (comments left out) names one of its
    own identifiers (the op name, FCGeom, FCGeometry, FCForward/FCBackward, its GPU kernels,
    WeightLayerGradient), with and without the fused forms (fused/, separate operators).
  - Role suffixes: a file `<stem>_<role>.<ext>` of core/op (`<role>` one word) whose `<stem>` is
    itself the stem of a file in the same folder (convolution_cpu.cc beside convolution.cc; np_pad_rules.h beside
    np_pad.cc) marks that file's role; counted are the distinct roles, which a newcomer must learn.
  - `_more` files: named after when they were written; product (everything but tests/, docs/,
    benchmarks/, examples/) and tests counted apart.
  - Product files over 800 lines: generated code (a "Code generated ... DO NOT EDIT" head, as Go's
    protobuf files have) left out.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

FC_NAMES = re.compile(r'"FullyConnected"|\bFCGeom\b|\bFCGeometry\b|\bFCForward\b|\bFCBackward\b|'
                      r'\bFullyConnectedGpu\b|\bBackwardFullyConnectedGpu\b|\bWeightLayerGradient\b')
CODE_EXTS = (".h", ".cc", ".cu", ".cuh")
NOT_PRODUCT = ("tests/", "docs/", "benchmarks/", "examples/")
# Code of other projects (Go's vendored modules, fetched by scripts/go_vendor.sh and ignored by git).
NOT_OURS = {"vendor", "third_party", "node_modules"}
MAX_LINES = 800


def _load(root, rel, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(root, rel))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def tracked_files(root):
    """The files git tracks under root (outside a checkout, every file but hidden and build folders),
    other projects' vendored code left out."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True, text=True).stdout
        found = [f for f in out.splitlines() if os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, names in os.walk(root):
            dirs[:] = sorted(x for x in dirs if not x.startswith((".", "build")) and x != "__pycache__")
            found += [os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/") for n in sorted(names)]
    return [f for f in found if not NOT_OURS.intersection(f.split("/")[:-1])]


def fc_span(root):
    """Files of core/op naming FullyConnected's identifiers (Note [House counts])."""
    found = []
    for path in sorted(Path(root, "core", "op").rglob("*")):
        if path.suffix in CODE_EXTS and FC_NAMES.search(_strip_comments(path.read_text(errors="replace"))):
            found.append(path.relative_to(root).as_posix())
    return found


def role_suffixes(root):
    """{role: number of files} over core/op (Note [House counts])."""
    roles = {}
    for folder in sorted(Path(root, "core", "op").rglob("*")):
        if not folder.is_dir():
            continue
        stems = {p.name.split(".", 1)[0] for p in folder.iterdir() if p.is_file()}
        for stem in stems:
            base, _, role = stem.rpartition("_")
            if base in stems:
                roles["_" + role] = roles.get("_" + role, 0) + 1
    return roles


def more_files(files):
    named = [f for f in files if "_more" in os.path.basename(f)]
    return [f for f in named if not f.startswith(NOT_PRODUCT)], [f for f in named if f.startswith(NOT_PRODUCT)]


def long_product_files(root, files):
    """(lines, file) of product files over MAX_LINES lines, generated code left out."""
    out = []
    for f in files:
        if f.startswith(NOT_PRODUCT) or f.endswith((".md", ".txt", ".json")):
            continue
        try:
            text = Path(root, f).read_text()
        except UnicodeDecodeError:
            continue  # binary
        n = text.count("\n")
        if n > MAX_LINES and not re.search(r"Code generated .* DO NOT EDIT", text[:2000]):
            out.append((n, f))
    return sorted(out, reverse=True)


def back_includes(root):
    return sorted(_load(root, "tests/python/test_include_layers.py", "_weft_include_layers").back_includes())


def raw_registry_adds(root):
    lint = _load(root, "tests/python/test_register_op_lint.py", "_weft_register_lint")
    hits = []
    for tree in lint.TREES:
        for path in sorted(Path(root, tree).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.suffix in (".h", ".cc", ".cu", ".cuh", ".cpp", ".c") and rel not in lint.REGISTRY:
                hits += [rel for _ in lint.offences(path.read_text(errors="replace"))]
    return hits


def import_graph(root):
    graph = _load(root, "scripts/import_graph.py", "_weft_import_graph")
    _, edges, inner = graph.build_graph(os.path.join(root, "bindings", "python", "weft"))
    return graph.find_cycles(edges), inner


def _folders(files):
    return sorted({os.path.dirname(f)[len("core/op/"):] for f in files})


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    root = ap.parse_args(argv).root
    files = tracked_files(root)
    span = fc_span(root)
    unfused = [f for f in span if not f.startswith("core/op/fused/")]
    print("FullyConnected spans %d files in %d folder(s) (%s); without the fused forms %d files in %d folder(s) (%s)"
          % (len(span), len(_folders(span)), ", ".join(_folders(span)), len(unfused), len(_folders(unfused)),
             ", ".join(_folders(unfused))))
    roles = role_suffixes(root)
    print("role suffixes in core/op: %d (%s)" % (len(roles), " ".join(
        "%s(%d)" % (r, n) for r, n in sorted(roles.items(), key=lambda kv: (-kv[1], kv[0])))))
    product, tests = more_files(files)
    print("_more files: %d in the product%s, %d in tests/" % (
        len(product), (" (" + ", ".join(product) + ")") if product else "", len(tests)))
    back = back_includes(root)
    print("include arrows running back up in core/: %d%s" % (len(back), "".join("\n  %s -> %s" % b for b in back)))
    adds = raw_registry_adds(root)
    print("raw registry Add( calls: %d in %d files" % (len(adds), len(set(adds))))
    cycles, inner = import_graph(root)
    print("Python import circles: %d; imports inside functions: %d in %d files" % (
        len(cycles), len(inner), len({m for m, _, _ in inner})))
    long_files = long_product_files(root, files)
    print("product files over %d lines: %d%s" % (MAX_LINES, len(long_files),
                                                "".join("\n  %d %s" % lf for lf in long_files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
