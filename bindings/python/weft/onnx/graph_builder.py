"""The ONNX graph under construction: nodes, initializers, fresh names, and the
opset-aware helpers translations build with (Note [Translations per opset] in
registry.py)."""
import numpy as np

from ._deps import helper, numpy_helper

__all__ = ["GraphBuilder", "INT64_MAX", "INT64_MIN"]

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min

# Reductions whose axes moved from an attribute to an input, and the opset they did.
_AXES_INPUT_SINCE = {"ReduceSum": 13, "ReduceMean": 18, "ReduceMax": 18, "ReduceMin": 18,
                     "ReduceProd": 18, "ReduceL1": 18, "ReduceL2": 18, "ReduceLogSumExp": 18,
                     "ReduceSumSquare": 18, "Squeeze": 13, "Unsqueeze": 13}


class GraphBuilder:
    """Collects the ONNX nodes and initializers of one export at one opset."""

    def __init__(self, opset, dynamic_spatial=False):
        self.opset = opset
        # Whether an input has a dynamic dimension other than its first (the batch):
        # translations that bake a traced size into a constant refuse then.
        self.dynamic_spatial = dynamic_spatial
        self.nodes = []
        self.initializers = []
        self.params = {}     # initializer name -> numpy value, for translations that fold constants
        self._used = set()
        self._const_cache = {}

    # -- names -------------------------------------------------------------------------------
    def reserve(self, name):
        """Marks ``name`` (a graph input, a parameter, an MXNet output) as taken."""
        self._used.add(name)
        return name

    def fresh(self, hint):
        """A tensor or node name not used before, derived from ``hint``."""
        name, i = hint, 0
        while name in self._used:
            i += 1
            name = "%s_%d" % (hint, i)
        self._used.add(name)
        return name

    # -- nodes and constants -----------------------------------------------------------------
    def node(self, op_type, inputs, outputs=None, name=None, n_out=1, **attrs):
        """Appends an ONNX node; returns its output name (or the list of them when
        there are several). ``outputs`` names them; otherwise fresh names are drawn."""
        if outputs is None:
            outputs = [self.fresh("%s_out" % (name or op_type)) for _ in range(n_out)]
        node_name = self.fresh(name or op_type)
        attrs = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(helper.make_node(op_type, list(inputs), list(outputs), name=node_name,
                                           **attrs))
        return outputs[0] if len(outputs) == 1 else list(outputs)

    def add_param(self, name, value):
        """A named initializer (a model parameter)."""
        value = np.asarray(value, order="C")  # (ascontiguousarray would make a scalar 1-d)
        self.params[name] = value
        self.initializers.append(numpy_helper.from_array(value, name=name))
        return name

    def const(self, value, dtype=None, hint="const"):
        """An initializer holding ``value`` (a scalar or array of ``dtype``)."""
        arr = np.array(value, dtype=dtype)
        key = (arr.dtype.str, arr.shape, arr.tobytes())
        if key in self._const_cache:
            return self._const_cache[key]
        name = self.add_param(self.fresh(hint), arr)
        self._const_cache[key] = name
        return name

    def int64s(self, values, hint="const"):
        return self.const(np.array(list(values), dtype=np.int64), hint=hint)

    def param_value(self, name):
        """The numpy value of an initializer, or None when ``name`` is computed."""
        return self.params.get(name)

    # -- opset-aware helpers -----------------------------------------------------------------
    def _axes_op(self, op_type, x, axes, **attrs):
        if axes is not None and self.opset >= _AXES_INPUT_SINCE[op_type]:
            return self.node(op_type, [x, self.int64s(axes, "axes")], **attrs)
        if axes is not None:
            attrs["axes"] = list(axes)
        return self.node(op_type, [x], **attrs)

    def squeeze(self, x, axes=None):
        return self._axes_op("Squeeze", x, axes)

    def unsqueeze(self, x, axes):
        return self._axes_op("Unsqueeze", x, axes)

    def reduce(self, op_type, x, axes=None, keepdims=True):
        """``op_type`` (ReduceSum, ReduceMean, ...) over ``axes`` (None: all)."""
        return self._axes_op(op_type, x, None if axes is None else list(axes),
                             keepdims=1 if keepdims else 0)

    def split(self, x, axis, sizes):
        """Splits ``x`` along ``axis`` into pieces of ``sizes``; returns their names."""
        outs = [self.fresh("split_out") for _ in sizes]
        if self.opset >= 13:
            self.node("Split", [x, self.int64s(sizes, "split")], outputs=outs, axis=axis)
        else:
            self.node("Split", [x], outputs=outs, axis=axis, split=list(sizes))
        return outs

    def shape(self, x, start=None, end=None):
        """The run-time shape of ``x`` (int64), or its [start:end] part."""
        s = self.node("Shape", [x])
        if start is None and end is None:
            return s
        return self.slice(s, [0 if start is None else start], [INT64_MAX if end is None else end], [0])

    def slice(self, x, starts, ends, axes, steps=None):
        ins = [x, self.int64s(starts, "starts"), self.int64s(ends, "ends"), self.int64s(axes, "axes")]
        if steps is not None:
            ins.append(self.int64s(steps, "steps"))
        return self.node("Slice", ins)

    def reshape(self, x, shape):
        """Reshape to a static shape list (0 copies, -1 infers, as ONNX reads them)."""
        return self.node("Reshape", [x, self.int64s(shape, "shape")])

    def cast(self, x, np_dtype):
        return self.node("Cast", [x], to=helper.np_dtype_to_tensor_dtype(np.dtype(np_dtype)))

    def transpose(self, x, perm):
        return self.node("Transpose", [x], perm=list(perm))
