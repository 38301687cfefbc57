"""Generates a Python function for every registry operator at import time.

Like MXNet's ``python/mxnet/ndarray/register.py``: the registry is the single
source of truth (``weft_op_list`` + ``weft_op_schema``), each op becomes a real
Python function (compiled from generated source, so tracebacks and
``inspect`` work) with ``__signature__`` listing the inputs, then the
parameters with their defaults, then keyword-only ``out=None`` and
``name=None``, and a numpydoc docstring built from the schema.

The generated body is lean: an ``is not None``/class test per input, an
``is not _Null`` test per parameter (only given attributes are sent, the core
applies its defaults), and one call of ``weft.ndarray.ndarray.invoke``.
Everything else (op handle, converters, names) is bound at import.
"""
# pylint: disable=protected-access,exec-used
import inspect
import json
import keyword

from ..base import ArgumentTypeError, op_handle, op_names, op_schema
from ..context import current_context
from .attr_text import _Null, attr_str, dtype_attr_str, shape_attr_str
from .ndarray_class import NDArray
from .op_call import invoke

_RESERVED = {"out", "name", "kwargs", "self"}

_PY_TYPE = {
    "int": "int",
    "float": "float",
    "boolean": "boolean",
    "string": "str",
    "enum": "{%s}",
    "tuple of int": "Shape(tuple)",
    "dtype": "dtype",
    "tuple of float": "tuple of float",
}


def _py_name(n, taken):
    p = n
    if not p.isidentifier() or keyword.iskeyword(p) or p in _RESERVED or p.startswith("_"):
        p = "p_" + "".join(c if c.isalnum() or c == "_" else "_" for c in n).lstrip("_")
    while p in taken:
        p += "_"
    taken.add(p)
    return p


def _parse_tuple(text, conv):
    t = text.strip()
    if t[:1] in "([" and t[-1:] in ")]":
        t = t[1:-1]
    items = [x.strip() for x in t.split(",") if x.strip()]
    return tuple(None if x in ("None", "none") else conv(x) for x in items)


def parse_default(p):
    """The Python value of a schema default (text); _Null for required params."""
    if p.get("required"):
        return _Null
    d = p.get("default")
    if d is None or d in ("None", "none"):
        return None
    t = p.get("type")
    try:
        if t == "int":
            return int(d)
        if t == "float":
            return float(d)
        if t == "boolean":
            return d in ("True", "true", "1")
        if t == "tuple of int":
            return _parse_tuple(d, int)
        if t == "tuple of float":
            return _parse_tuple(d, float)
    except ValueError:
        return d
    return d


def _converter(p):
    t = p.get("type")
    if t == "tuple of int":
        return shape_attr_str
    if t == "dtype":
        return dtype_attr_str
    return attr_str


def make_docstring(schema, func_name, in_names, par_names, variadic_name):
    doc = (schema.get("doc") or "").strip()
    lines = [doc if doc else "The %s operator." % schema["name"], ""]
    if func_name != schema["name"]:
        lines += ["Alias of ``%s``." % schema["name"], ""]
    lines += ["Parameters", "----------"]
    if variadic_name:
        lines += ["*%s : NDArray" % variadic_name,
                  "    The input arrays (their count sets ``%s``)." % schema["variadic"]]
    for n, py in zip(schema.get("inputs", []), in_names):
        lines += ["%s : NDArray" % py, "    Input '%s'." % n]
    for p, py in zip(schema.get("params", []), par_names):
        t = p.get("type", "")
        tt = _PY_TYPE.get(t, t)
        if t == "enum":
            tt = "{%s}" % ", ".join("'%s'" % a for a in p.get("allowed", []))
        if p.get("required"):
            head = "%s : %s, required" % (py, tt)
        else:
            head = "%s : %s, optional, default=%s" % (py, tt, p.get("default"))
        lines.append(head)
        pd = (p.get("doc") or "").strip()
        lines.append("    " + (pd.replace("\n", "\n    ") if pd else "(no description)"))
    lines += ["out : NDArray or list of NDArrays, optional",
              "    Arrays to write the outputs into (shapes and dtypes must match).",
              "name : str, optional",
              "    Ignored in imperative mode (kept for MXNet compatibility).",
              "", "Returns", "-------",
              "out : NDArray or list of NDArrays",
              "    The output(s) of this operator (``out`` itself when given)."]
    return "\n".join(lines) + "\n"


def _out_ctx(out):
    """The device of out= (an NDArray or a list of them), else the current context."""
    first = out[0] if isinstance(out, (list, tuple)) and out else out
    return first.context if isinstance(first, NDArray) else current_context()


def _make_helpers(opname, arg_names):
    def bad_input(py_name, value):
        raise ArgumentTypeError("%s: input '%s' must be an NDArray, got %s"
                                % (opname, py_name, type(value).__name__))

    def extra(kwargs, pieces):
        for k, v in kwargs.items():
            if k.startswith("__") and k.endswith("__"):
                pieces.append(k + "\0" + attr_str(v))  # hidden attribute (FORMATS.md B.5)
            else:
                raise ArgumentTypeError("%s: unknown argument '%s' (arguments are: %s)"
                                        % (opname, k, ", ".join(arg_names) or "none"))
    return bad_input, extra


