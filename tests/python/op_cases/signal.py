"""Cases of the signal family (core/op/signal): _contrib_count_sketch, and _contrib_fft and _contrib_ifft
against numpy.fft in MXNet's interleaved (re, im) layout; ifft is not
normalised (MXNet). Their gradients are checked by finite differences in
tests/python/test_linalg_grad.py."""
import numpy as np

from .case import Case
from .nn_ref import F32, F64, ins, rand


def fft_ref(x, compute_size=128):
    z = np.fft.fft(x.astype(F64), axis=-1)
    out = np.stack([z.real, z.imag], axis=-1).reshape(x.shape[:-1] + (2 * x.shape[-1],))
    return out.astype(x.dtype)


def ifft_ref(x, compute_size=128):
    z = x.astype(F64)[..., 0::2] + 1j * x.astype(F64)[..., 1::2]
    return (np.fft.ifft(z, axis=-1).real * z.shape[-1]).astype(x.dtype)


def case(inputs, ref, rtol, atol, name="", **attrs):
    return Case(inputs=inputs, attrs=attrs, ref=ref, rtol=rtol, atol=atol, ref_takes_attrs=True, name=name)


CASES = {
    "_contrib_fft": [
        case(ins(rand((3, 8), F64)), fft_ref, 1e-9, 1e-10),
        case(ins(rand((2, 1, 3, 5))), fft_ref, 1e-4, 1e-5, name="4-D, odd length, float32", compute_size=2),
    ],
    "_contrib_ifft": [
        case(ins(rand((3, 16), F64)), ifft_ref, 1e-9, 1e-10),
        case(ins(rand((2, 2, 1, 6))), ifft_ref, 1e-4, 1e-5, name="4-D float32"),
    ],
}


def count_sketch_ref(data, h, s, out_dim, processing_batch_size=32):
    x = data.astype(F64).reshape(-1, data.shape[-1])
    out = np.zeros((x.shape[0], out_dim))
    for i in range(x.shape[1]):
        out[:, int(h[0, i])] += s[0, i] * x[:, i]
    return out.reshape(data.shape[:-1] + (out_dim,)).astype(data.dtype)


def sketch_inputs(shape, out_dim, dtype):
    def make(rng):
        d = shape[-1]
        return [rng.uniform(-1, 1, size=shape).astype(dtype),
                rng.integers(0, out_dim, size=(1, d)).astype(dtype),
                rng.choice([-1.0, 1.0], size=(1, d)).astype(dtype)]
    return make


CASES["_contrib_count_sketch"] = [
    case(sketch_inputs((4, 7), 3, F32), count_sketch_ref, 1e-5, 1e-6, out_dim=3),
    case(sketch_inputs((2, 1, 3, 6), 4, F64), count_sketch_ref, 1e-12, 1e-12, name="4-D float64", out_dim=4,
         processing_batch_size=2),
]
