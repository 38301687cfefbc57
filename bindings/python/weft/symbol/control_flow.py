"""Symbolic control flow: ``weft.sym.contrib.foreach``, ``while_loop`` and ``cond``.

As in MXNet 1.9.1 (``mx.sym.contrib``), each calls the user's Python function
once on fresh symbol variables inside ``AttrScope(__subgraph_name__=...)``,
cuts the resulting graph from the graph around it (an entry of an outer,
unmarked operator becomes a subgraph input; Note [Subgraph operators] in
core/op/control/subgraph_ops.h) and composes one ``_foreach``, ``_while_loop``
or ``_cond`` node carrying the subgraph(s), with MXNet's attributes
(``in_data_locs``, ``cond_input_locs``, ...). A hybridized HybridBlock whose
hybrid_forward calls ``F.contrib.foreach`` builds the same node.
"""
import collections
import threading

from .. import _nest
from .. import attribute as _attribute
from .. import name as _name
from ..base import InvalidArgumentError, c_str, check_call, ffi, lib, op_handle
from . import op
from .symbol import Symbol, _cstr_array, _handles, Group, var

__all__ = ["foreach", "while_loop", "cond"]


def _flatten(args, what):
    return _nest.flatten(args, Symbol, what)


_regroup = _nest.regroup

_NAMES = threading.local()


def _unique_subgraph_name(name):
    """MXNet's _get_unique_subgraph_name: name + a per-name counter, nested under
    an enclosing subgraph's name."""
    counts = getattr(_NAMES, "counts", None)
    if counts is None:
        counts = _NAMES.counts = collections.Counter()
    outer = _attribute.current().get(None).get("__subgraph_name__", "")
    if outer:
        name = outer + "$" + name
    counts[name] += 1
    return name + str(counts[name] - 1)




def _marked(sym, name):
    return sym.list_attr().get("__subgraph_name__", "") == name


def _subgraph(outputs, name):
    """Group of outputs; one that is a graph input or built outside the
    function goes through identity (MXNet: a subgraph's outputs are its own nodes)."""
    inputs = set(Group(outputs).list_inputs()) if outputs else set()
    seen = set()
    flat = []
    with _attribute.AttrScope(__subgraph_name__=name):
        for o in outputs:
            key = o.list_outputs()[0]
            if o.name in inputs or not _marked(o, name) or key in seen:
                o = op.identity(o)
            seen.add(key)
            flat.append(o)
    return Group(flat)


def _cut(graph, name):
    """(the subgraph cut out, {input name: the outer symbol feeding it})."""
    cut = ffi.new("weft_symbol**")
    n = ffi.new("int*")
    handles = ffi.new("weft_symbol***")
    check_call(lib.weft_symbol_cut_subgraph(graph.handle, c_str(name, "subgraph marker"), cut, n, handles))
    outer = [Symbol(handles[0][i]) for i in range(n[0])]
    g = Symbol(cut[0])
    return g, dict(zip(g.list_inputs(), outer))


def _compose(opname, graphs, inputs, params):
    attrs = dict(_attribute.current().get(None))
    for k, v in params.items():
        attrs[k] = str(list(v)) if isinstance(v, (list, tuple)) else str(v)
    node_name = _name.current().get(None, opname)
    keys, keep_k = _cstr_array(list(attrs))
    vals, keep_v = _cstr_array(list(attrs.values()))
    out = ffi.new("weft_symbol**")
    check_call(lib.weft_symbol_compose_subgraph(op_handle(opname), c_str(node_name, "%s: name" % opname), len(attrs), keys,
                                                vals, len(graphs), _handles(graphs), len(inputs),
                                                _handles(inputs), out))
    del keep_k, keep_v
    return Symbol(out[0])


def _check_symbols(flat, what):
    for s in flat:
        if not isinstance(s, Symbol):
            raise InvalidArgumentError("%s should be a symbol or a nested list of symbols, got %s"
                                       % (what, type(s).__name__))


