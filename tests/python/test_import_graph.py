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
    exe = shutil.which("lint-imports")
    if exe is None and os.environ.get("CI"):
        pytest.fail("lint-imports (import-linter) is not installed; scripts/setup.sh installs it")
    if exe is None:
        pytest.skip("import-linter is not installed here (scripts/setup.sh installs it; CI requires it)")
    return exe


def test_import_linter_contracts_hold():
    exe = _lint_imports()
    env = dict(os.environ, PYTHONPATH=_BINDING + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([exe, os.path.join(_BINDING, ".importlinter"), "--no-cache"],
                       cwd=_BINDING, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "broken" in r.stdout and "0 broken" in r.stdout, r.stdout


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
    r = subprocess.run([exe, str(tmp_path / ".importlinter"), "--no-cache"], cwd=str(tmp_path),
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "BROKEN" in r.stdout.upper(), r.stdout
