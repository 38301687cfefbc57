"""Block additions of MXNet 1.9.1 kept out of block.py: ``HybridBlock.register_op_hook``
(Note [Op hooks]) and ``Block.save`` / ``Block.load`` (Note [Block save format]).

Block and HybridBlock take these methods from the mixins here.

Note [Op hooks]
    MXNet's ``register_op_hook(callback, monitor_all=False)`` has the cached op
    call ``callback(name, op_name, array)`` for the output of every operator
    of the hybridized graph (``name`` is the output's, e.g.
    ``dense0_fwd_output``), and with ``monitor_all`` first for each of the
    operator's inputs (``dense0_fwd_data``, ``dense0_fwd_weight`` ...), in the
    order the operators run. Weft's executor returns only the graph's outputs,
    so a hooked block builds its CachedOp over the graph's outputs followed by
    every operator output (the same single graph, its intermediates kept
    alive) and hands those to the callback after each call; the block's
    callers get only the real outputs. Hooks apply from the next call (the
    cached op is rebuilt) to hybridized blocks, as in MXNet.

Note [Block save format]
    ``save(prefix)`` writes ``prefix-model.json`` and ``prefix-model.params``
    (``save_parameters``). The JSON is a tree with one entry per block, keyed
    by its lower-cased class name and its position among its siblings
    (``hybridsequential0`` -> ``dense0``, ``dense1``): ``{"class": name,
    "hybridized": bool, "params": {attribute: parameter name}, "children":
    {...}}``, and for a hybridized block whose graph was built, ``"symbol"``
    (the graph's JSON), ``"inputs"`` (its input variable names),
    ``"in_format"`` / ``"out_format"``. ``load(prefix)`` walks the same tree
    over a block built by the same code: it checks every block's class,
    restores the hybridized blocks' graphs (they run the saved graph from the
    next call) and loads the parameters. Nothing in the files is executed.
"""
import json
import os
import re

from .. import ndarray
from .. import symbol as _symbol
from ..base import ArgumentTypeError, InternalError, InvalidArgumentError
from ..cached_op import CachedOp

__all__ = ["OpHookMixin", "BlockPersistenceMixin"]

_OUTPUT_NAME = re.compile(r"^(.*)_output\d*$")


class _MonitoredCachedOp:
    """A CachedOp over the graph's outputs and every operator output, which
    calls the op hook after each run (Note [Op hooks])."""

    def __init__(self, out, flags, callback, monitor_all):
        self._callback = callback
        self._monitor_all = monitor_all
        self._num_outputs = len(out)
        out_names = out.list_outputs()
        internals = out.get_internals()
        internal_names = internals.list_outputs()
        nodes = json.loads(out.tojson())["nodes"]
        ops = {n["name"]: n["op"] for n in nodes}
        # one entry per operator output: (name, op, index into the results)
        extra, self._entries, where = [], [], {}
        for i, name in enumerate(internal_names):
            match = _OUTPUT_NAME.match(name)
            if match is None or ops.get(match.group(1), "null") == "null":
                continue
            if name in out_names:
                where[name] = out_names.index(name)
            else:
                where[name] = self._num_outputs + len(extra)
                extra.append(internals[i])
            self._entries.append((match.group(1), ops[match.group(1)], name))
        self._where = where
        graph = _symbol.Group([out[i] for i in range(self._num_outputs)] + extra) if extra else out
        if graph.list_inputs() != out.list_inputs():
            raise InternalError("register_op_hook: the monitored graph's inputs differ from the block's")
        self._input_names = out.list_inputs()
        self._node_inputs = self._input_entries(nodes, internal_names) if monitor_all else {}
        self._op = CachedOp(graph, flags)

    @staticmethod
    def _input_entries(nodes, internal_names):
        """node name -> [(input label, variable name or internal output name)]."""
        schemas = ndarray.SCHEMAS
        outputs_of = {}
        for name in internal_names:
            match = _OUTPUT_NAME.match(name)
            outputs_of.setdefault(match.group(1) if match else name, []).append(name)
        entries = {}
        for node in nodes:
            if node["op"] == "null":
                continue
            labels = list(schemas.get(node["op"], {}).get("inputs") or [])
            found = []
            for j, (src, index, _) in enumerate(node["inputs"]):
                src_node = nodes[src]
                label = labels[j] if j < len(labels) else "arg%d" % j
                source = src_node["name"] if src_node["op"] == "null" else outputs_of[src_node["name"]][index]
                found.append((label, source))
            entries[node["name"]] = found
        return entries

    def __call__(self, *args):
        res = self._op(*args)
        res = res if isinstance(res, list) else [res]
        values = {name: res[i] for name, i in self._where.items()}
        variables = dict(zip(self._input_names, args))
        for node_name, op_name, out_name in self._entries:
            if self._monitor_all:
                for label, source in self._node_inputs.get(node_name, ()):
                    array = variables.get(source, values.get(source))
                    if array is not None:
                        self._callback("%s_%s" % (node_name, label), op_name, array)
            self._callback(out_name, op_name, values[out_name])
        real = res[:self._num_outputs]
        return real[0] if len(real) == 1 else real


