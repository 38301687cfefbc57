"""Cases of the ops whose output shape depends on their input values (Note
[Data-dependent output shapes], core/opdef/dynamic_shape.h): _contrib_boolean_mask
and its backward op, against NumPy's boolean indexing."""
import numpy as np

from .tensor import F32, F64, C, ins, rand

I32, I64 = np.int32, np.int64


def fixed(values, dtype=F32):
    return lambda rng: np.asarray(values, dtype=dtype)


def mask_ref(axis=0):
    def ref(x, m):
        return np.compress(m != 0, x, axis=axis)
    return ref


def mask_backward_ref(axis=0):
    def ref(g, x, m):
        dx = np.zeros_like(x)
        idx = [slice(None)] * x.ndim
        idx[axis] = np.nonzero(m != 0)[0]
        dx[tuple(idx)] = g
        return dx
    return ref


CASES = {
    "_contrib_boolean_mask": [
        C(ins(rand((5, 3)), fixed([1, 0, 1, 1, 0])), mask_ref(), name="rows-float-mask"),
        C(ins(rand((4, 2, 3), F64), fixed([0, 1, 0, 1], I32)), mask_ref(), name="3d-int32-mask"),
        C(ins(rand((3, 4), I32, -9, 9), fixed([0, 0, 0], I64)), mask_ref(), name="none-kept-int"),
        C(ins(rand((2, 4, 3)), fixed([1, 0, 0, 1], np.bool_)), mask_ref(1), name="axis1-bool-mask", axis=1),
        C(ins(rand((2, 3)), fixed([2.5, 0, -1])), mask_ref(-1), name="axis-last-nonzero-values", axis=-1),
    ],
    "_backward_contrib_boolean_mask": [
        C(ins(rand((3, 3)), rand((5, 3)), fixed([1, 0, 1, 1, 0])), mask_backward_ref(), name="rows"),
        C(ins(rand((2, 2, 3), F64), rand((2, 4, 3), F64), fixed([0, 1, 1, 0], I32)), mask_backward_ref(1),
          name="axis1-float64", axis=1),
    ],
}
