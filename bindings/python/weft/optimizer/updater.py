"""Updater: applies an optimizer to (index, grad, weight) and keeps each index's
state, and its pickle-free serialisation (MXNet 1.x's mx.optimizer.Updater).

Note [Optimizer state format]
    ``Updater.get_states()`` returns bytes laid out as::

        b"WEFTOPTS"                8 bytes, magic
        version                    uint32, little-endian (1)
        header_len                 uint64, little-endian
        header                     header_len bytes of UTF-8 JSON
        arrays                     the rest: weft's .params format (weft.nd.save),
                                   a dict "a0", "a1", ... -> NDArray; absent when
                                   there are no arrays

    The JSON header is ``{"states": [[index, tree], ...], "optimizer": opt}``.
    An index is the JSON int or str it was. A tree is ``null``, ``{"nd": "a3"}``
    (an array of the blob), ``{"tuple": [trees]}``, ``{"list": [trees]}`` or
    ``{"value": v}`` (a JSON number, string or bool).

    ``opt`` is ``null`` unless ``dump_optimizer=True``; then it is
    ``{"class": registered name, "attrs": {...}, "lr_scheduler": sched,
    "current_device": id}`` where
    attrs are the optimizer's attributes that are plain data (numbers, strings,
    and lists / tuples / dicts of them; ``param_dict`` is never written, as in
    MXNet) and sched is ``null`` or ``{"class": class name, "attrs": {...}}``.
    Plain data is tagged the same way as trees, plus ``{"dict": [[k, v], ...]}``
    so int keys stay ints. Loading only ever instantiates registered Optimizer
    classes and LRScheduler subclasses, and sets attributes on them -- no code
    comes from the bytes, which is why this replaces MXNet's pickle.
"""
import json
import struct

from ..base import InvalidArgumentError
from ..ndarray import NDArray, load_frombuffer
from ..ndarray.ndarray import _save_bytes
from .. import lr_scheduler as _lrs
from .optimizer import Optimizer

__all__ = ["Updater", "get_updater"]

_MAGIC = b"WEFTOPTS"
_VERSION = 1
_PREFIX = struct.Struct("<8sIQ")