def foreach(body, data, init_states, name="foreach"):
    """Runs ``out, states = body(data_i, states)`` over axis 0 of data, as one
    ``_foreach`` node (MXNet's ``mx.sym.contrib.foreach``).

    data: a Symbol or a list of Symbols; init_states: a Symbol or nested lists
    of Symbols. Returns (outputs, states): body's outputs stacked along a new
    axis 0, and the states after the last step, in body's structure.

    >>> step = lambda data, states: (data + states[0], [states[0] * 2])
    >>> outs, states = foreach(step, sym.var('data'), [sym.var('state')])
    """
    flat_data, data_fmt = _flatten(data, "foreach input")
    _check_symbols(flat_data, "data")
    flat_init, init_fmt = _flatten(init_states, "foreach states")
    _check_symbols(flat_init, "init_states")
    if not flat_data:
        raise InvalidArgumentError("foreach: data should be a symbol or a non-empty list of symbols")
    name = _unique_subgraph_name(name)
    with _attribute.AttrScope(__subgraph_name__=name):
        in_eles, _ = _regroup([var(s.name) for s in flat_data], data_fmt)
        states, _ = _regroup([var(s.name) for s in flat_init], init_fmt)
        result = body(in_eles, states)
        if not isinstance(result, (list, tuple)) or len(result) != 2:
            raise InvalidArgumentError("foreach: body must return a pair (outputs, states)")
        flat_out, out_fmt = _flatten(result[0], "foreach output")
        flat_new, state_fmt = _flatten(result[1], "foreach loop_vars")
        if state_fmt != init_fmt:
            raise InvalidArgumentError("foreach: the input and output loop_vars have different format")
    g, outer = _cut(_subgraph(flat_out + flat_new, name), name)
    names = g.list_inputs()
    data_names = [s.name for s in flat_data]
    state_names = [s.name for s in flat_init]
    for what, group in (("data", data_names), ("state", state_names)):
        for n in group:
            if n not in names:
                raise InvalidArgumentError("foreach: the %s arrays have to be used in the loop body (%s is not)"
                                           % (what, n))
    in_data_locs = [names.index(n) for n in data_names]
    in_state_locs = [names.index(n) for n in state_names]
    ordered = list(flat_data) + list(flat_init)
    remain_locs = []
    for i, n in enumerate(names):
        if n not in data_names and n not in state_names:
            ordered.append(outer[n])
            remain_locs.append(i)
    num_outputs = len(flat_out) + len(flat_new)
    ret = _compose("_foreach", [g], ordered,
                   {"num_args": len(ordered) + 1, "num_outputs": num_outputs, "num_out_data": len(flat_out),
                    "in_state_locs": in_state_locs, "in_data_locs": in_data_locs, "remain_locs": remain_locs})
    outs, _ = _regroup([ret[i] for i in range(len(flat_out))], out_fmt)
    new_states, _ = _regroup([ret[len(flat_out) + j] for j in range(len(flat_new))], state_fmt)
    return outs, new_states


def _union_inputs(graphs, fresh):
    """MXNet's _union_inputs: the node inputs (by name: a fresh variable maps
    to its symbol in `fresh`, any other input to the outer symbol feeding it)
    and, per graph, the node input of each graph input."""
    inputs, where, locs = [], {}, []
    for g, outer in graphs:
        graph_locs = []
        for n in g.list_inputs():
            if n not in where:
                where[n] = len(inputs)
                inputs.append(fresh[n] if n in fresh else outer[n])
            graph_locs.append(where[n])
        locs.append(graph_locs)
    return inputs, locs


def _to_int(value, what):
    if hasattr(value, "asscalar"):
        value = value.asscalar()
    try:
        return int(value)
    except Exception:  # pylint: disable=broad-except
        raise InvalidArgumentError("Cannot convert %s to python int" % what) from None


