"""MXNet 1.9.1's NumPy-interface names (``../shared/reference/mxnet-1.9.1-numpy.txt``,
beside the checkout) as {namespace: set of names}, for the tests that check
exported operator names against it."""
import os

REFERENCE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "reference", "mxnet-1.9.1-numpy.txt")


def reference_names():
    names = {}
    with open(REFERENCE) as f:
        for line in f:
            if not line.startswith("#") and "\t" in line:
                ns, name = line.rstrip("\n").split("\t")
                names.setdefault(ns, set()).add(name)
    return names