def schema_arg_names(schema):
    """Python argument names for an op schema, shared by the NDArray and Symbol
    generators: (variadic, variadic_name, inputs, in_names, params, par_names, taken).
    A variadic op takes its inputs as *variadic_name and lists no fixed inputs."""
    taken = set()
    variadic = schema.get("variadic")
    inputs = list(schema.get("inputs") or [])
    params = list(schema.get("params") or [])
    if variadic:
        variadic_name = _py_name(inputs[0] if len(inputs) == 1 else "data", taken)
        in_names = []
        inputs = []
    else:
        variadic_name = None
        in_names = [_py_name(n, taken) for n in inputs]
    par_names = [_py_name(p["name"], taken) for p in params]
    return variadic, variadic_name, inputs, in_names, params, par_names, taken


def make_op_function(opname, func_name, schema, handle=None):
    """A Python function calling operator `opname` under the name func_name."""
    handle = handle if handle is not None else op_handle(opname)
    variadic, variadic_name, inputs, in_names, params, par_names, taken = schema_arg_names(schema)
    arg_names = ([variadic_name] if variadic else []) + in_names + par_names

    g = {"_ND": NDArray, "_Null": _Null, "_OP": handle, "_NAME": opname, "_invoke": invoke,
         "_cur_ctx": current_context, "_out_ctx": _out_ctx, "_tuple": tuple, "_list": list}
    g["_bad_input"], g["_extra"] = _make_helpers(opname, arg_names)

    src = []
    if variadic:
        head = ["*" + variadic_name] + ["%s=_Null" % n for n in par_names] + ["out=None", "name=None", "**kwargs"]
    else:
        head = ["%s=None" % n for n in in_names] + ["%s=_Null" % n for n in par_names]
        head += ["*", "out=None", "name=None", "**kwargs"]
    src.append("def %s(%s):" % (func_name if func_name.isidentifier() else "_op", ", ".join(head)))
    if variadic:
        v = variadic_name
        src.append("    if len(%s) == 1 and (%s[0].__class__ is _list or %s[0].__class__ is _tuple):" % (v, v, v))
        src.append("        %s = _tuple(%s[0])" % (v, v))
        src.append("    _ins = []")
        src.append("    for _x in %s:" % v)
        src.append("        if _x.__class__ is not _ND and not isinstance(_x, _ND):")
        src.append("            _bad_input(%r, _x)" % v)
        src.append("        _ins.append(_x.handle)")
    else:
        src.append("    _ins = []")
        for n in in_names:
            src.append("    if %s is not None:" % n)
            src.append("        if %s.__class__ is not _ND and not isinstance(%s, _ND):" % (n, n))
            src.append("            _bad_input(%r, %s)" % (n, n))
            src.append("        _ins.append(%s.handle)" % n)
    src.append("    _a = []")
    for j, (p, n) in enumerate(zip(params, par_names)):
        g["_cv%d" % j] = _converter(p)
        if variadic and p["name"] == variadic and p.get("required"):
            # A count with a default (num_weights=1) is not taken from the inputs (OpDef::VariadicCountFromInputs).
            src.append("    if %s is _Null:" % n)
            src.append("        %s = len(_ins)" % n)
        if p["name"] == "ctx" and not inputs and not variadic:
            # No inputs to take the device from: None or absent means the current context.
            src.append("    if %s is not _Null and %s is not None:" % (n, n))
            src.append("        _a.append(%r + _cv%d(%s))" % (p["name"] + "\0", j, n))
            src.append("    else:")
            src.append("        _a.append('ctx\\0' + str(_cur_ctx() if out is None else _out_ctx(out)))")
        else:
            src.append("    if %s is not _Null:" % n)
            src.append("        _a.append(%r + _cv%d(%s))" % (p["name"] + "\0", j, n))
    if variadic and variadic not in [p["name"] for p in params]:
        src.append("    _a.append(%r + str(len(_ins)))" % (variadic + "\0"))
    src.append("    if kwargs:")
    src.append("        _extra(kwargs, _a)")
    src.append("    return _invoke(_OP, _NAME, _ins, _a, out)")
    code = "\n".join(src) + "\n"
    exec(compile(code, "<weft.nd.%s>" % func_name, "exec"), g)
    fn = g[func_name if func_name.isidentifier() else "_op"]
    fn.__name__ = func_name
    fn.__qualname__ = func_name
    fn.__doc__ = make_docstring(schema, func_name, in_names, par_names, variadic_name)

    P = inspect.Parameter
    sig = []
    if variadic:
        sig.append(P(variadic_name, P.VAR_POSITIONAL))
        kind = P.KEYWORD_ONLY
    else:
        sig += [P(n, P.POSITIONAL_OR_KEYWORD, default=None) for n in in_names]
        kind = P.POSITIONAL_OR_KEYWORD
    sig += [P(n, kind, default=parse_default(p)) for p, n in zip(params, par_names)]
    sig += [P("out", P.KEYWORD_ONLY, default=None), P("name", P.KEYWORD_ONLY, default=None),
            P("kwargs", P.VAR_KEYWORD)]
    fn.__signature__ = inspect.Signature(sig)
    fn._weft_op = opname
    fn._weft_schema = schema
    fn._weft_source = code
    return fn


def generate_all():
    """{function name: function} for every canonical name and alias, plus the
    schemas by canonical name."""
    funcs = {}
    schemas = {}
    for opname in op_names():
        schema = json.loads(op_schema(opname))
        schemas[opname] = schema
        handle = op_handle(opname)
        for fname in [opname] + [a for a in schema.get("aliases", []) if a != opname]:
            if fname in funcs:
                continue
            funcs[fname] = make_op_function(opname, fname, schema, handle)
    return funcs, schemas
