#!/usr/bin/env python3
"""Fails on a dead project #include in core/ (issue 36 point 3): an
`#include "core/..."` that include-what-you-use (Debian's iwyu) says the file
uses nothing from.

Note [Only dead project includes]
iwyu reports two things: includes to remove and includes to add. Only the
first is checked, and only for the project's own headers (quoted includes):
a dead `#include "core/op/dense/dot_cpu.h"` draws a false edge between two
op families and costs every build a parse, while the "add" suggestions (and
the removal of a <vector> the associated header already brings) are churn
with no edge behind them. iwyu sees every file as the CPU build compiles it
(a .cu file as C++, as the host emulation does); a header only some other
build needs keeps its line with `// IWYU pragma: keep` and says why.

Note [Dead-include baseline]
A folder can be checked before its dead includes are all removed: the known
ones are listed in the baseline (--baseline, scripts/include_baseline.txt;
"file: header", one a line, written by --write-baseline) and removed a few at
a time (each removal needs the file's direct includes checked by a build).
The check fails on a dead include not in the list, and on a listed one that
is gone (delete its line), so the list only shrinks. It holds 10 today: five
in headers that 40 to 600 files include, and five whose includers use what the
dead include brings (the file's head says which).

Note [All of core/ in CI]
With no PATH the check runs over all of core/ (ALL). It first held only the
folders whose dead includes were gone (dense/, detect/, optim/); over the
rest, 81 were removed folder by folder (10 of them replaced by the narrower
header the file does use: graph.h for grad_builder.h, params.h for op_def.h),
each changed file and every includer of a changed header compiled alone with
`g++ -fsyntax-only` (the unity build and the precompiled header would hide a
missing include), and 11 are in the baseline. Cost: iwyu parses each file with its headers, ~0.8 CPU-s a
file, 614 files: ~8 CPU-min, run --jobs (default: every core) at once, so
~4 min of CI's 2 cores, against ~30 min for the whole of .ci/run. That is
paid in full rather than checking only the files changed since a recorded
commit: a dead include appears in a file nobody touched when a header it
includes stops declaring what the file used (or starts reaching it through
another header), so a changed-files check would need the reverse include
closure of every changed header, close to all of core/ for any change below
core/op, and a fresh CI clone has no cache of earlier runs to reuse.
`--write-baseline core` records dead includes instead of failing on them
(Note [Dead-include baseline]), for a large change that cannot remove them
at once.

Usage: check_includes.py [--root DIR] [--jobs N] [--baseline FILE] [PATH ...]
PATHs (files or folders under the root) default to all of core/. Exit 0 when every
dead include found is in the baseline, 1 otherwise (each printed as
file:line), 2 when iwyu is missing or fails to parse a file.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

SOURCE_EXTS = (".cc", ".cu", ".h", ".cuh")
HERE = os.path.dirname(os.path.abspath(__file__))
MAPPING = os.path.join(HERE, "iwyu.imp")
# The CPU build's defines (CMakeLists.txt, weft_objs): what iwyu must see to
# parse every file as the library compiles it.
DEFINES = ["-DWEFT_BUILDING_LIB=1", "-DWEFT_USE_DNNL=1", '-DWEFT_VERSION_STRING="0"']

# core/gpu/*_cuda.cc talk to the CUDA runtime and are compiled only in the
# CUDA build (CMakeLists.txt filters them out of the CPU one), which iwyu
# cannot parse without CUDA's headers: not checked.
CUDA_ONLY = re.compile(r"(^|/)core/gpu/[a-z_]*_cuda\.cc$")

# Note [All of core/ in CI].
ALL = ["core"]

REMOVE_HEAD = re.compile(r"^(\S+) should remove these lines:$")
REMOVE_LINE = re.compile(r'^- #include "([^"]+)"\s+// lines (\d+)-\d+$')


def iwyu_command(root, path):
    lang = "c++-header" if path.endswith((".h", ".cuh")) else "c++"
    return (["include-what-you-use", "-x", lang, "-std=gnu++17", "-Wno-pragma-once-outside-header"] + DEFINES +
            ["-I" + root, "-I" + os.path.join(root, "capi", "include"), "-isystem", "/usr/include/mit-krb5",
             "-Xiwyu", "--no_fwd_decls", "-Xiwyu", "--mapping_file=" + MAPPING, path])


def dead_includes(iwyu_output):
    """(file, line, header) for each quoted include iwyu says to remove."""
    found = []
    current = None
    for line in iwyu_output.splitlines():
        head = REMOVE_HEAD.match(line)
        if head:
            current = head.group(1)
            continue
        if not line.strip():
            current = None
            continue
        if current is not None:
            m = REMOVE_LINE.match(line)
            if m:
                found.append((current, int(m.group(2)), m.group(1)))
    return found


def parse_errors(iwyu_output):
    return [line for line in iwyu_output.splitlines() if re.search(r"\berror: ", line)]


BASELINE_HEAD = ("# Dead project includes known when scripts/check_includes.py came in (Note [Dead-include\n"
                 "# baseline]): 'file: header'. Remove them; never add a line.\n")


def read_baseline(path, files):
    """The (file, header) pairs of the baseline whose file is among those checked."""
    if not path or not os.path.exists(path):
        return set()
    checked = set(files)
    for f in files:  # the associated headers iwyu reports on with their source
        stem, ext = os.path.splitext(f)
        if ext in (".cc", ".cu"):
            checked.update((stem + ".h", stem + ".cuh"))
    out = set()
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            f, _, header = line.partition(": ")
            if f in checked:
                out.add((f, header))
    return out


def run_one(root, path):
    proc = subprocess.run(iwyu_command(root, path), cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, check=False)
    return path, proc.stdout


def has_source(root, header):
    """True when header has an associated .cc/.cu beside it: iwyu reports on
    the header while it checks that source, so it is not run twice."""
    stem = os.path.splitext(os.path.join(root, header))[0]
    return any(os.path.exists(stem + ext) for ext in (".cc", ".cu"))


def sources(root, paths):
    out = []
    for p in paths:
        full = os.path.join(root, p)
        if not os.path.exists(full):
            raise SystemExit("check_includes.py: no such file or folder under %s: %s" % (root, p))
        if os.path.isfile(full):
            out.append(p)
            continue
        for dirpath, _, names in os.walk(full):
            for n in names:
                rel = os.path.relpath(os.path.join(dirpath, n), root)
                if n.endswith(SOURCE_EXTS) and not (n.endswith((".h", ".cuh")) and has_source(root, rel)) \
                        and not CUDA_ONLY.search(rel):
                    out.append(rel)
    return sorted(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(HERE), help="the checkout (default: this script's)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--baseline", default=os.path.join(HERE, "include_baseline.txt"),
                    help="known dead includes, 'file: header' a line (Note [Dead-include baseline]); '' for none")
    ap.add_argument("--write-baseline", action="store_true", help="write the dead includes found to --baseline")
    ap.add_argument("paths", nargs="*", default=ALL)
    args = ap.parse_args(argv)
    if shutil.which("include-what-you-use") is None:
        print("check_includes.py: include-what-you-use is not installed (scripts/setup.sh installs Debian's iwyu)",
              file=sys.stderr)
        return 2
    root = os.path.abspath(args.root)
    files = sources(root, args.paths)
    dead = set()
    broken = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for path, output in pool.map(lambda f: run_one(root, f), files):
            errors = parse_errors(output)
            if errors:
                broken.append((path, errors))
            for f, line, header in dead_includes(output):
                dead.add((os.path.relpath(os.path.join(root, f), root), line, header))
    for path, errors in broken:
        print("check_includes.py: iwyu could not parse %s:\n  %s" % (path, "\n  ".join(errors[:5])), file=sys.stderr)
    if args.write_baseline:
        with open(args.baseline, "w") as fh:
            fh.write(BASELINE_HEAD)
            fh.writelines("%s: %s\n" % key for key in sorted({(f, h) for f, _, h in dead}))
    known = read_baseline(args.baseline, files)
    new = sorted(d for d in dead if (d[0], d[2]) not in known)
    gone = sorted(known - {(f, h) for f, _, h in dead})
    for f, line, header in new:
        print('%s:%d: dead include "%s" (nothing of it is used here): remove it' % (f, line, header))
    for f, header in gone:
        print('%s: "%s" is no longer a dead include: delete its line from %s' % (f, header, args.baseline))
    print("check_includes.py: %d files, %d dead project includes (%d known in the baseline), %d new, %d fixed" %
          (len(files), len(dead), len(dead) - len(new), len(new), len(gone)))
    if broken:
        return 2
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
