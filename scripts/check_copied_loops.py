#!/usr/bin/env python3
"""Fails on a GPU kernel body that copies its family's CPU code (issue 36
point 3: "an operator is a unit of files").

Note [No copied CPU/GPU loops]
A kernel's arithmetic is written once, as WEFT_HD functions in the op's rules
header, and run by the CPU loop over threads and by the GPU kernel once per
index (docs/ARCHITECTURE.md, "How to add an operator" step 3). A GPU body that
calls its rule is a line or two; one that spells out the loop again is a copy
that drifts (the optimizer updates, cumsum, moments, softmax, the
normalisations and NumPy where each had one). This check reads every kernel
body of core/op/<family>/*.cu -- a lambda handed to a launch (`[=] WEFT_HD
(...) {`) or a `__global__` function -- and flags one of MIN_LINES or more
whose lines, white space folded and comments dropped, mostly (half or more,
and at least three) stand verbatim in a .cc or .h file of the same family.
It reads text only (no build), so it runs in a second.

Usage: check_copied_loops.py [--root DIR]
Prints each copied body as file:line and exits 1 when there is one, else 0.
"""
import argparse
import os
import re
import sys

MIN_LINES = 4
_TRIVIAL = re.compile(r"^[{}();,\s]*$|^\} *// namespace")
_BODY_START = re.compile(r"\[=\]\s*(?:WEFT_HD|__device__)[^{]*\{|__global__[^{;]*\{")


def _strip_comments(text):
    return re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def _norm(line):
    return re.sub(r"\s+", " ", re.sub(r"//.*", "", line).strip())


def kernel_bodies(text):
    """(first line number, normalized non-trivial lines) of each kernel body."""
    text = _strip_comments(text)
    for m in _BODY_START.finditer(text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        lines = [_norm(l) for l in text[m.end():i - 1].split("\n")]
        yield text.count("\n", 0, m.start()) + 1, [l for l in lines if l and not _TRIVIAL.match(l)]


def copied_bodies(op_root):
    """[(path, line, body lines, lines found in the family's host files)] of the copies."""
    found = []
    for family in sorted(os.listdir(op_root)):
        folder = os.path.join(op_root, family)
        if not os.path.isdir(folder):
            continue
        names = sorted(os.listdir(folder))
        host = set()
        for name in names:
            if name.endswith((".cc", ".h")):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    host.update(_norm(l) for l in _strip_comments(f.read()).split("\n"))
        for name in names:
            if not name.endswith(".cu"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for line, body in kernel_bodies(text):
                if len(body) < MIN_LINES:
                    continue
                shared = sum(1 for l in body if l in host)
                if shared >= 3 and 2 * shared >= len(body):
                    found.append((path, line, len(body), shared))
    return found


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
    args = ap.parse_args(argv)
    found = copied_bodies(os.path.join(args.root, "core", "op"))
    for path, line, n, shared in found:
        print("%s:%d: GPU kernel body of %d lines, %d of them copied from the family's CPU code: move the "
              "arithmetic into the op's rules header as WEFT_HD functions both kernels call "
              "(Note [No copied CPU/GPU loops])" % (os.path.relpath(path, args.root), line, n, shared))
    print("check_copied_loops.py: %d copied GPU kernel bodies" % len(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
