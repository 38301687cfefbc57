"""Generates ``weft.sym.<Op>`` for every registry operator at import time.

As MXNet's ``python/mxnet/symbol/register.py`` and weft.nd's generator
(``weft.ndarray.register``): each operator (and alias) becomes a real Python
function compiled from generated source, with ``__signature__`` listing the
inputs (Symbols, default None), the parameters (schema defaults shown; only
the ones the caller gives are stored -- FORMATS.md B.2), then keyword-only
``name=None``, ``attr=None`` and ``out=None`` (ignored, as in MXNet).

Creating a node (``create``), as MXNet does:
  * attributes: the current AttrScope's merged with ``attr=``, then extra
    keyword arguments, then the parameters; values are ``str(value)`` (dtype
    parameters as numpy names); hidden keys are renamed ``ctx_group`` ->
    ``__ctx_group__``;
  * keyword arguments holding Symbols are inputs by name;
  * the name comes from ``weft.name``: ``name=`` or ``<function name lower-cased><n>``;
  * missing inputs become variables ``<name>_<input>`` (in the core);
  * input variables get the attributes their operator sets on compose, e.g.
    BatchNorm's moving mean / var the initialisers ``["zero", {}]`` /
    ``["one", {}]`` unless they have one (MXNet's FSetInputVarAttrOnCompose:
    the core's OpDef::set_input_var_attrs, applied in weft_symbol_compose).
"""
# pylint: disable=protected-access,exec-used
import inspect

from .. import attribute as _attribute
from .. import name as _name
from ..base import ArgumentTypeError, c_str, check_call, ffi, lib, op_handle
from ..ndarray.ndarray import _Null, dtype_attr_str
from ..ndarray.register import _PY_TYPE, parse_default, schema_arg_names
from .symbol import Symbol, _cstr_array, _handles, attr_text, creation_key

_NULL = ffi.NULL


def create(op, opname, hint, variadic, args, named, params, kwargs, name, attr):
    """Composes one operator node and returns its Symbol.

    args: positional Symbols (variadic operators); named: [(input name, Symbol)];
    params: [(parameter name, text)] the caller gave; kwargs: extra keyword
    arguments (Symbols are inputs by name, anything else an attribute)."""
    if name is not None and not isinstance(name, str):
        raise ArgumentTypeError("%s: name must be a str, got %s" % (opname, type(name).__name__))
    if attr is not None and not isinstance(attr, dict):
        raise ArgumentTypeError("%s: attr must be a dict of str, got %s" % (opname, type(attr).__name__))
    attrs = {}
    for k, v in _attribute.current().get(attr).items():
        attrs[creation_key(k, opname)] = attr_text(v)
    inputs = list(named)
    for k, v in kwargs.items():
        if isinstance(v, Symbol):
            inputs.append((k, v))
        elif v is not _Null:
            attrs[creation_key(k, opname)] = attr_text(v)
    for k, v in params:
        attrs[k] = v
    if variadic and variadic not in attrs:
        attrs[variadic] = str(len(args) + len(inputs))
    node_name = _name.current().get(name, hint)

    keys, keep_k = _cstr_array(list(attrs), "%s: attribute key" % opname)
    vals, keep_v = _cstr_array(list(attrs.values()), "%s: attribute value" % opname)
    kw_names, keep_n = _cstr_array([k for k, _ in inputs], "%s: input name" % opname)
    out = ffi.new("weft_symbol**")
    check_call(lib.weft_symbol_compose(op, c_str(node_name, "%s: name" % opname), len(attrs), keys, vals,
                                       len(args), _handles(args), len(inputs), kw_names,
                                       _handles([s for _, s in inputs]), out))
    del keep_k, keep_v, keep_n
    return Symbol(out[0])


def _converter(p):
    return dtype_attr_str if p.get("type") == "dtype" else attr_text


def make_docstring(schema, func_name, in_names, par_names, variadic_name):
    doc = (schema.get("doc") or "").strip()
    lines = [doc if doc else "The %s operator." % schema["name"], ""]
    if func_name != schema["name"]:
        lines += ["Alias of ``%s``." % schema["name"], ""]
    lines += ["Parameters", "----------"]
    if variadic_name:
        lines += ["*%s : Symbol" % variadic_name,
                  "    The input symbols (their count sets ``%s``)." % schema["variadic"]]
    for n, py in zip(schema.get("inputs", []), in_names):
        lines += ["%s : Symbol, optional" % py,
                  "    Input '%s' (a variable named ``<name>_%s`` is created when omitted)." % (n, n)]
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
    lines += ["name : str, optional",
              "    Name of the node (default: ``%s<n>`` from weft.name)." % func_name.lower(),
              "attr : dict of str to str, optional",
              "    Attributes of the node (added to the current weft.AttrScope's).",
              "", "Returns", "-------",
              "Symbol",
              "    The node's output(s)."]
    return "\n".join(lines) + "\n"


