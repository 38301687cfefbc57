"""The passes read ops' attributes, never op names (issue 36 point 2; Note [Op
attributes on the declaration] and Note [Fusion patterns on the op] in
core/opdef/op_def.h).

Three checks over the C++ tree, comments stripped:
- no side table keyed by op comes back: SetSameShape, SetMutateInputsRule,
  SetDynamicShapeRule, SetTakesFreeAttributes (now builder methods on the
  declaration) and SetSubgraphKernel by op name (now by SubgraphSlot);
- core/graph and core/executor compare no op name against a string literal
  (`op->name == "BatchNorm"`, `op == "BatchNorm"`), but for the EXCEPTIONS and
  the NumPy-mode TRANSLATION_TABLES below;
- core/graph/fusion.cc holds no string literal that names a registered op (its
  patterns are roles the ops declare; the fused ops are named by the layers).
"""
import re
from pathlib import Path

from weft import base

ROOT = Path(__file__).resolve().parents[2]
TREES = ("core", "capi", "plugins", "tests/cpp", "tests/fuzz")
SUFFIXES = (".h", ".cc", ".cu", ".cuh", ".cpp", ".c")
PASS_DIRS = ("core/graph", "core/executor")
FUSION = "core/graph/fusion.cc"

# (file, the string literal compared): each kept on purpose.
EXCEPTIONS = {
    # An upgrade rule of MXNet's legacy JSON: argmax/argmin's axis=-1 meant
    # "flatten" in files written before 0.9.5. It belongs to those names in old
    # files, not to the ops as declared today, which have no such meaning.
    ("core/graph/json_upgrade.cc", "argmax"),
    ("core/graph/json_upgrade.cc", "argmin"),
}
# Whole files: the loader's translation of MXNet 1.9.1 NumPy-mode node names,
# read from a file, into Weft's ops (Note [NumPy-mode nodes read as legacy
# ones], issue 37). The names there are the file format itself, compared before
# any op is looked up, and each such table lists the names it translates.
TRANSLATION_TABLES = re.compile(r"core/graph/np_(?:json_nodes|nodes_\w+)\.cc")

SIDE_TABLE = re.compile(r"\bSet(?:SameShape|MutateInputsRule|DynamicShapeRule|TakesFreeAttributes)\s*\("
                        r"|\bSetSubgraphKernel\s*\(\s*\"")
# An op's name against a literal, either way round: `x->op->name != "y"`,
# `op.name == "y"`, `"y" == n->op->name`, and a string holding an op name by
# the names the code gives it (`op == "y"`, `op_name == "y"`).
NAME_COMPARE = re.compile(r"(?:(?:->|\.)\s*name|\bop(?:_name|name)?)\s*[!=]=\s*\"([^\"\n]*)\""
                          r"|\"([^\"\n]*)\"\s*[!=]=\s*(?:[\w>.\-]*(?:->|\.)name\b|\bop(?:_name|name)?\b)")
LITERAL = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"")


def strip_comments(text):
    """The code without // and /* */ comments (string literals kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            out.append("\n" * text.count("\n", i, n if j < 0 else j))
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def side_tables(code):
    return [m.group(0) for m in SIDE_TABLE.finditer(code)]


def name_comparisons(code):
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in NAME_COMPARE.finditer(code)]


def sources(*trees):
    for tree in trees:
        for path in sorted((ROOT / tree).rglob("*")):
            if path.suffix in SUFFIXES:
                yield path.relative_to(ROOT).as_posix(), strip_comments(path.read_text(errors="replace"))


def test_the_checks_catch_the_forms_they_replaced():
    for old in ('[[maybe_unused]] const bool k = SetSameShape("where", SameShapeSlots{{1, 2}, {0}, false});',
                'SetMutateInputsRule(op, [](const Params& p) { return std::vector<int>{}; });',
                'SetDynamicShapeRule(*OpRegistry::Get()->Find(kNonzeroOp), DynamicShapeRule{});',
                'SetTakesFreeAttributes(fwd);',
                'SetSubgraphKernel("_foreach", ForeachForward);'):
        assert side_tables(old), old
    for new in ('op.set_same_shape(SameShapeSlots::All());',
                'SetSubgraphKernel(SubgraphSlot::kForeach, ForeachForward);',
                'fwd.set_takes_free_attributes();'):
        assert not side_tables(new), new
    assert name_comparisons('if (act->op == nullptr || act->op->name != "Activation") continue;') == ["Activation"]
    assert name_comparisons('const bool fc = Src(layer)->op->name == "FullyConnected";') == ["FullyConnected"]
    assert name_comparisons('return node->op != nullptr && node->op->name == name;') == []
    assert name_comparisons('return op == "BatchNorm" || op == "BatchNorm_v1";') == ["BatchNorm", "BatchNorm_v1"]
    assert name_comparisons('if ("_cond" == n.op->name) return;') == ["_cond"]
    assert name_comparisons('if (key == "op") op = &m.second;') == []  # a JSON key, not an op
    assert name_comparisons('return n == "_foreach";') == []  # a bare `n` is too general to flag
    assert TRANSLATION_TABLES.fullmatch("core/graph/np_nodes_npmath.cc")
    assert not TRANSLATION_TABLES.fullmatch("core/graph/fusion.cc")
    assert strip_comments('a; // op->name == "x"\nb /* "y" */;') == "a; \nb ;"
    assert strip_comments('s = "// not a comment";') == 's = "// not a comment";'


def test_no_side_table_keyed_by_op():
    bad = ["%s: %s" % (rel, hit) for rel, code in sources(*TREES) for hit in side_tables(code)]
    assert not bad, ("declare these on the op's builder (Note [Op attributes on the declaration] in "
                     "core/opdef/op_def.h):\n  " + "\n  ".join(bad))


def test_passes_compare_no_op_name_with_a_string():
    bad, used = [], set()
    for rel, code in sources(*PASS_DIRS):
        if TRANSLATION_TABLES.fullmatch(rel):
            continue
        for lit in name_comparisons(code):
            if (rel, lit) in EXCEPTIONS:
                used.add((rel, lit))
            else:
                bad.append('%s: "%s"' % (rel, lit))
    assert not bad, ("read an attribute of the op (core/opdef/op_def.h), not its name:\n  " + "\n  ".join(bad))
    # An exception that no longer matches is dropped from the list, so the list stays true.
    assert used == EXCEPTIONS, "stale exceptions: %s" % sorted(EXCEPTIONS - used)


def test_fusion_names_no_op():
    names = set(base.op_names())
    assert {"Convolution", "BatchNorm", "_fused_elemwise"} <= names  # the check is not vacuous
    code = strip_comments((ROOT / FUSION).read_text())
    literals = [m.group(1) for m in LITERAL.finditer(code)]
    assert len(literals) > 10
    named = sorted(set(lit for lit in literals if lit in names))
    assert not named, ("%s names ops %s: declare the pattern on the ops (Note [Fusion patterns on the op] "
                       "in core/opdef/op_def.h)" % (FUSION, named))
