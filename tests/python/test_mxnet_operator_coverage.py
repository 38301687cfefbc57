"""Every MXNet 1.9.1 operator-level name exists in Weft (issue 17).

``../shared/reference/mxnet-1.9.1-operators.txt`` (beside the repository; CI
has ../shared next to the clone) lists, one per line as ``namespace name``,
every public name of MXNet 1.9.1's ``mx.nd``, ``mx.nd.contrib``, ``.linalg``,
``.random``, ``.image``, ``mx.sym.contrib`` and of the ``NDArray`` and
``Symbol`` classes. ``test_every_reference_name_exists`` looks each one up in
the matching Weft namespace (``mx.nd`` -> ``weft.nd``, ``mx.nd.contrib`` ->
``weft.nd.contrib`` ..., ``NDArray`` -> the methods and attributes of
``weft.nd.NDArray``, ``Symbol`` -> those of ``weft.sym.Symbol``) and fails,
printing the per-namespace counts (have/total) and every missing name, when a
name is missing that is neither EXCLUDED nor PENDING.

EXCLUDED is the short list of names issue 17 allows Weft to leave out, each with
its reason. PENDING holds the names still missing on the branch that wrote this
test: the operators other helpers were adding in parallel. The lead empties
PENDING after merging their branches; the test also fails for a PENDING name
that now exists, so the list cannot go stale. Once PENDING is empty, a missing
name fails the test.

``test_present_names_resolve`` checks that each name that exists is usable:
a callable for the namespaces and the class methods, a readable attribute for
the NDArray/Symbol attributes (``shape``, ``dtype``, ``handle`` ...).
"""
import fnmatch
import inspect
from collections import OrderedDict
from pathlib import Path

import pytest

import weft

REFERENCE = (Path(__file__).resolve().parents[2].parent / "shared" / "reference"
             / "mxnet-1.9.1-operators.txt")
needs_reference = pytest.mark.skipif(not REFERENCE.is_file(), reason=f"no MXNet name list at {REFERENCE}")


# The names issue 17 allows Weft to leave out, as fnmatch patterns over "namespace name".
EXCLUDED = (
    # Quantization: Weft has no int8 inference path (issue 17: "the quantization ops").
    ("mx.nd.contrib quantize*", "quantization"),
    ("mx.nd.contrib quantized_*", "quantization"),
    ("mx.nd.contrib dequantize", "quantization"),
    ("mx.nd.contrib requantize", "quantization"),
    ("mx.nd.contrib calibrate_entropy", "quantization (calibration)"),
    ("mx.sym.contrib quantize*", "quantization"),
    ("mx.sym.contrib quantized_*", "quantization"),
    ("mx.sym.contrib dequantize", "quantization"),
    ("mx.sym.contrib requantize", "quantization"),
    ("mx.sym.contrib calibrate_entropy", "quantization (calibration)"),
    # DGL graph sampling (CSR graphs; Weft has dense storage only).
    ("mx.nd.contrib dgl_*", "DGL graph sampling"),
    ("mx.sym.contrib dgl_*", "DGL graph sampling"),
    # The *_v1 legacy layers, unless aliased to their successors (then they exist and pass).
    ("mx.nd *_v1", "legacy layer"),
    # Not built this round (listed in the issue-17 closing note):
    ("mx.nd.contrib edge_id", "defined on CSR storage (stored entries); Weft has dense arrays only"),
    ("mx.sym.contrib edge_id", "defined on CSR storage (stored entries); Weft has dense arrays only"),
    ("mx.nd.contrib getnnz", "counts CSR stored entries; Weft has dense arrays only"),
    ("mx.sym.contrib getnnz", "counts CSR stored entries; Weft has dense arrays only"),
)

# Names still missing while the operator branches were being merged; empty now
# that they are all in (kept so the stale check keeps the list honest).
PENDING = frozenset()

NAMESPACES = OrderedDict([
    ("mx.nd", lambda: weft.nd),
    ("mx.nd.contrib", lambda: weft.nd.contrib),
    ("mx.nd.linalg", lambda: weft.nd.linalg),
    ("mx.nd.random", lambda: weft.nd.random),
    ("mx.nd.image", lambda: weft.nd.image),
    ("mx.sym.contrib", lambda: weft.sym.contrib),
    ("NDArray", lambda: weft.nd.NDArray),
    ("Symbol", lambda: weft.sym.Symbol),
])