class OpHookMixin:
    """HybridBlock's ``register_op_hook`` (Note [Op hooks])."""

    def register_op_hook(self, callback, monitor_all=False):
        """Calls ``callback(name, op_name, NDArray)`` for every operator output
        of the hybridized graph after each call (and, with ``monitor_all``, for
        every operator input first). Applies to this block and its children."""
        if not callable(callback):
            raise ArgumentTypeError("register_op_hook: callback must be callable, got %s" % type(callback).__name__)

        def install(block):
            if isinstance(block, OpHookMixin):
                block._op_hook = (callback, bool(monitor_all))  # pylint: disable=protected-access
                block._clear_cached_op()  # pylint: disable=protected-access
        self.apply(install)

    def _make_cached_op(self, out, flags):
        hook = getattr(self, "_op_hook", None)
        if hook is None:
            return CachedOp(out, flags)
        return _MonitoredCachedOp(out, flags, *hook)


def _child_keys(block):
    counts = {}
    keys = []
    for child in block._children.values():  # pylint: disable=protected-access
        kind = type(child).__name__.lower()
        keys.append("%s%d" % (kind, counts.get(kind, 0)))
        counts[kind] = counts.get(kind, 0) + 1
    return keys


def _describe(block):
    entry = {"class": type(block).__name__, "hybridized": bool(getattr(block, "_active", False)),
             "params": {attr: p.name for attr, p in block._reg_params.items()}}  # pylint: disable=protected-access
    graph = getattr(block, "_cached_graph", ())
    if entry["hybridized"] and graph:
        inputs, out = graph
        entry.update({"symbol": out.tojson(), "inputs": [s.name for s in inputs],
                      "in_format": block._in_format, "out_format": block._out_format})  # pylint: disable=protected-access
    entry["children"] = {key: _describe(child) for key, child in
                         zip(_child_keys(block), block._children.values())}  # pylint: disable=protected-access
    return entry


def _restore(block, entry, where, renames=None):
    """Checks entry against block (recursively), restores the saved graphs and
    collects, in renames, saved parameter name -> this block's."""
    renames = {} if renames is None else renames
    if not isinstance(entry, dict) or entry.get("class") != type(block).__name__:
        raise InvalidArgumentError("Block.load: %s is a %s here but %s in the saved model; build the model with "
                                   "the same code that saved it" % (where, type(block).__name__,
                                                                    entry.get("class") if isinstance(entry, dict)
                                                                    else entry))
    children = entry.get("children", {})
    keys = _child_keys(block)
    if sorted(keys) != sorted(children):
        raise InvalidArgumentError("Block.load: %s has children %s here but %s in the saved model"
                                   % (where, keys, sorted(children)))
    for attr, saved in entry.get("params", {}).items():
        param = block._reg_params.get(attr)  # pylint: disable=protected-access
        if param is None:
            raise InvalidArgumentError("Block.load: %s has no parameter %r, which the saved model has" % (where, attr))
        renames[saved] = param.name
    for key, child in zip(keys, block._children.values()):  # pylint: disable=protected-access
        _restore(child, children[key], where + "." + key, renames)
    if entry.get("symbol") is not None:
        # the saved graph names the parameters as the saving process did (hybridsequential0_...);
        # its variables take this block's names (the prefix counters may differ)
        graph = json.loads(entry["symbol"])
        for node in graph.get("nodes", []):
            if node.get("op") == "null" and node.get("name") in renames:
                node["name"] = renames[node["name"]]
        out = _symbol.load_json(json.dumps(graph))
        inputs = [_symbol.var(name) for name in entry["inputs"]]
        block._clear_cached_op()  # pylint: disable=protected-access
        block._cached_graph = (inputs, out)  # pylint: disable=protected-access
        block._in_format = _as_format(entry["in_format"])  # pylint: disable=protected-access
        block._out_format = _as_format(entry["out_format"])  # pylint: disable=protected-access
        block._active = True  # pylint: disable=protected-access


def _as_format(fmt):
    """JSON turns the format tuples into lists; the block compares formats with ==."""
    if isinstance(fmt, list):
        return [_as_format(f) for f in fmt]
    return fmt


class BlockPersistenceMixin:
    """Block's ``save`` / ``load`` (Note [Block save format])."""

    def save(self, prefix):
        """Writes ``prefix-model.json`` (the block tree, with the graphs of
        hybridized blocks) and ``prefix-model.params``."""
        model = {type(self).__name__.lower() + "0": _describe(self)}
        with open(prefix + "-model.json", "w") as f:
            json.dump(model, f)
        self.save_parameters(prefix + "-model.params")

    def load(self, prefix):
        """Restores what ``save(prefix)`` wrote into this block, built by the
        same code: parameters, and the saved graphs of hybridized blocks."""
        path = prefix + "-model.json"
        if not os.path.exists(path):
            raise InvalidArgumentError("Block.load: %s does not exist" % path)
        with open(path) as f:
            try:
                model = json.load(f)
            except ValueError as e:
                raise InvalidArgumentError("Block.load: %s is not valid JSON: %s" % (path, e)) from None
        key = type(self).__name__.lower() + "0"
        if not isinstance(model, dict) or key not in model:
            raise InvalidArgumentError("Block.load: %s holds no %s (found %s)"
                                       % (path, key, sorted(model) if isinstance(model, dict) else model))
        _restore(self, model[key], key)
        self.load_parameters(prefix + "-model.params")
