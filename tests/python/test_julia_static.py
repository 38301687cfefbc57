"""Static checks of the Julia package bindings/julia (Weft.jl).

No machine of this project has Julia, so the package cannot be run here. This
test checks what can be checked without it:

* every ``ccall((:weft_xxx, libweft()), Ret, (ArgTypes...), args...)`` in
  bindings/julia/src names a function declared in capi/include/weft/c_api.h,
  passes as many argument types and values as the C declaration has
  parameters, and each Julia type has the C type's shape (Cint for int,
  Int64 for int64_t, Csize_t for size_t, Cint for the ABI's int-sized enums
  (enum weft_dtype, enum weft_dev_type), Ptr/Ref depth matching the pointer
  depth, Cvoid behind pointers to opaque handles, UInt8/Cstring for char);
* every file included from Weft.jl and runtests.jl exists, and every source
  file is included;
* every exported name is defined;
* each .jl file has balanced brackets and as many block openers (function,
  if, for, struct, begin, do, ...) as ``end``s outside brackets, strings and
  comments.

It needs neither the library nor Julia.
"""
import os
import re

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
JULIA = os.path.join(ROOT, "bindings", "julia")
SRC = os.path.join(JULIA, "src")
TEST = os.path.join(JULIA, "test")
HEADER = os.path.join(ROOT, "capi", "include", "weft", "c_api.h")