class Updater:
    """Calls ``optimizer.update_multi_precision`` with a state per index, created
    on first use with ``create_state_multi_precision``.

    ``updater(index, grad, weight)``; index, grad and weight may also be equal-length
    lists. States loaded with set_states move to the weight's context on next use.
    """

    def __init__(self, optimizer):
        if not isinstance(optimizer, Optimizer):
            raise InvalidArgumentError("Updater needs an Optimizer, got %s" % type(optimizer).__name__)
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}

    @property
    def aggregate_updates(self):
        """Read from the optimizer at each call: set_states may replace it by
        one with another aggregate_num (an SGD updater restoring an Adam)."""
        return (getattr(self.optimizer, "aggregate_num", 0) or 0) > 0

    def __call__(self, index, grad, weight):
        if isinstance(index, (list, tuple)):
            indices, grads, weights = list(index), list(grad), list(weight)
            if not len(indices) == len(grads) == len(weights):
                raise InvalidArgumentError("updater: index, grad and weight lists differ in length")
        else:
            indices, grads, weights = [index], [grad], [weight]
        if weights:
            self.optimizer._set_current_context(weights[0].context.device_id)  # pylint: disable=protected-access
        for i, idx in enumerate(indices):
            if isinstance(idx, bytes):
                idx = indices[i] = idx.decode("utf-8")
            if idx not in self.states:
                self.states[idx] = self.optimizer.create_state_multi_precision(idx, weights[i])
                self.states_synced[idx] = True
            elif not self.states_synced.get(idx, False):
                self.states[idx] = self.sync_state_context(self.states[idx], weights[i].context)
                self.states_synced[idx] = True
        if self.aggregate_updates:
            self._aggregated_update(indices, weights, grads)
            return
        for idx, w, g in zip(indices, weights, grads):
            self.optimizer.update_multi_precision(idx, w, g, self.states[idx])

    def _aggregated_update(self, indices, weights, grads):
        """MXNet's aggregated form: per dtype, lists of up to aggregate_num weights."""
        by_dtype = {}
        for idx, w, g in zip(indices, weights, grads):
            by_dtype.setdefault(w.dtype, []).append((idx, w, g))
        step = self.optimizer.aggregate_num
        for group in by_dtype.values():
            for start in range(0, len(group), step):
                idxs, ws, gs = (list(t) for t in zip(*group[start:start + step]))
                self.optimizer.update_multi_precision(idxs, ws, gs, [self.states[i] for i in idxs])

    def sync_state_context(self, state, context):
        """state (a tree of tuples / lists of NDArrays) with every array on context."""
        if isinstance(state, NDArray):
            return state.as_in_context(context)
        if isinstance(state, (tuple, list)):
            synced = [self.sync_state_context(s, context) for s in state]
            return tuple(synced) if isinstance(state, tuple) else synced
        return state

    def get_states(self, dump_optimizer=False):
        """The states (and, with dump_optimizer, the optimizer's settings and
        counters) as bytes; see Note [Optimizer state format]."""
        arrays = []
        entries = []
        for idx, state in self.states.items():
            if not isinstance(idx, (int, str)) or isinstance(idx, bool):
                raise InvalidArgumentError("get_states: index %r is neither an int nor a str" % (idx,))
            entries.append([idx, _encode(state, arrays, "state of index %r" % (idx,))])
        header = {"states": entries, "optimizer": _encode_optimizer(self.optimizer) if dump_optimizer else None}
        text = json.dumps(header, allow_nan=True).encode("utf-8")
        blob = _save_bytes(arrays, ["a%d" % i for i in range(len(arrays))]) if arrays else b""
        return _PREFIX.pack(_MAGIC, _VERSION, len(text)) + text + blob

    def set_states(self, states):
        """Restores what get_states returned. With an optimizer in the bytes, it
        replaces ``self.optimizer`` (its param_dict is left empty, for the caller
        to set, as in MXNet)."""
        header, arrays = _split(states)
        self.states = {}
        for idx, tree in header["states"]:
            self.states[idx] = _decode(tree, arrays)
        if header.get("optimizer") is not None:
            self.optimizer = _decode_optimizer(header["optimizer"])
        self.states_synced = dict.fromkeys(self.states, False)


def get_updater(optimizer):
    """An Updater for optimizer (MXNet's mx.optimizer.get_updater)."""
    return Updater(optimizer)


# -- the format of Note [Optimizer state format] ---------------------------------------------
def _encode(value, arrays, what):
    if value is None:
        return None
    if isinstance(value, NDArray) and arrays is not None:
        arrays.append(value)
        return {"nd": "a%d" % (len(arrays) - 1)}
    if isinstance(value, tuple):
        return {"tuple": [_encode(v, arrays, what) for v in value]}
    if isinstance(value, list):
        return {"list": [_encode(v, arrays, what) for v in value]}
    if isinstance(value, (bool, int, float, str)):
        return {"value": value}
    if isinstance(value, dict) and arrays is None:
        return {"dict": [[_encode(k, None, what), _encode(v, None, what)] for k, v in value.items()]}
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # a numpy scalar
        return {"value": value.item()}
    raise InvalidArgumentError("get_states: %s holds a %s, which this format cannot store"
                               % (what, type(value).__name__))


def _decode(tree, arrays):
    if tree is None:
        return None
    if not isinstance(tree, dict) or len(tree) != 1:
        raise InvalidArgumentError("set_states: malformed state entry %r" % (tree,))
    (kind, body), = tree.items()
    if kind == "nd":
        if arrays is None or body not in arrays:
            raise InvalidArgumentError("set_states: array %r is missing from the data" % (body,))
        return arrays[body]
    if kind == "tuple":
        return tuple(_decode(t, arrays) for t in body)
    if kind == "list":
        return [_decode(t, arrays) for t in body]
    if kind == "value":
        return body
    if kind == "dict":
        return {_decode(k, arrays): _decode(v, arrays) for k, v in body}
    raise InvalidArgumentError("set_states: unknown state entry kind %r" % (kind,))


