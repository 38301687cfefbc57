"""Layers that only look down (issue 36 point 1): every `#include "core/<layer>/..."`
in core/ must name a layer below the including file's own, by the written order
below (docs/ARCHITECTURE.md, "Layers", draws the same list).

The op families build their gradients with the graph's GradBuilder, so `core/op`
sits above `core/graph`; the graph reads only the operator schema (`op_def.h`,
`op_rules.h`), which is its own layer `core/opdef/` below the graph and needs
nothing but `core/base`. Any include that runs back up fails; EXCEPTIONS lists
the ones still waiting for a fix, and can only shrink: an exception that no longer
occurs fails the test too, so it is deleted when the code is fixed.
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"

# Bottom first: a layer may include itself and any layer before it.
LAYERS = ["base", "gpu", "storage", "engine", "opdef", "graph", "op", "ndarray", "autograd", "executor", "io", "kvstore"]

# (including file, included header) pairs that run back up, each with a comment
# naming the fix it waits for. None today: the op schema moved below the graph.
EXCEPTIONS = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"(core/([a-z_]+)/[^"]+)"', re.M)


def back_includes():
    """{(file, header)} of includes that name a layer above the file's own."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    found = set()
    for path in sorted(CORE.rglob("*")):
        if path.suffix not in (".h", ".cc", ".cu", ".cuh") or path.parent == CORE:
            continue
        rel = path.relative_to(ROOT).as_posix()
        own = rel.split("/")[1]
        assert own in rank, "core/%s is not in the written layer order (LAYERS)" % own
        for m in INCLUDE.finditer(path.read_text(errors="replace")):
            target = m.group(2)
            assert target in rank, "%s includes %s: core/%s is not in LAYERS" % (rel, m.group(1), target)
            if rank[target] > rank[own]:
                found.add((rel, m.group(1)))
    return found


def test_every_layer_is_written_down():
    folders = sorted(p.name for p in CORE.iterdir() if p.is_dir())
    assert sorted(LAYERS) == folders


def test_no_include_runs_back_up():
    found = back_includes()
    new = sorted(found - EXCEPTIONS)
    assert not new, "includes that run from a lower layer up (order, bottom first: %s):\n  %s" % (
        " < ".join(LAYERS), "\n  ".join("%s -> %s" % f for f in new))


def test_the_exceptions_still_occur():
    gone = sorted(EXCEPTIONS - back_includes())
    assert not gone, "fixed; delete from EXCEPTIONS:\n  %s" % "\n  ".join("%s -> %s" % f for f in gone)


def test_the_architecture_map_lists_the_layers_in_this_order():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    block = text.split("## Layers", 1)[1].split("```", 2)[1]
    drawn = [m.group(1) for m in re.finditer(r"^core/([a-z_]+)/", block, re.M)]
    assert drawn == list(reversed(LAYERS)), "docs/ARCHITECTURE.md draws %s (top first)" % drawn


def test_the_op_schema_needs_only_the_base_layer():
    # The schema sits just below the graph in LAYERS, which would let it reach the
    # engine, storage or gpu layers; it needs none of them, and staying that way
    # keeps OpDef readable by anything above core/base (issue 36 point 1).
    reached = set()
    for path in sorted((CORE / "opdef").rglob("*")):
        for m in INCLUDE.finditer(path.read_text(errors="replace")):
            if m.group(2) not in ("base", "opdef"):
                reached.add((path.relative_to(ROOT).as_posix(), m.group(1)))
    assert (CORE / "opdef" / "op_def.h").is_file()
    assert not reached, "core/opdef reaches above core/base:\n  %s" % "\n  ".join("%s -> %s" % r for r in sorted(reached))