# Data attributes (properties or slots) of the classes, read on an instance; every
# other class name must be a method.
ATTRIBUTES = {
    "NDArray": {"T", "context", "ctx", "dtype", "grad", "handle", "ndim", "shape", "size", "stype", "writable"},
    "Symbol": {"handle", "name"},
}


def reference_names():
    """[(namespace, name)] in file order."""
    out = []
    for line in REFERENCE.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        ns, name = line.split()
        out.append((ns, name))
    return out


def excluded(ns, name):
    key = "%s %s" % (ns, name)
    return any(fnmatch.fnmatchcase(key, pattern) for pattern, _ in EXCLUDED)


def exists(ns, name):
    return hasattr(NAMESPACES[ns](), name)


def coverage():
    """{namespace: (have, total, [missing names not excluded])}."""
    table = OrderedDict((ns, [0, 0, []]) for ns in NAMESPACES)
    for ns, name in reference_names():
        row = table[ns]
        row[1] += 1
        if exists(ns, name):
            row[0] += 1
        elif not excluded(ns, name):
            row[2].append(name)
    return table


def report(table):
    lines = ["MXNet 1.9.1 names in Weft, per namespace (have/total; missing, exclusions aside):"]
    for ns, (have, total, missing) in table.items():
        lines.append("  %-15s %3d/%-3d  missing %d%s" % (ns, have, total, len(missing),
                                                       (": " + " ".join(missing)) if missing else ""))
    return "\n".join(lines)


@needs_reference
def test_reference_file_names_known_namespaces():
    names = reference_names()
    assert len(names) > 700
    unknown = sorted({ns for ns, _ in names} - set(NAMESPACES))
    assert not unknown, "namespaces of the reference file this test does not map: %s" % unknown
    # Every exclusion and PENDING entry names something in the reference file.
    keys = {"%s %s" % n for n in names}
    for pattern, reason in EXCLUDED:
        assert fnmatch.filter(keys, pattern), "exclusion %r (%s) matches no reference name" % (pattern, reason)
    assert not PENDING - keys, "PENDING entries not in the reference file: %s" % sorted(PENDING - keys)


@needs_reference
def test_every_reference_name_exists():
    table = coverage()
    text = report(table)
    print(text)
    missing = {"%s %s" % (ns, name) for ns, row in table.items() for name in row[2]}
    unexpected = sorted(missing - PENDING)
    landed = sorted(n for n in PENDING if exists(*n.split()))
    assert not unexpected and not landed, (
        text + ("\n\nmissing and not PENDING: %s" % unexpected if unexpected else "")
        + ("\n\nPENDING but present now (remove them from PENDING): %s" % landed if landed else ""))


@needs_reference
def test_present_names_resolve():
    x = weft.nd.ones((2, 3))
    s = weft.sym.var("x")
    instances = {"NDArray": x, "Symbol": s}
    bad = []
    for ns, name in reference_names():
        if not exists(ns, name):
            continue
        target = NAMESPACES[ns]()
        if ns in ATTRIBUTES and name in ATTRIBUTES[ns]:
            static = inspect.getattr_static(target, name)
            if inspect.isfunction(static):
                bad.append("%s.%s is a method, MXNet's is an attribute" % (ns, name))
                continue
            try:
                getattr(instances[ns], name)
            except Exception as err:  # pylint: disable=broad-except
                bad.append("%s.%s cannot be read: %r" % (ns, name, err))
        elif ns in ATTRIBUTES:
            if not inspect.isfunction(inspect.getattr_static(target, name)):
                bad.append("%s.%s is not a method" % (ns, name))
        elif not callable(getattr(target, name)):
            bad.append("%s.%s is not callable" % (ns, name))
    assert not bad, "\n".join(bad)


if __name__ == "__main__":  # the table, for a quick look: python3 tests/python/test_mxnet_operator_coverage.py
    print(report(coverage()))
