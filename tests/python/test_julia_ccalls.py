"""Julia's `ccall`s are checked against the C header (issue 36 point 5).

Python reads the C API from the header's WEFT-CDEF block (cffi parses it), R's
glue and Go's cgo are C compiled against the header, so a changed signature
breaks their build. Julia's `ccall((:weft_x, libweft()), Ret, (Args...), ...)`
is checked by nothing until it runs, and Julia cannot be installed on our
machines: a renamed function, a dropped argument or an `Int64` where the C side
takes an `int` would pass every test here and crash a Julia user. This test
reads every `ccall` in bindings/julia/src and compares its name, return type and
argument types with the function's declaration as cffi parsed it from the header
(`ffi.typeof(lib.weft_x)`).

Julia types map to C as Julia's manual says (Cint = int, Int64 = int64_t,
Csize_t = size_t, Ptr{T}/Ref{T} = T*, Cstring = char*); an enum is an int (the
header keeps every enum int-sized); `Ptr{Cvoid}` stands for any pointer (the
opaque handles are passed that way).
"""
import re
from pathlib import Path

import pytest

from weft.base import ffi, lib

ROOT = Path(__file__).resolve().parents[2]
JULIA_SRC = ROOT / "bindings" / "julia" / "src"

CCALL = re.compile(r"ccall\(\(:(weft_[a-z0-9_]+),\s*libweft\(\)\),\s*")

# Julia scalar type -> the C type names (as cffi spells them) it may stand for.
SCALARS = {
    "Cint": {"int", "int32_t"},
    "Cuint": {"unsigned int", "uint32_t"},
    "Int32": {"int", "int32_t"},
    "UInt32": {"unsigned int", "uint32_t"},
    "Int64": {"int64_t", "long long", "long"},
    "Clonglong": {"int64_t", "long long"},
    "UInt64": {"uint64_t", "unsigned long long", "unsigned long"},
    "Csize_t": {"size_t"},
    "Cfloat": {"float"},
    "Cdouble": {"double"},
    "Float32": {"float"},
    "Float64": {"double"},
    "UInt8": {"uint8_t", "unsigned char", "char"},
    "Cchar": {"char"},
    "Cvoid": {"void"},
}


def _split_top(text):
    """Splits a comma-separated list at its top level ({} nest)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def _take_type(text, i):
    """(type text, index after it) for a Julia type starting at text[i]."""
    j, depth = i, 0
    while j < len(text):
        ch = text[j]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and ch in ",)":
            break
        j += 1
    return text[i:j].strip(), j


def julia_ccalls():
    """[(file:line, name, return type, [argument types])] of every ccall into libweft."""
    calls = []
    for path in sorted(JULIA_SRC.rglob("*.jl")):
        text = path.read_text()
        for m in CCALL.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if "#" in text[line_start:m.start()]:
                continue  # an example in a comment
            ret, j = _take_type(text, m.end())
            k = text.index("(", j)  # the argument type tuple
            depth, e = 0, k
            while True:
                if text[e] == "(":
                    depth += 1
                elif text[e] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                e += 1
            args = _split_top(text[k + 1:e])
            line = text.count("\n", 0, m.start()) + 1
            calls.append(("%s:%d" % (path.relative_to(ROOT), line), m.group(1), ret, args))
    return calls


def _c_shape(ctype):
    """(pointer depth, base type name) of a cffi ctype; enums are 'int'."""
    depth = 0
    while ctype.kind in ("pointer", "array"):
        depth += 1
        ctype = ctype.item
    if ctype.kind == "enum":
        return depth, "int"
    if ctype.kind == "struct":
        return depth, "struct"
    return depth, ctype.cname.replace("const ", "")


def _julia_shape(jtype):
    """(pointer depth, base Julia type) of a Julia ccall type."""
    depth = 0
    while True:
        m = re.fullmatch(r"(?:Ptr|Ref)\{(.*)\}", jtype)
        if not m:
            break
        depth += 1
        jtype = m.group(1).strip()
    if jtype == "Cstring":
        return depth + 1, "Cchar"
    return depth, jtype


def mismatch(jtype, ctype):
    """None when the Julia type passes ctype correctly, else why not."""
    jd, jbase = _julia_shape(jtype)
    cd, cbase = _c_shape(ctype)
    if jd >= 1 and jbase == "Cvoid":
        return None if cd >= 1 else "a pointer where C takes %s" % ctype.cname
    if jd != cd:
        return "%d pointer level(s) where C has %d (%s)" % (jd, cd, ctype.cname)
    if jbase not in SCALARS:
        return "unknown Julia type %s" % jbase
    if cbase == "struct":
        return "a %s where C has a struct (%s)" % (jbase, ctype.cname)
    if cbase not in SCALARS[jbase]:
        return "%s where C has %s" % (jbase, ctype.cname)
    return None


CALLS = julia_ccalls()


def test_the_julia_sources_were_read():
    assert len(CALLS) >= 40, "found only %d ccalls in %s" % (len(CALLS), JULIA_SRC)


@pytest.mark.parametrize("where,name,ret,args", CALLS, ids=["%s-%s" % (c[0], c[1]) for c in CALLS])
def test_ccall_matches_the_header(where, name, ret, args):
    fn = getattr(lib, name, None)
    assert fn is not None, "%s: %s is not a function of the C API header" % (where, name)
    ftype = ffi.typeof(fn)
    assert not ftype.ellipsis
    assert len(args) == len(ftype.args), "%s: %s takes %d arguments in C, the ccall passes %d types" % (
        where, name, len(ftype.args), len(args))
    problems = []
    why = mismatch(ret, ftype.result)
    if why:
        problems.append("return type: " + why)
    for i, (j, c) in enumerate(zip(args, ftype.args)):
        why = mismatch(j, c)
        if why:
            problems.append("argument %d (%s): %s" % (i + 1, j, why))
    assert not problems, "%s: %s: %s" % (where, name, "; ".join(problems))


def test_the_checker_catches_a_wrong_type():
    # the comparison itself: an Int64 for an int, a missing pointer level, a
    # non-pointer for a handle are refused; Ptr{Cvoid} for a handle is fine
    ftype = ffi.typeof(lib.weft_ndarray_create)  # (int64_t*, int, enum, enum, int, weft_ndarray**)
    assert mismatch("Ptr{Int64}", ftype.args[0]) is None
    assert mismatch("Int64", ftype.args[1]) is not None
    assert mismatch("Cint", ftype.args[2]) is None
    assert mismatch("Ptr{Cvoid}", ftype.args[5]) is None
    assert mismatch("Ref{Ptr{Cvoid}}", ftype.args[5]) is None
    assert mismatch("Ptr{Int32}", ftype.args[0]) is not None
    assert mismatch("Cint", ftype.args[5]) is not None
