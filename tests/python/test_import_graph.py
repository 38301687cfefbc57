"""No import circles in the Python package (issue 36 point 4; Note [Import graph] in
scripts/import_graph.py): the import graph of bindings/python/weft, drawn from the source with
`ast` (module-level and function-level imports), has no cycle, and import-linter's contracts in
bindings/python/.importlinter hold."""
import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

_REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
_BINDING = os.path.join(_REPO, "bindings", "python")
_PACKAGE = os.path.join(_BINDING, "weft")

_spec = importlib.util.spec_from_file_location("import_graph", os.path.join(_REPO, "scripts", "import_graph.py"))
import_graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_graph)


def test_weft_has_no_import_cycle():
    cycles, text, _ = import_graph.describe(_PACKAGE)
    assert not cycles, "import cycle(s) in bindings/python/weft:\n" + text


def _write_package(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))


def test_checker_finds_a_cycle_through_a_function_level_import(tmp_path):
    # pkg.a -> pkg.sub.b -> pkg.c -> (inside a function) pkg.a: one circle of three modules.
    _write_package(str(tmp_path), {
        "pkg/__init__.py": "from . import a\n",
        "pkg/a.py": "from .sub import b\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/b.py": "from ..c import helper\n",
        "pkg/c.py": "def helper():\n    from . import a\n    return a\n",
        "pkg/leaf.py": "import os\n",
    })
    cycles, text, inner = import_graph.describe(str(tmp_path / "pkg"))
    assert cycles == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert "pkg.a(:1) -> pkg.sub.b(:1) -> pkg.c(:2) -> pkg.a" in text
    assert [(m, line) for m, line, _ in inner] == [("pkg.c", 2)]
    assert "1 cycle(s); 1 import(s) inside functions in 1 file(s)" in text


def test_checker_passes_an_acyclic_package(tmp_path):
    # A package __init__ re-exporting its children, and children importing each other downward
    # only, `import pkg.x.y` and `from pkg import name` forms: no circle.
    _write_package(str(tmp_path), {
        "pkg/__init__.py": "from .low import f\nfrom . import high\n",
        "pkg/low.py": "import json\ndef f():\n    return json\n",
        "pkg/high.py": "import pkg.low\nfrom pkg.low import f\n",
    })
    cycles, _, inner = import_graph.describe(str(tmp_path / "pkg"))
    assert cycles == []
    assert inner == []
    _, edges, _ = import_graph.build_graph(str(tmp_path / "pkg"))
    assert set(edges["pkg"]) == {"pkg.low", "pkg.high"}
    assert set(edges["pkg.high"]) == {"pkg.low"}


def test_checker_finds_a_child_taking_a_name_from_its_package(tmp_path):
    # The package's __init__ imports the child and the child takes a name the __init__ defines
    # (the model zoo's old _reject_pretrained): a circle; a child importing a sibling module
    # through the package (`from . import sibling`) is not.
    _write_package(str(tmp_path), {
        "pkg/__init__.py": "def helper():\n    pass\nfrom . import child, other\n",
        "pkg/child.py": "from . import helper\n",
        "pkg/other.py": "from . import leaf\n",
        "pkg/leaf.py": "",
    })
    cycles, text, _ = import_graph.describe(str(tmp_path / "pkg"))
    assert cycles == [["pkg", "pkg.child"]], text


