"""The include checker (scripts/check_includes.py, issue 36 point 3) on a small
tree of its own: it finds a dead project include, keeps a used one and one
marked `IWYU pragma: keep`, honours the baseline and fails on a baseline line
whose include is gone; with no path it covers every folder of core/, as
scripts/test.sh's cpp stage runs it (Note [All of core/ in CI])."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "check_includes.py")

pytestmark = pytest.mark.skipif(shutil.which("include-what-you-use") is None,
                                reason="include-what-you-use is not installed (scripts/setup.sh installs iwyu)")


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def check(root, *extra):
    proc = subprocess.run([sys.executable, SCRIPT, "--root", str(root), "--jobs", "2"] + list(extra) + ["core"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=300,
                          check=False)
    return proc.returncode, proc.stdout


@pytest.fixture
def tree(tmp_path):
    write(tmp_path, "core/op/fam/used.h", "#pragma once\nint Used();\n")
    write(tmp_path, "core/op/other/dead.h", "#pragma once\nint Dead();\n")
    write(tmp_path, "core/op/other/kept.h", "#pragma once\nint Kept();\n")
    write(tmp_path, "core/op/fam/op.cc",
          '#include "core/op/fam/used.h"\n'
          '#include "core/op/other/dead.h"\n'
          '#include "core/op/other/kept.h"  // IWYU pragma: keep\n'
          "int Op() { return Used(); }\n")
    return tmp_path


def test_finds_the_dead_include_only(tree):
    rc, out = check(tree, "--baseline", "")
    assert rc == 1, out
    assert 'core/op/fam/op.cc:2: dead include "core/op/other/dead.h"' in out
    assert "used.h" not in out
    assert "kept.h" not in out


def test_clean_tree_passes(tree):
    write(tree, "core/op/fam/op.cc", '#include "core/op/fam/used.h"\nint Op() { return Used(); }\n')
    rc, out = check(tree, "--baseline", "")
    assert rc == 0, out


def test_baseline_holds_known_and_shrinks(tree):
    baseline = os.path.join(str(tree), "baseline.txt")
    write(tree, "baseline.txt", "# known\ncore/op/fam/op.cc: core/op/other/dead.h\n")
    rc, out = check(tree, "--baseline", baseline)
    assert rc == 0, out
    # The include removed, its baseline line is stale: the check says so and fails.
    write(tree, "core/op/fam/op.cc", '#include "core/op/fam/used.h"\nint Op() { return Used(); }\n')
    rc, out = check(tree, "--baseline", baseline)
    assert rc == 1, out
    assert "no longer a dead include" in out


def test_no_path_checks_all_of_core(tree):
    # Folders outside the three it first held (dense/, detect/, optim/) and
    # outside core/op: the default must reach them all.
    write(tree, "core/base/low.h", "#pragma once\nint Low();\n")
    write(tree, "core/base/user.cc", '#include "core/base/low.h"\n#include "core/op/other/dead.h"\nint U() { return Low(); }\n')
    proc = subprocess.run([sys.executable, SCRIPT, "--root", str(tree), "--jobs", "2", "--baseline", ""],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=300,
                          check=False)
    assert proc.returncode == 1, proc.stdout
    assert 'core/base/user.cc:2: dead include "core/op/other/dead.h"' in proc.stdout
    assert 'core/op/fam/op.cc:2: dead include "core/op/other/dead.h"' in proc.stdout
    assert "low.h" not in proc.stdout


def test_missing_path_is_an_error(tmp_path):
    proc = subprocess.run([sys.executable, SCRIPT, "--root", str(tmp_path), "core/op/nowhere"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=60,
                          check=False)
    assert proc.returncode != 0
    assert "no such file or folder" in proc.stdout and "core/op/nowhere" in proc.stdout
