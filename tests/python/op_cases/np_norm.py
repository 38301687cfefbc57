"""Cases of _weft_np_norm and its backward op (core/op/linalg/np_norm.cc, Note [Norms by the
input's rank]) against NumPy's np.linalg.norm: vector norms of any ord (3, 0.5, 0, inf, -inf, -1
with a zero element) over one axis and of a 1-D input with axis=None, the matrix norms of a 2-D
input with axis=None (1, -1, inf, -inf, 2, -2) and over two named axes, keepdims, float32 and
float64. The backward op against central differences of NumPy's norm."""
import numpy as np

from .nn_ref import F32, F64, C, derived, fd, ins, rand

TOL32 = dict(rtol=1e-5, atol=1e-6)
TOL64 = dict(rtol=1e-10, atol=1e-12)


def A(inputs, ref, name="", **kw):
    """A case whose attributes go to the reference too."""
    c = C(inputs, ref, name=name, **kw)
    c.ref_takes_attrs = True
    return c


def norm_ref(x, ord=2.0, axis=None, keepdims=False):
    r = np.linalg.norm(np.asarray(x, F64), ord=ord, axis=axis, keepdims=keepdims)
    return np.asarray(r).astype(x.dtype)


def norm_backward_ref(g, x, ord=2.0, axis=None, keepdims=False):
    return fd(lambda v: np.linalg.norm(v, ord=ord, axis=axis, keepdims=keepdims), [x], 0, g).astype(x.dtype)


def with_zero(shape, dtype=F64):
    def make(rng):
        a = rng.uniform(-2, 2, size=shape).astype(dtype)
        a.flat[1] = 0
        return a
    return make


def grad_inputs(shape, ord, axis=None, keepdims=False):
    """out_grad of the forward's output shape, then x (float64)."""
    def out_shape(x):
        return np.asarray(np.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)).shape
    return derived(ins(rand(shape, F64, -2, 2)),
                   lambda rng, x: [rng.uniform(-1, 1, size=out_shape(x)).astype(F64), x])


INF = float("inf")

CASES = {
    "_weft_np_norm": [
        A(ins(rand((3, 5), F32)), norm_ref, name="ord 3 over axis 1", ord=3.0, axis=(1,), **TOL32),
        A(ins(rand((4, 3), F64)), norm_ref, name="ord 0.5 over axis 0, keepdims", ord=0.5, axis=(0,),
          keepdims=True, **TOL64),
        A(ins(with_zero((2, 4))), norm_ref, name="ord 0 counts nonzeros", ord=0.0, axis=(-1,), **TOL64),
        A(ins(rand((3, 4), F64)), norm_ref, name="inf over axis 1", ord=INF, axis=(1,), **TOL64),
        A(ins(rand((3, 4), F64)), norm_ref, name="-inf over axis 0", ord=-INF, axis=(0,), **TOL64),
        A(ins(with_zero((5,))), norm_ref, name="1-D ord -1 with a zero", ord=-1.0, **TOL64),
        A(ins(rand((6,), F32)), norm_ref, name="1-D ord 3, axis=None", ord=3.0, **TOL32),
        A(ins(rand((3, 4), F64)), norm_ref, name="2-D ord 1, axis=None", ord=1.0, **TOL64),
        A(ins(rand((3, 4), F64)), norm_ref, name="2-D ord -inf, axis=None, keepdims", ord=-INF, keepdims=True,
          **TOL64),
        A(ins(rand((4, 3), F32)), norm_ref, name="2-D ord 2 (spectral), axis=None", ord=2.0, rtol=1e-4, atol=1e-5),
        A(ins(rand((2, 3, 4), F64)), norm_ref, name="ord -1 over axes (2, 0)", ord=-1.0, axis=(2, 0), **TOL64),
        A(ins(rand((2, 3, 4), F64)), norm_ref, name="ord inf over axes (1, 2)", ord=INF, axis=(1, 2), **TOL64),
    ],
    "_backward_weft_np_norm": [
        A(grad_inputs((3, 4), 3.0, (1,)), norm_backward_ref, name="ord 3", ord=3.0, axis=(1,), rtol=1e-6,
          atol=1e-7),
        A(grad_inputs((5,), 0.5), norm_backward_ref, name="1-D ord 0.5", ord=0.5, rtol=1e-6, atol=1e-7),
        A(grad_inputs((3, 4), INF, (0,), True), norm_backward_ref, name="inf, keepdims", ord=INF, axis=(0,),
          keepdims=True, rtol=1e-6, atol=1e-7),
        A(grad_inputs((3, 4), 1.0), norm_backward_ref, name="2-D ord 1", ord=1.0, rtol=1e-6, atol=1e-7),
        A(grad_inputs((3, 4), -INF), norm_backward_ref, name="2-D ord -inf", ord=-INF, rtol=1e-6, atol=1e-7),
        A(grad_inputs((4, 3), 2.0), norm_backward_ref, name="2-D ord 2", ord=2.0, rtol=1e-6, atol=1e-7),
    ],
}
