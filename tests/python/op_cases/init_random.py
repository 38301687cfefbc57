"""Cases of the init ops (_zeros, _ones, _full, _arange, _eye, zeros_like,
ones_like) and the random samplers (_random_uniform, _random_normal,
_random_randint). Random cases check dtype, shape, bounds and moments, and
that reseeding with weft.random.seed reproduces the same draws."""
import numpy as np

from .case import Case

F32 = np.float32


def init(ref, name, **attrs):
    return Case(inputs=[], attrs=attrs, ref=ref, name=name)


def like(x, ref, name):
    return Case(inputs=[x], ref=ref, name=name)


def arange_ref(start, stop=None, step=1.0, repeat=1, dtype="float32"):
    def ref():
        lo, hi = (0.0, start) if stop is None else (start, stop)
        return np.repeat(np.arange(lo, hi, step, dtype=np.float64), repeat).astype(dtype)
    return ref


CASES = {
    "_zeros": [
        init(lambda: np.zeros((2, 3), F32), "float32", shape=(2, 3)),
        init(lambda: np.zeros((4,), np.int32), "int32", shape=(4,), dtype="int32"),
        init(lambda: np.zeros((2, 0), F32), "empty", shape=(2, 0)),
    ],
    "_ones": [
        init(lambda: np.ones((2, 3), F32), "float32", shape=(2, 3)),
        init(lambda: np.ones((3,), np.float16), "float16", shape=(3,), dtype="float16"),
        init(lambda: np.ones((2, 2), np.bool_), "bool", shape=(2, 2), dtype="bool"),
    ],
    "_full": [
        init(lambda: np.full((2, 3), 2.5, F32), "float32", shape=(2, 3), value=2.5),
        init(lambda: np.full((3,), -7, np.int64), "int64", shape=(3,), value=-7, dtype="int64"),
        init(lambda: np.full((2,), 3, np.uint8), "uint8_truncates", shape=(2,), value=3.9, dtype="uint8"),
    ],
    "_arange": [
        init(arange_ref(0, 5), "basic", start=0, stop=5),
        init(arange_ref(5), "stop_none", start=5),
        init(arange_ref(1, 2, 0.25), "fractional_step", start=1, stop=2, step=0.25),
        init(arange_ref(10, 0, -3), "negative_step", start=10, stop=0, step=-3),
        init(arange_ref(0, 3, repeat=2, dtype="int32"), "repeat_int32", start=0, stop=3, repeat=2, dtype="int32"),
        init(arange_ref(0, 3, 1.5, dtype="float64"), "float64", start=0, stop=3, step=1.5, dtype="float64"),
        init(arange_ref(3, 1), "empty", start=3, stop=1),
    ],
    "_eye": [
        init(lambda: np.eye(3, dtype=F32), "square", N=3),
        init(lambda: np.eye(3, 5, 1, dtype=F32), "rect_k1", N=3, M=5, k=1),
        init(lambda: np.eye(4, 3, -2, dtype=np.int32), "below_int32", N=4, M=3, k=-2, dtype="int32"),
        init(lambda: np.eye(2, 3, 5, dtype=F32), "k_outside", N=2, M=3, k=5),
    ],
    "zeros_like": [
        like(np.arange(6, dtype=F32).reshape(2, 3), np.zeros_like, "float32"),
        like(np.arange(4, dtype=np.int8), np.zeros_like, "int8"),
    ],
    "ones_like": [
        like(np.arange(6, dtype=F32).reshape(3, 2), np.ones_like, "float32"),
        like(np.arange(3, dtype=np.float64), np.ones_like, "float64"),
        like(np.array([True, False]), np.ones_like, "bool"),
    ],
}


# ---- random ----------------------------------------------------------------------------------------

def _redraw(op, attrs, seed):
    import weft  # pylint: disable=import-outside-toplevel
    weft.random.seed(seed)
    a = getattr(weft.nd, op)(**attrs).asnumpy()
    b = getattr(weft.nd, op)(**attrs).asnumpy()
    return a, b


def check_reproducible(op, attrs):
    """Two draws after seed(s) equal two draws after seed(s) again; the second
    draw differs from the first, and another seed gives other values."""
    a1, b1 = _redraw(op, attrs, 1234)
    a2, b2 = _redraw(op, attrs, 1234)
    np.testing.assert_array_equal(a1, a2)
    np.testing.assert_array_equal(b1, b2)
    assert not np.array_equal(a1, b1), "consecutive draws must differ"
    c, _ = _redraw(op, attrs, 99)
    assert not np.array_equal(a1, c), "another seed must give other values"


def uniform_check(low, high, dtype="float32"):
    def check(outs, _inputs, attrs):
        x = outs[0]
        assert x.dtype == np.dtype(dtype), x.dtype
        assert x.shape == tuple(attrs["shape"]), x.shape
        assert x.min() >= low and x.max() < high, (x.min(), x.max())
        n = x.size
        mean, std = (low + high) / 2, (high - low) / np.sqrt(12)
        assert abs(x.astype(np.float64).mean() - mean) < 5 * std / np.sqrt(n), x.mean()
        assert abs(x.astype(np.float64).std() - std) < 0.05 * std, x.std()
        check_reproducible("_random_uniform", attrs)
    return check


def normal_check(loc, scale, dtype="float32"):
    def check(outs, _inputs, attrs):
        x = outs[0].astype(np.float64)
        assert outs[0].dtype == np.dtype(dtype), outs[0].dtype
        assert x.shape == tuple(attrs["shape"]), x.shape
        n = x.size
        assert abs(x.mean() - loc) < 5 * scale / np.sqrt(n), x.mean()
        assert abs(x.std() - scale) < 0.05 * scale, x.std()
        # about 68% within one standard deviation
        assert abs(np.mean(np.abs(x - loc) < scale) - 0.6827) < 0.03
        check_reproducible("_random_normal", attrs)
    return check


def randint_check(low, high, dtype="int32"):
    def check(outs, _inputs, attrs):
        x = outs[0]
        assert x.dtype == np.dtype(dtype), x.dtype
        assert x.shape == tuple(attrs["shape"]), x.shape
        assert x.min() >= low and x.max() < high, (x.min(), x.max())
        counts = np.bincount((x.astype(np.int64) - low).ravel(), minlength=high - low)
        expected = x.size / (high - low)
        assert np.all(np.abs(counts - expected) < 6 * np.sqrt(expected)), counts
        check_reproducible("_random_randint", attrs)
    return check


def rand_case(check, name, **attrs):
    return Case(inputs=[], attrs=attrs, check=check, name=name)


CASES.update({
    "_random_uniform": [
        rand_case(uniform_check(0.0, 1.0), "default", shape=(100, 100)),
        rand_case(uniform_check(-3.0, 5.0, "float64"), "float64", low=-3.0, high=5.0, shape=(20000,),
                  dtype="float64"),
        rand_case(uniform_check(1.0, 2.0, "float16"), "float16", low=1.0, high=2.0, shape=(5000,), dtype="float16"),
    ],
    "_random_normal": [
        rand_case(normal_check(0.0, 1.0), "default", shape=(20000,)),
        rand_case(normal_check(3.0, 0.5, "float64"), "float64", loc=3.0, scale=0.5, shape=(100, 101),
                  dtype="float64"),
    ],
    "_random_randint": [
        rand_case(randint_check(-5, 5), "int32", low=-5, high=5, shape=(10000,)),
        rand_case(randint_check(0, 3, "int64"), "int64", low=0, high=3, shape=(30, 100), dtype="int64"),
    ],
})
