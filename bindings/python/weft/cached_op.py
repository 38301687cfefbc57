"""CachedOp: a Symbol called like an operator on NDArrays (MXNet's
``mx.nd.CachedOp``; what Gluon's ``hybridize`` runs).

    op = CachedOp(net_symbol)
    out = op(data, weight, bias)          # inputs in net_symbol.list_inputs() order

Outside ``autograd.record()`` each input signature (shapes, dtypes, device)
gets one bound executor — shape inference, fusion and the memory plan run once —
and later calls rebind it to the new arrays. While recording, the graph's nodes
are pushed from C++ one by one and recorded, so gradients reach the inputs'
``.grad``. Auxiliary states (BatchNorm's running statistics) are inputs too and
are updated in place in training mode.
"""
from .base import ArgumentTypeError, c_str, check_call, ffi, lib
from .ndarray.ndarray_class import NDArray, _wrap
from .symbol.symbol import Symbol

__all__ = ["CachedOp"]


class CachedOp:
    """``CachedOp(sym, flags=())``: flags are (key, value) pairs or a dict
    (``static_alloc``, ``static_shape``; the executor path always plans statically)."""

    def __init__(self, sym, flags=()):
        if not isinstance(sym, Symbol):
            raise ArgumentTypeError("CachedOp: expected a Symbol, got %s" % type(sym).__name__)
        items = list(flags.items()) if isinstance(flags, dict) else list(flags)
        keys = [str(k) for k, _ in items]
        vals = [str(int(v)) if isinstance(v, bool) else str(v) for _, v in items]
        keep = [ffi.new("char[]", c_str(x, "CachedOp: flag")) for x in keys + vals]
        out = ffi.new("weft_cached_op**")
        check_call(lib.weft_cached_op_create(
            sym.handle, len(keys), ffi.new("const char*[]", keep[:len(keys)]) if keys else ffi.NULL,
            ffi.new("const char*[]", keep[len(keys):]) if keys else ffi.NULL, out))
        self.handle = out[0]
        self._symbol = sym
        self._num_outputs = len(sym)

    def __del__(self, _free=lib.weft_cached_op_free):
        try:
            h = self.handle
        except AttributeError:
            return
        _free(h)

    @property
    def symbol(self):
        return self._symbol

    def __call__(self, *args, **kwargs):
        """Runs the graph; returns an NDArray for one output, else a list."""
        if kwargs.pop("out", None) is not None:
            raise ArgumentTypeError("CachedOp: out= is not supported")
        if kwargs:
            raise ArgumentTypeError("CachedOp: unexpected keyword arguments %s" % ", ".join(kwargs))
        for a in args:
            if not isinstance(a, NDArray):
                raise ArgumentTypeError("CachedOp: inputs must be NDArrays, got %s" % type(a).__name__)
        n = ffi.new("int*")
        outs = ffi.new("weft_ndarray***")
        check_call(lib.weft_cached_op_invoke(
            self.handle, len(args), ffi.new("weft_ndarray*[]", [a.handle for a in args]) if args else ffi.NULL,
            n, outs))
        res = [_wrap(outs[0][i]) for i in range(n[0])]
        return res[0] if len(res) == 1 else res