def _make_helpers(opname):
    def bad_input(py_name, value):
        raise ArgumentTypeError("%s: input '%s' must be a Symbol, got %s"
                                % (opname, py_name, type(value).__name__))
    return bad_input


def _count_param(variadic, params):
    """The variadic count parameter that create() fills from the inputs when omitted: one without a default
    (num_args), not one with a default (num_weights=1; OpDef::VariadicCountFromInputs)."""
    for p in params:
        if p["name"] == variadic and not p.get("required"):
            return None
    return variadic or None


def make_symbol_function(opname, func_name, schema, handle=None):
    """A Python function composing operator `opname` under the name func_name."""
    handle = handle if handle is not None else op_handle(opname)
    variadic, variadic_name, inputs, in_names, params, par_names, taken = schema_arg_names(schema)
    for reserved in ("name", "attr", "out"):
        taken.add(reserved)

    g = {"_Sym": Symbol, "_Null": _Null, "_OP": handle, "_NAME": opname, "_HINT": func_name.lower(),
         "_VARIADIC": _count_param(variadic, params), "_create": create, "_bad_input": _make_helpers(opname),
         "_tuple": tuple, "_list": list}
    src = []
    if variadic:
        head = ["*" + variadic_name] + ["%s=_Null" % n for n in par_names]
    else:
        head = ["%s=None" % n for n in in_names] + ["%s=_Null" % n for n in par_names] + ["*"]
    head += ["name=None", "attr=None", "out=None", "**kwargs"]
    fname = func_name if func_name.isidentifier() else "_op"
    src.append("def %s(%s):" % (fname, ", ".join(head)))
    if variadic:
        v = variadic_name
        src.append("    if len(%s) == 1 and (%s[0].__class__ is _list or %s[0].__class__ is _tuple):" % (v, v, v))
        src.append("        %s = _tuple(%s[0])" % (v, v))
        src.append("    for _x in %s:" % v)
        src.append("        if not isinstance(_x, _Sym):")
        src.append("            _bad_input(%r, _x)" % v)
        src.append("    _args = _list(%s)" % v)
    else:
        src.append("    _args = ()")
    src.append("    _in = []")
    for real, n in zip(inputs, in_names):
        src.append("    if %s is not None:" % n)
        src.append("        if not isinstance(%s, _Sym):" % n)
        src.append("            _bad_input(%r, %s)" % (n, n))
        src.append("        _in.append((%r, %s))" % (real, n))
    src.append("    _a = []")
    for j, (p, n) in enumerate(zip(params, par_names)):
        g["_cv%d" % j] = _converter(p)
        src.append("    if %s is not _Null:" % n)
        src.append("        _a.append((%r, _cv%d(%s)))" % (p["name"], j, n))
    src.append("    return _create(_OP, _NAME, _HINT, _VARIADIC, _args, _in, _a, kwargs, name, attr)")
    code = "\n".join(src) + "\n"
    exec(compile(code, "<weft.sym.%s>" % func_name, "exec"), g)
    fn = g[fname]
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
    sig += [P("name", P.KEYWORD_ONLY, default=None), P("attr", P.KEYWORD_ONLY, default=None),
            P("out", P.KEYWORD_ONLY, default=None), P("kwargs", P.VAR_KEYWORD)]
    fn.__signature__ = inspect.Signature(sig)
    fn._weft_op = opname
    fn._weft_schema = schema
    fn._weft_source = code
    return fn


def generate_all(schemas):
    """{function name: function} for every canonical name and alias of schemas
    ({canonical name: schema dict}, e.g. weft.nd.SCHEMAS)."""
    funcs = {}
    for opname in sorted(schemas):
        schema = schemas[opname]
        handle = op_handle(opname)
        for fname in [opname] + [a for a in schema.get("aliases", []) if a != opname]:
            if fname in funcs:
                continue
            funcs[fname] = make_symbol_function(opname, fname, schema, handle)
    return funcs
