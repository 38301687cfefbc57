"""Every name of MXNet 1.9.1's NumPy interface exists in Weft (issue 37).

``../shared/reference/mxnet-1.9.1-numpy.txt`` (beside the repository; CI has
../shared next to the clone) lists, one ``namespace<TAB>name`` per line, the
public names of ``mx.np``, ``mx.np.linalg``, ``mx.np.random``, ``mx.npx`` and
its ``image``/``random`` submodules, and the public attributes of
``mx.np.ndarray``. ``test_every_reference_name_exists`` looks each one up in
the matching Weft namespace (``mx.np`` -> ``weft.np``, ``mx.npx.image`` ->
``weft.npx.image``, ``mx.np.ndarray methods`` -> ``weft.np.ndarray`` ...),
prints the per-namespace counts (have/total) and fails for a missing name that
is not PENDING.

PENDING holds the names missing on the branch that wrote this test (npcore):
those the other weft.np helpers were adding in parallel (math, ops, linalg,
random, npx). The lead shrinks it after merging their branches; the test also
fails for a PENDING name that now exists, so the list cannot go stale. The
same holds for PENDING_MODULES, the submodules (``import weft.numpy.linalg``
...) not there yet. Modelled on test_mxnet_operator_coverage.py.
"""
import importlib
import inspect
import os
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import pytest

import weft

REFERENCE = (Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "mxnet-1.9.1-numpy.txt")
needs_reference = pytest.mark.skipif(not REFERENCE.is_file(), reason=f"no MXNet name list at {REFERENCE}")

# namespace -> the Weft module path (for import checks) and the object holding the names
MODULES = OrderedDict([
    ("mx.np", "weft.numpy"),
    ("mx.np.linalg", "weft.numpy.linalg"),
    ("mx.np.random", "weft.numpy.random"),
    ("mx.npx", "weft.numpy_extension"),
    ("mx.npx.image", "weft.numpy_extension.image"),
    ("mx.npx.random", "weft.numpy_extension.random"),
])
CLASS_NS = "mx.np.ndarray methods"
NAMESPACES = list(MODULES) + [CLASS_NS]

# Data attributes of mx.np.ndarray (properties or slots), read on an instance;
# every other class name must be a method.
ATTRIBUTES = {"T", "context", "ctx", "dtype", "grad", "handle", "ndim", "shape", "size", "stype", "writable"}
# Names of mx.np that are constants, not callables.
CONSTANTS = {"NAN", "NINF", "NZERO", "NaN", "PINF", "PZERO", "e", "inf", "nan", "pi", "newaxis"}


def _pending(ns, names):
    return {"%s %s" % (ns, n) for n in names.split()}


# Every submodule imports (they were added in parallel by several helpers).
PENDING_MODULES = frozenset()

# Every name of the list is present: nothing is pending any more.
PENDING = frozenset()


def target(ns):
    """The Weft object holding namespace ns's names (None for a submodule not there)."""
    if ns == CLASS_NS:
        return weft.np.ndarray
    try:
        return importlib.import_module(MODULES[ns])
    except ImportError:
        return None


def reference_names():
    """[(namespace, name)] in file order."""
    out = []
    for line in REFERENCE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        ns, name = line.rstrip("\n").split("\t")
        out.append((ns, name))
    return out


def exists(ns, name):
    obj = target(ns)
    return obj is not None and hasattr(obj, name)


def coverage():
    """{namespace: (have, total, [missing names])}."""
    table = OrderedDict((ns, [0, 0, []]) for ns in NAMESPACES)
    for ns, name in reference_names():
        row = table[ns]
        row[1] += 1
        if exists(ns, name):
            row[0] += 1
        else:
            row[2].append(name)
    return table


def report(table):
    lines = ["MXNet 1.9.1 NumPy-interface names in Weft, per namespace (have/total):"]
    for ns, (have, total, missing) in table.items():
        lines.append("  %-22s %3d/%-3d  missing %d" % (ns, have, total, len(missing)))
    return "\n".join(lines)


@needs_reference
def test_reference_file_names_known_namespaces():
    names = reference_names()
    assert len(names) > 500
    unknown = sorted({ns for ns, _ in names} - set(NAMESPACES))
    assert not unknown, "namespaces of the reference file this test does not map: %s" % unknown
    keys = {"%s %s" % n for n in names}
    assert not PENDING - keys, "PENDING entries not in the reference file: %s" % sorted(PENDING - keys)


@needs_reference
def test_every_reference_name_exists():
    table = coverage()
    text = report(table)
    print(text)
    missing = {"%s %s" % (ns, name) for ns, row in table.items() for name in row[2]}
    unexpected = sorted(missing - PENDING)
    landed = sorted(n for n in PENDING if exists(*n.rsplit(" ", 1)))
    assert not unexpected and not landed, (
        text + ("\n\nmissing and not PENDING: %s" % unexpected if unexpected else "")
        + ("\n\nPENDING but present now (remove them from PENDING): %s" % landed if landed else ""))


def test_submodules_import():
    present = []
    for ns, path in MODULES.items():
        try:
            mod = importlib.import_module(path)
        except ImportError as err:
            assert path in PENDING_MODULES, "import %s fails: %s" % (path, err)
            continue
        assert path not in PENDING_MODULES, "%s imports now: remove it from PENDING_MODULES" % path
        assert mod is target(ns)
        present.append(path)
    # As in MXNet, a plain `import weft` makes them reachable (weft.np.linalg, weft.npx.image ...):
    # checked in a fresh interpreter, where no test has imported them explicitly.
    chains = [p.replace("weft.numpy_extension", "weft.npx").replace("weft.numpy", "weft.np") for p in present]
    code = "import weft\n" + "".join("assert %s.__name__ == %r\n" % (c, p) for c, p in zip(chains, present))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ), check=False)
    assert res.returncode == 0, res.stderr[-2000:]


@needs_reference
def test_present_names_resolve():
    x = weft.np.ones((2, 3))
    bad = []
    for ns, name in reference_names():
        if not exists(ns, name):
            continue
        obj = target(ns)
        if ns == CLASS_NS:
            static = inspect.getattr_static(obj, name)
            if name in ATTRIBUTES:
                if inspect.isfunction(static):
                    bad.append("ndarray.%s is a method, MXNet's is an attribute" % name)
                    continue
                try:
                    getattr(x, name)
                except Exception as err:  # pylint: disable=broad-except
                    bad.append("ndarray.%s cannot be read: %r" % (name, err))
            elif not inspect.isfunction(static):
                bad.append("ndarray.%s is not a method" % name)
        elif ns == "mx.np" and name in CONSTANTS:
            if callable(getattr(obj, name)):
                bad.append("np.%s is callable, MXNet's is a constant" % name)
        elif not callable(getattr(obj, name)):
            bad.append("%s.%s is not callable" % (ns, name))
    assert not bad, "\n".join(bad)


def test_refused_legacy_methods_raise_as_mxnet():
    x = weft.np.ones((2, 3))
    for name in ("argmax_channel", "one_hot", "pick", "slice_axis", "broadcast_like", "split_v2", "pad"):
        with pytest.raises(AttributeError, match="weft.numpy.ndarray object has no attribute %s" % name):
            getattr(x, name)()


if __name__ == "__main__":  # the table, for a quick look: python3 tests/python/test_np_coverage.py
    print(report(coverage()))
