"""Block additions of MXNet 1.9.1 kept out of block.py: ``HybridBlock.register_op_hook``
(Note [Op hooks]) and ``Block.save`` / ``Block.load`` (Note [Block save format]
    MXNet 1.9.1's format. ``save(prefix)`` writes ``prefix-model.json`` and
    ``prefix-model.params`` (``save_parameters``, structural names). The JSON
    holds one entry per block, keyed by its lower-cased class name and its
    index in a depth-first walk (the top block is 0): ``{"orig_name": the
    block's name, "children": {child name: attribute name}, <child entries>}``,
    and for a HybridBlock ``"hybridized"`` (whether its graph was built) with,
    when True, ``"in_format"``, ``"out_format"``, ``"inputs"`` (the input
    variables' JSON) and ``"symbol"`` (the graph's JSON). Child entries are
    nested in their parent's entry. ``load(prefix)`` walks a block built by
    the same code in the same order, finds each entry by class and index (a
    missing one means the model differs: a clear error), restores the saved
    graphs -- renaming the saved parameter variables (``orig_name`` + '_' +
    suffix) to this block's parameter names, which stands in for MXNet
    renaming the blocks back -- and loads the parameters. Nothing in the files
    is executed.
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
    """``register_op_hook`` (Note [Op hooks]); on a plain Block it reaches the
    HybridBlocks below it, as in MXNet."""

    def register_op_hook(self, callback, monitor_all=False):
        """Calls ``callback(name, op_name, NDArray)`` for every operator output
        of the hybridized graph after each call (and, with ``monitor_all``, for
        every operator input first). Applies to this block and its children."""
        if not callable(callback):
            raise ArgumentTypeError("register_op_hook: callback must be callable, got %s" % type(callback).__name__)

        def install(block):
            block._op_hook = (callback, bool(monitor_all))  # pylint: disable=protected-access
            if hasattr(block, "_clear_cached_op"):
                block._clear_cached_op()  # pylint: disable=protected-access
        self.apply(install)

    def _make_cached_op(self, out, flags):
        hook = getattr(self, "_op_hook", None)
        if hook is None:
            return CachedOp(out, flags)
        return _MonitoredCachedOp(out, flags, *hook)


def _describe(block, index, structure):
    """MXNet 1.9.1's _save_cached_graphs: this block's entry into structure, then its children's."""
    entry = {"orig_name": block.name}
    structure[type(block).__name__.lower() + str(index[0])] = entry
    if hasattr(block, "_cached_graph"):
        graph = block._cached_graph  # pylint: disable=protected-access
        entry["hybridized"] = bool(graph)
        if graph:
            inputs, out = graph
            entry.update({"in_format": block._in_format,  # pylint: disable=protected-access
                          "out_format": block._out_format,  # pylint: disable=protected-access
                          "inputs": [s.tojson() for s in inputs], "symbol": out.tojson()})
    children = {}
    entry["children"] = children
    for attr, child in block._children.items():  # pylint: disable=protected-access
        index[0] += 1
        children[child.name] = attr
        _describe(child, index, entry)


def _param_renames(block, orig_name):
    """Saved parameter name -> this block's, for the block's own parameters."""
    prefix = block.params._prefix  # pylint: disable=protected-access
    renames = {}
    for name in block.params.keys():
        if name.startswith(prefix):
            renames[orig_name + "_" + name[len(prefix):]] = name
    return renames


def _restore(block, index, structure, where, renames, graphs):
    """MXNet 1.9.1's _load_cached_graphs: checks and collects (renames, graphs to restore)."""
    key = type(block).__name__.lower() + str(index[0])
    entry = structure.get(key) if isinstance(structure, dict) else None
    if not isinstance(entry, dict):
        raise InvalidArgumentError("Block.load: %s (a %s) has no entry %r in the saved model, which was saved "
                                   "from a different model; build the model with the code that saved it"
                                   % (where, type(block).__name__, key))
    orig_name = entry.get("orig_name", block.name)
    renames.update(_param_renames(block, orig_name))
    if entry.get("hybridized") and hasattr(block, "_cached_graph"):
        graphs.append((block, entry))
    for attr, child in block._children.items():  # pylint: disable=protected-access
        index[0] += 1
        _restore(child, index, entry, where + "." + attr, renames, graphs)


def _renamed_symbol(text, renames):
    graph = json.loads(text)
    for node in graph.get("nodes", []):
        if node.get("op") == "null" and node.get("name") in renames:
            node["name"] = renames[node["name"]]
    return _symbol.load_json(json.dumps(graph))


def _as_format(fmt):
    """JSON turns the format tuples into lists; the block compares formats with ==."""
    if isinstance(fmt, list):
        return [_as_format(f) for f in fmt]
    return fmt


class BlockPersistenceMixin:
    """Block's ``save`` / ``load`` (Note [Block save format])."""

    def save(self, prefix):
        """Writes ``prefix-model.json`` (the block tree, with the graphs of
        hybridized blocks) and ``prefix-model.params``, as MXNet 1.9.1 does."""
        model = {}
        _describe(self, [0], model)
        with open(prefix + "-model.json", "w") as f:
            json.dump(model, f)
        self.save_parameters(prefix + "-model.params")

    def load(self, prefix):
        """Restores what ``save(prefix)`` (weft's or MXNet 1.9.1's) wrote into
        this block, built by the same code: the hybridized blocks' graphs and
        the parameters."""
        path = prefix + "-model.json"
        if not os.path.exists(path):
            raise InvalidArgumentError("Block.load: %s does not exist" % path)
        with open(path) as f:
            try:
                model = json.load(f)
            except ValueError as e:
                raise InvalidArgumentError("Block.load: %s is not valid JSON: %s" % (path, e)) from None
        renames, graphs = {}, []
        _restore(self, [0], model, type(self).__name__.lower(), renames, graphs)
        for block, entry in graphs:
            try:
                out = _renamed_symbol(entry["symbol"], renames)
                inputs = [_renamed_symbol(text, renames) for text in entry["inputs"]]
                in_format, out_format = _as_format(entry["in_format"]), _as_format(entry["out_format"])
            except (KeyError, TypeError) as e:
                raise InvalidArgumentError("Block.load: the saved graph of %s is incomplete (%s)"
                                           % (block.name, e)) from None
            block._clear_cached_op()  # pylint: disable=protected-access
            block._cached_graph = (inputs, out)  # pylint: disable=protected-access
            block._in_format, block._out_format = in_format, out_format  # pylint: disable=protected-access
            block._active = True  # pylint: disable=protected-access
        self.load_parameters(prefix + "-model.params")