def _plain_attrs(obj, skip=()):
    attrs = {}
    for name, value in vars(obj).items():
        if name in skip:
            continue
        try:
            attrs[name] = _encode(value, None, name)
        except InvalidArgumentError:
            continue  # not plain data (an object): left out
    return attrs


def _encode_optimizer(opt):
    name = type(opt).__name__.lower()
    if Optimizer.opt_registry.get(name) is not type(opt):
        raise InvalidArgumentError("get_states(dump_optimizer=True): %s is not a registered optimizer"
                                   % type(opt).__name__)
    sched = opt.lr_scheduler
    if sched is not None:
        if not isinstance(sched, _lrs.LRScheduler):
            raise InvalidArgumentError("get_states(dump_optimizer=True): lr_scheduler %s is not an LRScheduler"
                                       % type(sched).__name__)
        sched = {"class": type(sched).__name__, "attrs": _plain_attrs(sched)}
    counts = getattr(opt, "_all_index_update_counts", {})
    current = [dev for dev, c in counts.items() if c is getattr(opt, "_index_update_count", None)]
    return {"class": name, "attrs": _plain_attrs(opt, skip=("param_dict", "lr_scheduler", "_index_update_count")),
            "lr_scheduler": sched, "current_device": current[0] if current else 0}


def _scheduler_classes(base=_lrs.LRScheduler):
    found = {base.__name__: base}
    for sub in base.__subclasses__():
        found.update(_scheduler_classes(sub))
    return found


def _restore(klass, attrs):
    obj = klass.__new__(klass)
    for name, tree in attrs.items():
        setattr(obj, name, _decode(tree, None))
    return obj


def _decode_optimizer(desc):
    klass = Optimizer.opt_registry.get(str(desc.get("class", "")).lower())
    if klass is None:
        raise InvalidArgumentError("set_states: optimizer %r is not registered" % (desc.get("class"),))
    opt = _restore(klass, desc.get("attrs", {}))
    opt.param_dict = {}
    sched = desc.get("lr_scheduler")
    if sched is not None:
        sklass = _scheduler_classes().get(sched.get("class"))
        if sklass is None:
            raise InvalidArgumentError("set_states: unknown lr_scheduler class %r" % (sched.get("class"),))
        sched = _restore(sklass, sched.get("attrs", {}))
    opt.lr_scheduler = sched
    # _index_update_count is the current device's dict of _all_index_update_counts, not a copy.
    if isinstance(getattr(opt, "_all_index_update_counts", None), dict):
        opt._set_current_context(desc.get("current_device", 0))  # pylint: disable=protected-access
    return opt


def _split(data):
    try:
        data = bytes(memoryview(data))
    except TypeError:
        raise InvalidArgumentError("set_states: expected bytes, got %s" % type(data).__name__) from None
    if len(data) < _PREFIX.size or data[:8] != _MAGIC:
        raise InvalidArgumentError("set_states: not weft optimizer states (bad magic); pickled MXNet states "
                                   "are not read, see weft/optimizer/updater.py")
    _, version, hlen = _PREFIX.unpack_from(data)
    if version != _VERSION:
        raise InvalidArgumentError("set_states: unsupported state format version %d" % version)
    end = _PREFIX.size + hlen
    if end > len(data):
        raise InvalidArgumentError("set_states: truncated data")
    header = json.loads(data[_PREFIX.size:end].decode("utf-8"))
    arrays = load_frombuffer(data[end:]) if end < len(data) else {}
    if isinstance(arrays, list):
        raise InvalidArgumentError("set_states: the array blob has no names")
    return header, arrays
