"""One MXNet operator node as a translation sees it: its attributes parsed from
the symbol JSON's strings, the ONNX names of its inputs and outputs, and the
shapes and dtypes Weft inferred for them."""
import ast

import numpy as np

__all__ = ["MXNode"]


class MXNode:
    """An operator node of the symbol JSON being exported.

    ``inputs``/``outputs`` are ONNX tensor names; ``in_shapes``/``out_shapes``
    and ``in_dtypes``/``out_dtypes`` are what Weft's own shape and type
    inference gave for the shapes the user exported with (a dynamic dim holds
    the size it had there; translations that must stay valid for other sizes
    read shapes at run time with ONNX Shape instead)."""

    def __init__(self, name, op, attrs, inputs, outputs, in_shapes, out_shapes, in_dtypes,
                 out_dtypes, input_names):
        self.name = name
        self.op = op
        self.attrs = attrs
        self.inputs = inputs
        self.outputs = outputs
        self.in_shapes = in_shapes
        self.out_shapes = out_shapes
        self.in_dtypes = in_dtypes
        self.out_dtypes = out_dtypes
        self.input_names = input_names  # the MXNet names of the input nodes (for error messages)

    def __repr__(self):
        return "%s(name=%s)" % (self.op, self.name)

    def error(self, what):
        """A ValueError naming this node, for an attribute value ONNX cannot express."""
        return ValueError("weft.onnx.export_model: cannot export operator %s (node '%s'): %s"
                          % (self.op, self.name, what))

    def has(self, key):
        return key in self.attrs and self.attrs[key] not in ("None", "")

    def str(self, key, default=None):
        return self.attrs.get(key, default)

    def bool(self, key, default=False):
        v = self.attrs.get(key)
        if v is None:
            return default
        if v in ("True", "true", "1"):
            return True
        if v in ("False", "false", "0"):
            return False
        raise self.error("attribute %s=%r is not a boolean" % (key, v))

    def int(self, key, default=None):
        v = self.attrs.get(key)
        if v is None or v == "None":
            return default
        return int(v)

    def float(self, key, default=None):
        v = self.attrs.get(key)
        if v is None or v == "None":
            return default
        return float(v)

    def tuple(self, key, default=None):
        """A tuple attribute as MXNet prints it ('(1, 1)', '[2,3]', '2', '(None, 3)')."""
        v = self.attrs.get(key)
        if v is None or v == "None":
            return default
        parsed = ast.literal_eval(v.strip())
        if isinstance(parsed, (list, tuple)):
            return tuple(parsed)
        return (parsed,)

    def dtype(self, key, default="float32"):
        return np.dtype(self.attrs.get(key, default))

    @property
    def rank(self):
        """The rank of the first input."""
        return len(self.in_shapes[0])