def while_loop(cond, func, loop_vars, max_iterations=None, name="while_loop"):  # pylint: disable=redefined-outer-name
    """Runs ``step_output, loop_vars = func(*loop_vars)`` while
    ``cond(*loop_vars)`` holds, at most max_iterations times, as one
    ``_while_loop`` node (MXNet's ``mx.sym.contrib.while_loop``).

    Returns (outputs, final loop_vars): the step outputs stacked along axis 0,
    always max_iterations rows (the rows after the last step are zeros; MXNet
    leaves them undefined), and the loop variables after the last step.

    >>> cond = lambda i, s: i <= 5
    >>> func = lambda i, s: ([i + s], [i + 1, s + i])
    >>> outs, (i, s) = while_loop(cond, func, (sym.var('i'), sym.var('s')), max_iterations=10)
    """
    if max_iterations is None:
        raise InvalidArgumentError("while_loop: max_iterations should be specified")
    max_iterations = _to_int(max_iterations, "max_iteration")
    flat_vars, var_fmt = _flatten(loop_vars, "while loop_vars")
    _check_symbols(flat_vars, "loop_vars")
    if not flat_vars:
        raise InvalidArgumentError("while_loop: loop_vars should contain at least one element")

    def build(subgraph_name, fn):
        subgraph_name = _unique_subgraph_name(subgraph_name)
        with _attribute.AttrScope(__subgraph_name__=subgraph_name):
            fresh, _ = _regroup([var(s.name) for s in flat_vars], var_fmt)
            outs, new_vars = fn(fresh if isinstance(fresh, list) else [fresh])
        return _cut(_subgraph(outs + new_vars, subgraph_name), subgraph_name), outs, new_vars

    def cond_fn(vs):
        pred = cond(*vs)
        if not isinstance(pred, Symbol):
            raise InvalidArgumentError("while_loop: the return of cond must be a Symbol")
        return [pred], []

    fmts = {}

    def func_fn(vs):
        step_output, new_vars = func(*vs)
        step_output = [] if step_output is None else step_output
        new_vars = [] if new_vars is None else new_vars
        flat_out, fmts["out"] = _flatten(list(step_output) if isinstance(step_output, tuple) else step_output,
                                         "while output")
        flat_new, fmts["var"] = _flatten(list(new_vars) if isinstance(new_vars, tuple) else new_vars,
                                         "while loop_vars")
        if len(flat_new) != len(flat_vars):
            raise InvalidArgumentError("while_loop: the number of loop_vars should be consistent during the loop")
        return flat_out, flat_new

    (cond_g, cond_outer), _, _ = build(name + "_cond", cond_fn)
    (func_g, func_outer), flat_out, flat_new = build(name + "_func", func_fn)
    fresh = {s.name: s for s in flat_vars}
    inputs, (cond_locs, func_locs) = _union_inputs([(cond_g, cond_outer), (func_g, func_outer)], fresh)
    func_names = func_g.list_inputs()
    func_var_locs = []
    for i, s in enumerate(flat_vars, 1):
        if s.name not in func_names:
            raise InvalidArgumentError("while_loop: the %d-th loop_var doesn't involve into the computation" % i)
        func_var_locs.append(func_names.index(s.name))
    num_outputs = len(flat_out) + len(flat_new)
    ret = _compose("_while_loop", [cond_g, func_g], inputs,
                   {"num_args": len(inputs) + 2, "num_outputs": num_outputs, "num_out_data": len(flat_out),
                    "max_iterations": max_iterations, "cond_input_locs": cond_locs,
                    "func_input_locs": func_locs, "func_var_locs": func_var_locs})
    outs, _ = _regroup([ret[i] for i in range(len(flat_out))], fmts["out"])
    final, _ = _regroup([ret[len(flat_out) + k] for k in range(len(flat_new))], fmts["var"])
    return outs, final


def cond(pred, then_func, else_func, name="cond"):
    """Runs then_func() or else_func() as the scalar symbol pred says, as one
    ``_cond`` node (MXNet's ``mx.sym.contrib.cond``). Both functions return a
    Symbol or nested lists of Symbols of the same structure, shapes and dtypes.

    >>> a, b = sym.var('a'), sym.var('b')
    >>> out = cond(a * b < 5, lambda: (a + 5) * (b + 5), lambda: (a - 5) * (b - 5))
    """
    if not isinstance(pred, Symbol):
        raise InvalidArgumentError("cond: pred must be a Symbol, got %s" % type(pred).__name__)

    def build(subgraph_name, fn):
        subgraph_name = _unique_subgraph_name(subgraph_name)
        with _attribute.AttrScope(__subgraph_name__=subgraph_name):
            flat, fmt = _flatten(fn(), "cond outputs")
        return _cut(_subgraph(flat, subgraph_name), subgraph_name), len(flat), fmt

    (cond_g, cond_outer), n_pred, _ = build(name + "_pred", lambda: pred)
    if n_pred != 1:
        raise InvalidArgumentError("cond: pred should always be a single output")
    (then_g, then_outer), n_then, then_fmt = build(name + "_then", then_func)
    (else_g, else_outer), n_else, _ = build(name + "_else", else_func)
    if n_then != n_else:
        raise InvalidArgumentError("cond: number of outputs differs between then-branch and else-branch")
    inputs, (cond_locs, then_locs, else_locs) = _union_inputs(
        [(cond_g, cond_outer), (then_g, then_outer), (else_g, else_outer)], {})
    ret = _compose("_cond", [cond_g, then_g, else_g], inputs,
                   {"num_args": len(inputs) + 3, "num_outputs": n_then, "cond_input_locs": cond_locs,
                    "then_input_locs": then_locs, "else_input_locs": else_locs})
    outs, _ = _regroup([ret[i] for i in range(n_then)], then_fmt)
    return outs