def test_checker_cli_exit_status(tmp_path):
    _write_package(str(tmp_path), {
        "pkg/__init__.py": "",
        "pkg/a.py": "from . import b\n",
        "pkg/b.py": "from . import a\n",
    })
    script = os.path.join(_REPO, "scripts", "import_graph.py")
    bad = subprocess.run([sys.executable, script, str(tmp_path / "pkg")], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 1 and "cycle of 2 modules: pkg.a, pkg.b" in bad.stdout
    os.remove(str(tmp_path / "pkg" / "b.py"))
    good = subprocess.run([sys.executable, script, str(tmp_path / "pkg")], capture_output=True, text=True,
                          timeout=120)
    assert good.returncode == 0, good.stdout


def _lint_imports():
    """lint-imports of the Python running the tests (not whichever is first on PATH)."""
    if importlib.util.find_spec("importlinter") is None:
        if os.environ.get("CI"):
            pytest.fail("import-linter is not installed; scripts/setup.sh installs it")
        pytest.skip("import-linter is not installed here (scripts/setup.sh installs it; CI requires it)")
    return [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; "
                                  "sys.exit(c(prog_name='lint-imports'))"]


def _run_lint_imports(exe, binding_dir):
    env = dict(os.environ, PYTHONPATH=binding_dir)
    return subprocess.run(exe + [os.path.join(binding_dir, ".importlinter"), "--no-cache"],
                          cwd=binding_dir, env=env, capture_output=True, text=True, timeout=600)


def test_import_linter_contracts_hold():
    r = _run_lint_imports(_lint_imports(), _BINDING)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Contracts: 2 kept, 0 broken." in r.stdout, r.stdout


def test_both_checks_catch_a_new_circle_in_a_copy_of_weft(tmp_path):
    # The real package and contracts, with one import added inside a function of a low module:
    # weft.metric.base -> weft.gluon, while weft.gluon imports weft.metric.
    exe = _lint_imports()
    shutil.copytree(_PACKAGE, str(tmp_path / "weft"), ignore=shutil.ignore_patterns("lib", "*.so", "__pycache__"))
    shutil.copy(os.path.join(_BINDING, ".importlinter"), str(tmp_path / ".importlinter"))
    target = tmp_path / "weft" / "metric" / "base.py"
    target.write_text(target.read_text() + "\n\ndef _late():\n    from .. import gluon\n    return gluon\n")
    cycles, text, _ = import_graph.describe(str(tmp_path / "weft"))
    assert cycles and any("weft.metric.base" in c and "weft.gluon" in c for c in cycles), text
    r = _run_lint_imports(exe, str(tmp_path))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "no circles between the children of any weft package BROKEN" in r.stdout, r.stdout


# Names and module paths that moved in untangling the circles, as users import them.
_KEPT_PATHS = [
    ("weft.ndarray.ndarray", ["NDArray", "_wrap", "_new_obj", "invoke", "_call", "array", "zeros", "empty",
                              "save", "load", "waitall", "_Null", "attr_str", "_save_bytes", "histogram"]),
    ("weft.ndarray", ["NDArray", "from_numpy", "from_dlpack", "to_dlpack_for_read", "imdecode", "CachedOp"]),
    ("weft.ndarray.op_call", ["_call", "invoke"]),
    ("weft.dlpack", ["from_dlpack", "from_numpy", "to_dlpack_for_write", "DLManagedTensor", "ndarray_dlpack"]),
    ("weft.model", ["save_checkpoint", "load_checkpoint", "load_params", "BatchEndParam", "FeedForward",
                    "_create_kvstore", "_update_params", "_update_params_on_kvstore", "_initialize_kvstore"]),
    ("weft.metric", ["create", "register", "alias", "EvalMetric", "CompositeEvalMetric", "CustomMetric", "np",
                     "Accuracy", "check_label_shapes"]),
    ("weft.gluon", ["Block", "HybridBlock", "SymbolBlock", "Parameter", "Trainer"]),
    ("weft.gluon.block", ["Block", "HybridBlock", "SymbolBlock"]),
    ("weft.gluon.nn", ["SymbolBlock", "Sequential", "Dense"]),
    ("weft.test_utils", ["assert_almost_equal", "almost_equal", "default_context", "simple_forward",
                         "check_numeric_gradient", "get_mnist", "rand_ndarray", "download_model"]),
    ("weft.image", ["imdecode", "imread", "ImageIter"]),
    ("weft.image.image", ["imdecode_numpy", "cv2_module", "max_image_pixels", "imdecode"]),
]


@pytest.mark.parametrize("module,names", _KEPT_PATHS, ids=[m for m, _ in _KEPT_PATHS])
def test_moved_names_keep_their_import_paths(module, names):
    mod = importlib.import_module(module)
    missing = [n for n in names if not hasattr(mod, n)]
    assert not missing, "%s lacks %s" % (module, missing)


def test_assembled_ndarray_methods_are_the_classes():
    weft = importlib.import_module("weft")
    cls = weft.nd.NDArray
    for name in ("T", "reshape", "astype", "__getitem__", "__eq__", "__reduce__", "attach_grad", "backward",
                 "__dlpack__", "to_dlpack_for_read", "as_np_ndarray"):
        assert name in vars(cls), name
    assert cls.attach_grad.__qualname__ == "NDArray.attach_grad"
    assert weft.model.FeedForward is importlib.import_module("weft.feedforward").FeedForward
    assert weft.gluon.block.SymbolBlock is weft.gluon.SymbolBlock


def test_import_linter_contract_fails_on_a_cycle(tmp_path):
    # The same acyclic_siblings contract as ours, on a synthetic package with a circle.
    exe = _lint_imports()
    _write_package(str(tmp_path), {
        "cyc/__init__.py": "",
        "cyc/a.py": "from . import b\n",
        "cyc/b.py": "def f():\n    from . import a\n    return a\n",
        ".importlinter": """\
            [importlinter]
            root_package = cyc

            [importlinter:contract:acyclic]
            name = no cycles between the modules of a package
            type = acyclic_siblings
            ancestors = cyc
            """,
    })
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = subprocess.run(exe + [str(tmp_path / ".importlinter"), "--no-cache"], cwd=str(tmp_path),
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "BROKEN" in r.stdout.upper(), r.stdout
