"""One way to declare an op (issue 36 point 2): WEFT_REGISTER_OP, never a raw
registry Add( (Note [One way to declare an op] in core/opdef/op_def.h).

Only the registry itself (core/opdef/op_def.h's macro, OpDef::add_alias in
core/opdef/op_def.cc, core/opdef/registry.cc) may call OpRegistry::Add or
AddAlias. Anywhere else in the C++ tree a call of
either on OpRegistry::Get(), or a hold of the registry that could make one (a
non-const OpRegistry pointer or reference, `auto&`/`auto*` bound to it), fails
this test, so `grep WEFT_REGISTER_OP` finds every op's declaration.
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TREES = ("core", "capi", "plugins", "tests/cpp", "tests/fuzz")
REGISTRY = {"core/opdef/op_def.h", "core/opdef/op_def.cc", "core/opdef/registry.cc"}

# A call of the registry's writers straight on OpRegistry::Get() (whitespace,
# newlines included, between the parts).
RAW_ADD = re.compile(r"OpRegistry\s*::\s*Get\s*\(\s*\)\s*->\s*Add(?:Alias)?\s*\(")
# A hold of the registry through which Add( could be called: `OpRegistry* r =`,
# `OpRegistry& r =`, `auto& reg = *OpRegistry::Get()`; a const hold is fine.
HOLD = re.compile(r"(?<!const )(?<!const)\b(?:OpRegistry|auto)\s*[*&]\s*\w+\s*=\s*\*?\s*(?:::weft::)?OpRegistry\s*::\s*Get\b")


def offences(text):
    found = [m.group(0) for m in RAW_ADD.finditer(text)]
    found += [m.group(0) for m in HOLD.finditer(text)]
    return found


def test_the_lint_catches_every_raw_form_it_replaced():
    # The shapes the raw registrations had before the rewrite, each one caught;
    # the macro's own forms and the registry's readers pass.
    for raw in ('OpDef& op = OpRegistry::Get()->Add("x");',
                '[[maybe_unused]] OpDef& reg_x = OpRegistry::Get()->Add("x").add_alias("y")',
                'return OpRegistry::Get()->Add(name).describe(doc);',
                'AddPlacement(OpRegistry::Get()\n    ->Add("_full"))',
                'OpRegistry* r = OpRegistry::Get();',
                'auto& reg = *OpRegistry::Get();',
                'OpRegistry::Get()->AddAlias(op, "y");'):
        assert offences(raw), raw
    for fine in ('WEFT_REGISTER_OP("exp").describe("e")',
                 'WEFT_REGISTER_OP(fwd, "Activation").set_compute_gpu(k);',
                 'const OpDef& op = OpRegistry::Get()->FindOrThrow("x");',
                 'const OpRegistry* reg = OpRegistry::Get();',
                 'at = s->Add(sizeof(T) * n);'):
        assert not offences(fine), fine


def test_no_op_is_registered_but_through_the_macro():
    bad = []
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*")):
            if path.suffix not in (".h", ".cc", ".cu", ".cuh", ".cpp", ".c"):
                continue
            rel = path.relative_to(ROOT).as_posix()
            if rel in REGISTRY:
                continue
            for hit in offences(path.read_text(errors="replace")):
                bad.append("%s: %s" % (rel, " ".join(hit.split())))
    assert not bad, ("declare ops with WEFT_REGISTER_OP (Note [One way to declare an op] in "
                     "core/opdef/op_def.h), not through the registry:\n  " + "\n  ".join(bad))


def test_the_macro_declares_ops():
    # Guards the lint against passing vacuously: the macro is still the one
    # the tree uses, in both of its forms.
    text = "\n".join(p.read_text(errors="replace") for p in (ROOT / "core" / "op").rglob("*.cc"))
    assert len(re.findall(r"^\s*WEFT_REGISTER_OP\(\"", text, re.M)) > 50
    assert len(re.findall(r"^\s*WEFT_REGISTER_OP\(\w+, ", text, re.M)) > 150
