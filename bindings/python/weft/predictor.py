"""Inference-only predictor over the predict API (capi/include/weft/c_predict_api.h).

The same C entry points serve the Go server and the dependency-free build, so a
model that predicts right here predicts the same there::

    from weft.predictor import Predictor
    p = Predictor("model-symbol.json", "model-0000.params", {"data": (1, 3, 224, 224)})
    (probs,) = p.forward(data=image)          # list of numpy arrays
    p.reshape({"data": (8, 3, 224, 224)})    # same parameters, no copy
    feats = Predictor(..., output_names=["flatten0_output"])  # feature extraction

One predictor is used by one thread at a time; distinct predictors may run on
distinct threads.
"""
import os

import numpy as np

from . import dtypes
from .base import HEADER_PATH, NULL, ShapeError, ArgumentTypeError, c_str, check_call, ffi, lib
from .context import Context

__all__ = ["Predictor"]

try:  # declared only when c_predict_api.h lies beside c_api.h (weft._cdef)
    lib.weft_pred_create  # pylint: disable=pointless-statement
except AttributeError:
    raise ImportError("weft.predictor: the predict API declarations were not loaded: c_predict_api.h is missing "
                      "beside %s (reinstall the package, or use the source tree)" % HEADER_PATH) from None


def _symbol_text(symbol):
    """JSON text from JSON text, a path to a -symbol.json, or a Symbol."""
    if hasattr(symbol, "tojson"):
        return symbol.tojson()
    if isinstance(symbol, (bytes, bytearray)):
        symbol = bytes(symbol).decode("utf-8")
    if isinstance(symbol, os.PathLike):
        symbol = os.fspath(symbol)
    if not isinstance(symbol, str):
        raise ArgumentTypeError("symbol must be JSON text, a file path or a Symbol, not %s" % type(symbol).__name__)
    if symbol.lstrip().startswith("{"):
        return symbol
    with open(symbol, "r", encoding="utf-8") as f:
        return f.read()


def _param_bytes(params):
    """The bytes of a .params file from bytes, a path, or None (no parameters)."""
    if params is None:
        return b""
    if isinstance(params, (bytes, bytearray, memoryview)):
        return bytes(params)
    if isinstance(params, (str, os.PathLike)):
        with open(params, "rb") as f:
            return f.read()
    raise ArgumentTypeError("params must be the bytes of a .params file, a file path or None, not %s"
                            % type(params).__name__)


def _shape_csr(input_shapes):
    """(names keep-alive, char*[] names, indptr, data) for the C call."""
    if not isinstance(input_shapes, dict):
        raise ArgumentTypeError("input_shapes must be a dict {name: shape}, not %s" % type(input_shapes).__name__)
    keep = [ffi.new("char[]", c_str(str(k), "Predictor: input name")) for k in input_shapes]
    indptr, data = [0], []
    for name, shape in input_shapes.items():
        try:
            dims = [int(d) for d in shape]
        except TypeError:
            raise ArgumentTypeError("the shape of input %r must be a sequence of ints, not %r" % (name, shape)) from None
        data.extend(dims)
        indptr.append(len(data))
    return (keep, ffi.new("const char*[]", keep) if keep else NULL, ffi.new("int64_t[]", indptr),
            ffi.new("int64_t[]", data or [0]))


