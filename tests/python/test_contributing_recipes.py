"""CONTRIBUTING.md's recipes stay true (issue 36 point 5).

The blocks marked ``<!-- recipe-test: NAME -->`` are run exactly as written, from the
repository root, against the checkout's ``build/`` (CI builds it before the Python
stage; the Go caches and the R package come from CI's go and r stages, which run
before it). The other recipes name files, folders and anchors in the code: each one
must exist, so a move that breaks a recipe fails here.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "CONTRIBUTING.md"
RECIPE = re.compile(r"<!-- recipe-test: ([\w-]+) -->\n```sh\n(.*?)```", re.S)
BUILD = ROOT / "build"


def _recipes():
    return dict(RECIPE.findall(DOC.read_text()))


def test_the_recipes_to_run_are_there():
    assert set(_recipes()) == {"run-one-cpp", "run-one-python", "run-one-go", "run-one-r"}


# What each recipe needs beyond build/libweft.so, and the stage of scripts/test.sh making it.
NEEDS = {
    "run-one-cpp": (("ctest", BUILD / "CTestTestfile.cmake"), "build"),
    "run-one-python": (("python3", BUILD / "libweft.so"), "build"),
    "run-one-go": (("go", BUILD / "libweft.so"), "build"),
    "run-one-r": (("Rscript", BUILD / "r-lib" / "weft"), "r"),
}


@pytest.mark.parametrize("name", sorted(NEEDS))
def test_recipe_runs_as_written(name):
    (tool, made), stage = NEEDS[name]
    if not (BUILD / "libweft.so").is_file():
        pytest.skip("no build/libweft.so in this checkout (bash scripts/build.sh makes it)")
    if shutil.which(tool) is None:
        pytest.skip("%s is not installed (scripts/setup.sh installs it)" % tool)
    if not made.exists():
        pytest.skip("%s is missing: run `bash scripts/test.sh %s` first" % (made, stage))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WEFT_LIBRARY", "PYTHONPATH"))}
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", _recipes()[name]], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, "recipe %s failed:\n%s\n%s" % (name, r.stdout[-3000:], r.stderr[-3000:])


# Files and anchors the written recipes name: (path, text that must be in it).
ANCHORS = [
    ("core/op/elemwise/unary_ops.h", "Note [Unary math rows]"),
    ("core/op/elemwise/unary_ops.h", "#define WEFT_UNARY_MATH_OPS(ROW)"),
    ("core/op/elemwise/elemwise_cpu.cc", "WEFT_UNARY_MATH_OPS"),
    ("core/op/elemwise/elemwise_math.cuh", "WEFT_UNARY_MATH_OPS"),
    ("tests/python/op_cases/elemwise.py", '"cbrt"'),
    ("tests/python/test_op_harness.py", "has no case in tests/python/op_cases"),
    ("core/opdef/op_def.h", "#define WEFT_REGISTER_OP(...)"),
    ("core/opdef/op_def.h", "Note [Op attributes on the declaration]"),
    ("core/opdef/op_def.h", "OpDef& set_fusion_pattern("),
    ("tests/python/test_op_attribute_lint.py", ""),
    ("core/op/reduce/cumsum.cc", '"_np_cumsum"'),
    ("core/op/reduce/cumsum_cpu.cc", ""),
    ("core/op/reduce/cumsum.cu", ""),
    ("capi/include/weft/c_api.h", "WEFT-CDEF-BEGIN"),
    ("capi/include/weft/c_api.h", "WEFT-CDEF-END"),
    ("capi/abi_symbols.txt", "weft_ndarray_create"),
    ("bindings/python/weft/_cdef.py", "WEFT-CDEF-BEGIN"),
    ("bindings/r/src/init.c", "R_CallMethodDef"),
    ("bindings/go/cgo.go", "#include <weft/c_api.h>"),
    ("scripts/test.sh", "STAGES=(setup build cpp go fuzz-go r julia aarch64 cuda python gpu asan)"),
]


@pytest.mark.parametrize("path,text", ANCHORS)
def test_named_files_and_anchors_exist(path, text):
    p = ROOT / path
    assert p.is_file(), "CONTRIBUTING.md names %s, which does not exist" % path
    assert text in p.read_text(), "CONTRIBUTING.md relies on %r in %s, which is gone" % (text, path)


def test_api_begin_pattern_named_by_the_c_recipe_exists():
    assert any("API_BEGIN" in p.read_text() for p in (ROOT / "capi" / "src").glob("c_api_*.cc"))
