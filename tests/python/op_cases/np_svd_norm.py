"""Cases of _weft_np_svd_norm and its backward op (core/op/linalg/np_svd_norm.cc,
Note [Singular-value norms]) against NumPy's np.linalg.norm: ord 2, -2 and 'nuc',
float32 and float64, the two axes in either order and not the last two, keepdims,
tall and wide matrices (MXNet 1.9.1's kernel takes wide ones only), an empty batch.
The backward op against central differences of NumPy's norm; the gradient of
the forward op is also checked by tests/cpp/gradient_check_test.cc."""
import numpy as np

from .nn_ref import F32, F64, C, derived, fd, ins, rand

TOL32 = dict(rtol=1e-4, atol=1e-5)


def _ord(ord):
    return "nuc" if ord == "nuc" else int(ord)


def A(inputs, ref, name="", **kw):
    """A case whose attributes go to the reference too."""
    c = C(inputs, ref, name=name, **kw)
    c.ref_takes_attrs = True
    return c


def norm_ref(x, ord="2", axis=(-2, -1), keepdims=False):
    r = np.linalg.norm(np.asarray(x, F64), ord=_ord(ord), axis=tuple(axis), keepdims=keepdims)
    return np.asarray(r).astype(x.dtype)


def norm_backward_ref(g, x, ord="2", axis=(-2, -1), keepdims=False):
    return fd(lambda v: np.linalg.norm(v, ord=_ord(ord), axis=tuple(axis), keepdims=keepdims), [x], 0,
              g).astype(x.dtype)


def grad_inputs(shape, axis, keepdims=False, dtype=F64):
    """out_grad of the forward's output shape, then x."""
    def out_shape(x):
        return np.linalg.norm(x, axis=tuple(axis), keepdims=keepdims).shape
    return derived(ins(rand(shape, dtype)), lambda rng, x: [rng.uniform(-1, 1, size=out_shape(x)).astype(dtype), x])


CASES = {
    "_weft_np_svd_norm": [
        A(ins(rand((3, 4), F32)), norm_ref, name="spectral f32", **TOL32),
        A(ins(rand((2, 5, 3), F64)), norm_ref, name="smallest, batch, tall", ord="-2", rtol=1e-10, atol=1e-12),
        A(ins(rand((4, 2, 3), F64)), norm_ref, name="nuclear over (2, 0), keepdims", ord="nuc", axis=(2, 0),
          keepdims=True, rtol=1e-10, atol=1e-12),
        A(ins(rand((3, 2, 4), F32)), norm_ref, name="spectral over (0, -1)", axis=(0, -1), **TOL32),
        A(ins(rand((0, 2, 3), F32)), norm_ref, name="empty batch", ord="nuc"),
    ],
    "_backward_weft_np_svd_norm": [
        A(grad_inputs((3, 4), (-2, -1)), norm_backward_ref, name="spectral", rtol=1e-6, atol=1e-7),
        A(grad_inputs((2, 4, 3), (1, 2)), norm_backward_ref, name="smallest, batch", ord="-2", axis=(1, 2),
          rtol=1e-6, atol=1e-7),
        A(grad_inputs((3, 2, 4), (2, 0), keepdims=True), norm_backward_ref, name="nuclear, axes (2, 0), keepdims",
          ord="nuc", axis=(2, 0), keepdims=True, rtol=1e-6, atol=1e-7),
    ],
}