class Predictor:
    """A bound inference graph: ``Predictor(symbol, params, input_shapes, ctx=None, output_names=None)``.

    symbol: the JSON text of a ``-symbol.json``, its path, or a Symbol.
    params: the bytes of a ``-NNNN.params`` file (``arg:``/``aux:`` prefixes or
        none), its path, or None when the graph has no parameters.
    input_shapes: ``{name: shape}`` for the data inputs (every other variable
        must be in params).
    ctx: a Context or context string (default cpu(0)).
    output_names: internal outputs to return instead of the symbol's heads
        (``"fc1_output"``, or a node name for its first output); only what they
        need is computed.
    """

    def __init__(self, symbol, params, input_shapes, ctx=None, output_names=None):
        ctx = Context(ctx) if ctx is not None else Context("cpu", 0)
        text = c_str(_symbol_text(symbol), "Predictor: the symbol JSON")
        blob = _param_bytes(params)
        _, names, indptr, data = keep = _shape_csr(input_shapes)
        out = ffi.new("weft_predictor**")
        if output_names is None:
            check_call(lib.weft_pred_create(text, blob, len(blob), ctx.device_typeid, ctx.device_id,
                                            len(input_shapes), names, indptr, data, out))
        else:
            if isinstance(output_names, str):
                output_names = [output_names]
            outs_keep = [ffi.new("char[]", c_str(str(n), "Predictor: output name")) for n in output_names]
            outs = ffi.new("const char*[]", outs_keep) if outs_keep else NULL
            check_call(lib.weft_pred_create_partial(text, blob, len(blob), ctx.device_typeid, ctx.device_id,
                                                    len(input_shapes), names, indptr, data, len(outs_keep), outs,
                                                    out))
        del keep
        self._ctx = ctx
        self._adopt(out[0])

    def _adopt(self, handle):
        self._handle = ffi.gc(handle, lib.weft_pred_free)
        n = ffi.new("int*")
        s = ffi.new("char**")
        check_call(lib.weft_pred_num_inputs(self._handle, n))
        self._inputs = []  # (name, shape, numpy dtype)
        for i in range(n[0]):
            check_call(lib.weft_pred_input_name(self._handle, i, s))
            self._inputs.append((ffi.string(s[0]).decode("utf-8"), self._shape(lib.weft_pred_input_shape, i),
                                 self._dtype(lib.weft_pred_input_dtype, i)))
        check_call(lib.weft_pred_num_outputs(self._handle, n))
        self._outputs = []
        for i in range(n[0]):
            check_call(lib.weft_pred_output_name(self._handle, i, s))
            self._outputs.append((ffi.string(s[0]).decode("utf-8"), self._shape(lib.weft_pred_output_shape, i),
                                  self._dtype(lib.weft_pred_output_dtype, i)))

    def _shape(self, fn, i):
        shape = ffi.new("int64_t**")
        ndim = ffi.new("int*")
        check_call(fn(self._handle, i, shape, ndim))
        return tuple(int(shape[0][k]) for k in range(ndim[0]))

    def _dtype(self, fn, i):
        t = ffi.new("int*")
        check_call(fn(self._handle, i, t))
        return dtypes.FLAG_TO_NP[t[0]]

    # ---- description -----------------------------------------------------------
    @property
    def ctx(self):
        return self._ctx

    @property
    def input_names(self):
        return [n for n, _, _ in self._inputs]

    @property
    def input_shapes(self):
        return {n: s for n, s, _ in self._inputs}

    @property
    def input_dtypes(self):
        return {n: t for n, _, t in self._inputs}

    @property
    def output_names(self):
        return [n for n, _, _ in self._outputs]

    @property
    def output_shapes(self):
        return [s for _, s, _ in self._outputs]

    @property
    def num_outputs(self):
        return len(self._outputs)

    def __repr__(self):
        return "<Predictor inputs=%s outputs=%s on %s>" % (self.input_shapes, self.output_names, self._ctx)

    # ---- running ------------------------------------------------------------
    def set_input(self, name, value):
        """Copies `value` (array-like or NDArray) into input `name`."""
        shapes = self.input_shapes
        if name not in shapes:
            # The library's message lists the inputs.
            check_call(lib.weft_pred_set_input(self._handle, c_str(str(name), "Predictor: input name"), NULL, 0))
        if hasattr(value, "asnumpy"):
            value = value.asnumpy()
        arr = np.ascontiguousarray(value, dtype=self.input_dtypes[name])
        if arr.shape != shapes[name]:
            raise ShapeError("input '%s' has shape %s, the predictor takes %s (use reshape for other shapes)"
                             % (name, arr.shape, shapes[name]))
        check_call(lib.weft_pred_set_input(self._handle, c_str(name, "Predictor: input name"), ffi.from_buffer(arr),
                                           arr.nbytes))

    def forward(self, **inputs):
        """Sets the given inputs, runs the graph and returns every output as a
        numpy array (inputs not given keep their last values)."""
        for name, value in inputs.items():
            self.set_input(name, value)
        check_call(lib.weft_pred_forward(self._handle))
        return [self.get_output(i) for i in range(len(self._outputs))]

    def get_output(self, index):
        """Output `index` of the last forward as a new numpy array."""
        if not -len(self._outputs) <= index < len(self._outputs):
            # The library's message names the range.
            check_call(lib.weft_pred_get_output(self._handle, index if index >= 0 else -1, NULL, 0))
        _, shape, dtype = self._outputs[index]
        out = np.empty(shape, dtype=dtype)
        check_call(lib.weft_pred_get_output(self._handle, index % len(self._outputs), ffi.from_buffer(out),
                                            out.nbytes))
        return out

    def reshape(self, input_shapes):
        """New shapes for the named inputs (others keep theirs); the parameter
        arrays are shared, not copied. Returns self."""
        _, names, indptr, data = keep = _shape_csr(input_shapes)
        out = ffi.new("weft_predictor**")
        check_call(lib.weft_pred_reshape(self._handle, len(input_shapes), names, indptr, data, out))
        del keep
        self._adopt(out[0])  # the old handle is freed by its gc; the parameters live on
        return self