# ---- the C header ---------------------------------------------------------------------------------
def parse_header(path=HEADER):
    """{name: (return type, [parameter types])} of the WEFT_API functions."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    decls = {}
    for m in re.finditer(r"WEFT_API\s+([^;(]*?)\b(weft_\w+)\s*\(([^)]*)\)\s*;", text, flags=re.S):
        ret, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
        types = []
        if params and params != "void":
            for p in params.split(","):
                p = " ".join(p.split())
                # drop the parameter name (the last identifier)
                pm = re.match(r"(.*?)(\w+)$", p)
                types.append(pm.group(1).strip() if pm and pm.group(1).strip() else p)
        decls[name] = (" ".join(ret.split()), types)
    return decls


def c_shape(ctype):
    """(pointer depth, base) of a C type: 'const int64_t* const**' -> (3, 'int64_t')."""
    t = ctype.replace("const", " ").strip()
    if re.match(r"enum\s+weft_\w+", t):  # the ABI's enums are int-sized: Cint in Julia
        t = re.sub(r"enum\s+weft_\w+", "int", t)
    depth = t.count("*")
    base = t.replace("*", " ").split()
    base = base[-1] if base else ""
    if base.startswith("weft_") and base != "weft_storage_stats":
        base = "opaque"
    if base.startswith("weft_") or base.endswith("_fn"):
        base = "opaque" if base != "weft_storage_stats" else base
    return depth, base


# Julia leaf types and the C base types they may stand for.
JULIA_BASE = {
    "Cint": {"int"}, "Int32": {"int"}, "Int64": {"int64_t"}, "UInt64": {"uint64_t"},
    "Csize_t": {"size_t"}, "UInt": {"size_t"}, "Cvoid": {"void", "opaque"},
    "UInt8": {"char"}, "Cchar": {"char"},
}


def julia_shape(jtype):
    """(pointer depth, set of C bases) of a Julia ccall type; Cstring is char*."""
    t = jtype.replace(" ", "")
    depth = 0
    while True:
        m = re.match(r"^(Ptr|Ref)\{(.*)\}$", t)
        if not m:
            break
        depth += 1
        t = m.group(2)
    if t == "Cstring":
        return depth + 1, {"char"}
    if t not in JULIA_BASE:
        return depth, {"?" + t}
    return depth, JULIA_BASE[t]


# ---- Julia sources: strings and comments blanked out ----------------------------------------------
class JuliaScanError(Exception):
    pass


def _skip_string(s, i, out):
    """s[i] starts a string literal (" or \"\"\"); appends blanks for it, returns the index after it."""
    triple = s.startswith('"""', i)
    delim = '"""' if triple else '"'
    out.append('""')
    j = i + len(delim)
    while j < len(s):
        if s[j] == "\\":
            j += 2
            continue
        if s.startswith(delim, j):
            return j + len(delim)
        if s.startswith("$(", j):
            # interpolated code may hold strings of its own
            j = _skip_code_until_close(s, j + 2)
            continue
        j += 1
    raise JuliaScanError("unterminated string starting at offset %d" % i)


def _skip_code_until_close(s, j):
    depth = 1
    sink = []
    while j < len(s):
        c = s[j]
        if c == '"':
            j = _skip_string(s, j, sink)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise JuliaScanError("unterminated interpolation")


def strip_julia(s):
    """The code of s with string literals replaced by "" and comments by a space."""
    out = []
    i = 0
    prev = ""
    while i < len(s):
        c = s[i]
        if s.startswith("#=", i):
            end = s.find("=#", i + 2)
            if end < 0:
                raise JuliaScanError("unterminated #= comment")
            out.append(" ")
            i = end + 2
            continue
        if c == "#":
            end = s.find("\n", i)
            i = len(s) if end < 0 else end
            continue
        if c == '"':
            i = _skip_string(s, i, out)
            prev = '"'
            continue
        if c == "'" and not (prev.isalnum() or prev in "_)]}'."):
            # a character literal ('a', '\n', '\''); otherwise ' is the adjoint operator
            m = re.match(r"'(\\.[^']*|[^\\'])'", s[i:])
            if not m:
                raise JuliaScanError("bad character literal at offset %d" % i)
            out.append("' '")
            i += m.end()
            prev = "'"
            continue
        out.append(c)
        if not c.isspace():
            prev = c
        i += 1
    return "".join(out)


def split_top_level(s):
    """Splits s at commas (and semicolons) outside brackets."""
    parts, depth, cur = [], 0, []
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c in ",;" and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def matching_paren(s, i):
    """Index of the bracket closing the one at s[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    for j in range(i, len(s)):
        c = s[j]
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                raise JuliaScanError("mismatched '%s' at offset %d" % (c, j))
            if not stack:
                return j
    raise JuliaScanError("unclosed bracket at offset %d" % i)


def julia_files(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".jl"))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def ccalls(code):
    """[(function name, return type, [arg types], number of values, offset)] of the
    ccall((:weft_..., lib), ...) calls in stripped code."""
    out = []
    for m in re.finditer(r"\bccall\s*\(", code):
        open_at = m.end() - 1
        close_at = matching_paren(code, open_at)
        parts = split_top_level(code[open_at + 1:close_at])
        nm = re.match(r"^\(\s*:(\w+)\s*,", parts[0]) if parts else None
        if not nm or not nm.group(1).startswith("weft_"):
            continue  # calls into Julia's runtime (jl_generating_output)
        types = parts[2].strip()
        if not (types.startswith("(") and types.endswith(")")):
            raise AssertionError("ccall of %s: the argument types must be a literal tuple, got %r"
                                 % (nm.group(1), types))
        arg_types = split_top_level(types[1:-1])
        out.append((nm.group(1), parts[1].strip(), arg_types, len(parts) - 3, m.start()))
    return out


# ---- tests ----------------------------------------------------------------------------------------
DECLS = parse_header()
SOURCES = {os.path.basename(p): read(p) for p in julia_files(SRC)}
STRIPPED = {name: strip_julia(text) for name, text in SOURCES.items()}
ALL_CCALLS = [(f, c) for f, code in STRIPPED.items() for c in ccalls(code)]


def test_header_parsed():
    assert "weft_op_invoke" in DECLS and "weft_symbol_infer_shape" in DECLS
    assert len(DECLS["weft_symbol_infer_shape"][1]) == 17
    assert DECLS["weft_last_error"] == ("const char*", [])


def test_the_binding_calls_the_library():
    names = {c[0] for _, c in ALL_CCALLS}
    # the core of the binding: arrays, operators, symbols, executors, files
    for needed in ("weft_ndarray_create", "weft_ndarray_copy_from_host", "weft_ndarray_copy_to_host",
                   "weft_ndarray_free", "weft_op_list", "weft_op_schema", "weft_op_invoke",
                   "weft_symbol_compose", "weft_symbol_infer_shape", "weft_symbol_to_json",
                   "weft_symbol_from_json", "weft_executor_bind", "weft_executor_forward",
                   "weft_executor_backward", "weft_ndarray_save", "weft_ndarray_load", "weft_last_error"):
        assert needed in names, "bindings/julia/src never calls %s" % needed


@pytest.mark.parametrize("fname,call", ALL_CCALLS, ids=lambda v: v if isinstance(v, str) else v[0])
def test_ccall_matches_the_header(fname, call):
    name, ret, arg_types, nvalues, _ = call
    assert name in DECLS, "%s: ccall of %s, which c_api.h does not declare" % (fname, name)
    c_ret, c_params = DECLS[name]
    where = "%s: ccall of %s" % (fname, name)
    assert len(arg_types) == len(c_params), "%s passes %d argument types, C declares %d (%s)" % (
        where, len(arg_types), len(c_params), ", ".join(c_params))
    assert nvalues == len(arg_types), "%s has %d argument types but %d values" % (where, len(arg_types), nvalues)
    # return type
    c_depth, c_base = c_shape(c_ret)
    j_depth, j_bases = julia_shape(ret)
    assert (c_depth, True) == (j_depth, c_base in j_bases), "%s returns %s, declared %s" % (where, ret, c_ret)
    for k, (jt, ct) in enumerate(zip(arg_types, c_params)):
        c_depth, c_base = c_shape(ct)
        j_depth, j_bases = julia_shape(jt)
        assert c_depth == j_depth, "%s: argument %d is %s, C declares %s (pointer depth %d vs %d)" % (
            where, k + 1, jt, ct, j_depth, c_depth)
        assert c_base in j_bases, "%s: argument %d is %s, C declares %s" % (where, k + 1, jt, ct)


def test_included_files_exist_and_every_source_is_included():
    main = STRIPPED["Weft.jl"]
    included = re.findall(r'\binclude\(\s*""\s*\)', main)
    # strings are blanked in STRIPPED; read the names from the raw text
    names = re.findall(r'^\s*include\("([^"]+)"\)', SOURCES["Weft.jl"], flags=re.M)
    assert len(names) == len(included) and names
    for n in names:
        assert os.path.isfile(os.path.join(SRC, n)), "Weft.jl includes %s, which does not exist" % n
    orphans = set(SOURCES) - set(names) - {"Weft.jl"}
    assert not orphans, "source files never included from Weft.jl: %s" % ", ".join(sorted(orphans))
    tests = re.findall(r'^\s*include\("([^"]+)"\)', read(os.path.join(TEST, "runtests.jl")), flags=re.M)
    assert tests
    for n in tests:
        assert os.path.isfile(os.path.join(TEST, n)), "runtests.jl includes %s, which does not exist" % n
    orphans = {os.path.basename(p) for p in julia_files(TEST)} - set(tests) - {"runtests.jl"}
    assert not orphans, "test files never included from runtests.jl: %s" % ", ".join(sorted(orphans))


def test_exported_names_are_defined():
    code = "\n".join(STRIPPED.values())
    exported = []
    for line in re.findall(r"^\s*export\s+([^\n]+)", STRIPPED["Weft.jl"], flags=re.M):
        exported += [n.strip() for n in line.split(",") if n.strip()]
    assert exported
    for n in exported:
        pat = (r"(\bfunction\s+(Base\.)?%s\b|^\s*(const\s+)?%s\s*(\(.*\))?\s*=|\bstruct\s+%s\b)"
               % (re.escape(n), re.escape(n), re.escape(n)))
        assert re.search(pat, code, flags=re.M), "exported name %s is not defined in bindings/julia/src" % n


BLOCK_OPENERS = ("function", "if", "for", "while", "begin", "let", "quote", "struct", "module", "baremodule",
                 "try", "do", "macro")


def block_balance(code):
    """(openers, ends) counted outside brackets, as whole words."""
    openers = ends = 0
    depth = 0
    for m in re.finditer(r"[()\[\]{}]|(?<![\w.:@])(abstract\s+type|primitive\s+type|mutable\s+struct|[A-Za-z_]\w*)",
                         code):
        tok = m.group(0)
        if tok in "([{":
            depth += 1
            continue
        if tok in ")]}":
            depth -= 1
            continue
        if depth:
            continue
        word = " ".join(tok.split())
        if word in ("abstract type", "primitive type", "mutable struct") or word in BLOCK_OPENERS:
            openers += 1
        elif word == "end":
            ends += 1
    return openers, ends


ALL_JL = julia_files(SRC) + julia_files(TEST)


@pytest.mark.parametrize("path", ALL_JL, ids=os.path.basename)
def test_julia_file_is_balanced(path):
    code = strip_julia(read(path))
    stack = []
    pairs = {"(": ")", "[": "]", "{": "}"}
    for k, c in enumerate(code):
        if c in pairs:
            stack.append((pairs[c], k))
        elif c in ")]}":
            assert stack and stack[-1][0] == c, "%s: unbalanced '%s' at line %d" % (
                os.path.basename(path), c, code.count("\n", 0, k) + 1)
            stack.pop()
    assert not stack, "%s: unclosed bracket from line %d" % (os.path.basename(path),
                                                              code.count("\n", 0, stack[-1][1]) + 1)
    openers, ends = block_balance(code)
    assert openers == ends, "%s: %d block openers but %d 'end's" % (os.path.basename(path), openers, ends)


def _tree_sitter_errors(parser, source):
    """[(line, text)] of the ERROR and missing nodes of a parse."""
    out = []
    stack = [parser.parse(source).root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            line = node.start_point[0] + 1
            out.append((line, source.splitlines()[line - 1].decode("utf-8", "replace").strip()))
        stack.extend(node.children)
    return sorted(out)


@pytest.mark.parametrize("path", ALL_JL, ids=os.path.basename)
def test_julia_file_parses(path):
    """A full Julia parse (tree-sitter's grammar), when tree-sitter-julia is installed."""
    tsj = pytest.importorskip("tree_sitter_julia", reason="the Julia grammar for this check comes from the pip "
                              "packages tree-sitter and tree-sitter-julia, which are not installed")
    import tree_sitter  # pylint: disable=import-outside-toplevel
    parser = tree_sitter.Parser(tree_sitter.Language(tsj.language()))
    with open(path, "rb") as f:
        errs = _tree_sitter_errors(parser, f.read())
    assert not errs, "%s does not parse as Julia: %s" % (os.path.basename(path), errs[:5])


def test_scanner_catches_mistakes():
    # the checks above must be able to fail
    assert block_balance(strip_julia("function f(x)\n  if x\n 1\n end\n")) == (2, 1)
    assert block_balance(strip_julia('f(x) = [y for y in x if y > 0][end]\n')) == (0, 0)
    assert block_balance(strip_julia('s = "function $(join(["a", "if"], ", ")) end"\n')) == (0, 0)
    assert block_balance(strip_julia("abstract type A end\nmutable struct B\n x\nend\n")) == (2, 2)
    calls = ccalls(strip_julia('ccall((:weft_wait_all, libweft()), Cint, (Cint,), 1)'))
    assert calls[0][0] == "weft_wait_all" and calls[0][2] == ["Cint"] and calls[0][3] == 1
    assert julia_shape("Ref{Ptr{Ptr{Cvoid}}}") == (3, {"void", "opaque"})
    assert c_shape("const int64_t* const**") == (3, "int64_t")
    assert c_shape("weft_ndarray* const*") == (2, "opaque")
    with pytest.raises(JuliaScanError):
        strip_julia('x = "unterminated\n')
