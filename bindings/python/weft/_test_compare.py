"""mx.test_utils' defaults, random test data and comparisons (assert_almost_equal and its
kin): the bottom of the test helpers, which test_utils.py re-exports and _test_checks.py /
_test_builders.py build on, so none of them imports test_utils back (issue 36 point 4)."""
# pylint: disable=invalid-name,too-many-arguments,too-many-locals,too-many-branches
import numbers

import numpy as np
import numpy.random as rnd
import numpy.testing as npt

from . import context as _context
from . import ndarray as nd
from .base import InvalidArgumentError
from .context import current_context
from .ndarray import NDArray

__all__ = [
    "default_context", "set_default_context", "default_dtype", "default_rtols", "default_atols",
    "default_numeric_eps", "effective_dtype", "get_tolerance", "get_tols", "get_atol", "get_rtol",
    "get_etol", "random_arrays", "random_uniform_arrays", "random_sample", "rand_ndarray", "rand_shape_2d",
    "rand_shape_3d", "rand_shape_nd", "rand_coord_2d", "np_reduce", "same", "checkShapes", "almost_equal",
    "locationError", "assert_almost_equal", "assert_allclose", "assert_almost_equal_with_err",
    "assert_almost_equal_ignore_nan", "assert_exception",
]


# ---- defaults -----------------------------------------------------------------------------------
def default_context():
    """The context tests run on: the current default context."""
    return current_context()


def set_default_context(ctx):
    """Makes ctx the default context of this thread (inside a ``with ctx:`` block,
    until the block ends, as in MXNet)."""
    if not isinstance(ctx, _context.Context):
        raise InvalidArgumentError("set_default_context: expected a weft.Context, got %s" % type(ctx).__name__)
    stack = _context._stack()  # pylint: disable=protected-access
    if stack:
        stack[-1] = ctx
    else:
        stack.append(ctx)


def default_dtype():
    """The dtype of generated test data: float32."""
    return np.float32


_EXACT = (np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64)


def default_rtols():
    """Relative tolerance per dtype (MXNet's table)."""
    table = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-5}
    table.update({np.dtype(t): 0 for t in _EXACT})
    return table


def default_atols():
    """Absolute tolerance per dtype (MXNet's table)."""
    table = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3, np.dtype(np.float64): 1e-20}
    table.update({np.dtype(t): 0 for t in _EXACT})
    return table


def default_numeric_eps():
    """Finite-difference step per dtype: powers of two, so adding one drops no bits."""
    return {np.dtype(np.float16): 1.0 / 2 ** 6, np.dtype(np.float32): 1.0 / 2 ** 9,
            np.dtype(np.float64): 1.0 / 2 ** 14}


def effective_dtype(dat):
    """The dtype whose tolerances apply to dat (its own dtype)."""
    return np.dtype(dat.dtype)


def get_tolerance(dat, tol, default_tol):
    """tol when a number; else tol[dtype] from a dict of dtype -> tolerance, falling
    back to default_tol[dtype]."""
    if isinstance(tol, numbers.Number):
        return tol
    dtype = effective_dtype(dat)
    tol = {} if tol is None else tol
    if dtype not in default_tol and dtype not in tol:
        raise InvalidArgumentError("no default tolerance for dtype %s; pass rtol/atol" % dtype)
    return tol.get(dtype, default_tol.get(dtype))


def get_tols(x, y, rtol, atol):
    """(rtol, atol) for comparing x with y: the looser default of the two dtypes unless given."""
    if isinstance(x, numbers.Number):
        x = np.array(x)
    if isinstance(y, numbers.Number):
        y = np.array(y)
    rtol = max(get_tolerance(x, rtol, default_rtols()), get_tolerance(y, rtol, default_rtols()))
    atol = max(get_tolerance(x, atol, default_atols()), get_tolerance(y, atol, default_atols()))
    return rtol, atol


def get_atol(atol=None, dtype=np.dtype(np.float64)):
    return default_atols()[np.dtype(dtype)] if atol is None else atol


def get_rtol(rtol=None, dtype=np.dtype(np.float64)):
    return default_rtols()[np.dtype(dtype)] if rtol is None else rtol


def get_etol(etol=None):
    """Tolerated fraction of mismatching elements (0 unless given)."""
    return 0 if etol is None else etol


# ---- random data ----------------------------------------------------------------------------------
def random_arrays(*shapes):
    """Standard-normal float32 NumPy arrays of the given shapes (one array for one shape)."""
    arrays = [np.array(np.random.randn(), dtype=default_dtype()) if len(s) == 0
              else np.random.randn(*s).astype(default_dtype()) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def random_uniform_arrays(*shapes, **kwargs):
    """Uniform arrays in [low, high) (keywords low=0, high=1, dtype=float32)."""
    low = kwargs.pop("low", 0.0)
    high = kwargs.pop("high", 1.0)
    dtype = kwargs.pop("dtype", default_dtype())
    if kwargs:
        raise TypeError("Got unexpected argument/s : " + str(kwargs.keys()))
    return [np.random.uniform(low, high, size=s).astype(dtype) for s in shapes]


def random_sample(population, k):
    """k elements of population in random order."""
    if not 0 <= k <= len(population):
        raise InvalidArgumentError("random_sample: k=%d must be in [0, %d]" % (k, len(population)))
    population_copy = list(population)
    np.random.shuffle(population_copy)
    return population_copy[0:k]


def rand_ndarray(shape, stype="default", density=None, dtype=None, modifier_func=None,  # pylint: disable=unused-argument
                 shuffle_csr_indices=False, distribution=None, ctx=None):
    """A random (standard-normal) NDArray. Only the dense storage type exists in weft."""
    if stype != "default":
        raise InvalidArgumentError("rand_ndarray: weft arrays are dense: storage type %r is not available "
                                   "(only 'default')" % (stype,))
    ctx = ctx if ctx else default_context()
    return nd.array(random_arrays(shape), dtype=dtype, ctx=ctx)


def rand_shape_2d(dim0=10, dim1=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return rnd.randint(low, dim0 + 1), rnd.randint(low, dim1 + 1)


def rand_shape_3d(dim0=10, dim1=10, dim2=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return rnd.randint(low, dim0 + 1), rnd.randint(low, dim1 + 1), rnd.randint(low, dim2 + 1)


def rand_shape_nd(num_dim, dim=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return tuple(int(d) for d in rnd.randint(low, dim + 1, size=num_dim))


def rand_coord_2d(x_low, x_high, y_low, y_high):
    return np.random.randint(x_low, x_high, dtype=np.int64), np.random.randint(y_low, y_high, dtype=np.int64)


def np_reduce(dat, axis, keepdims, numpy_reduce_func):
    """Reduces dat over axis (int, list or None) one axis at a time."""
    if isinstance(axis, int):
        axis = [axis]
    else:
        axis = list(axis) if axis is not None else range(len(dat.shape))
    ret = dat
    for i in reversed(sorted(axis)):
        ret = numpy_reduce_func(ret, axis=i)
    if keepdims:
        keepdims_shape = list(dat.shape)
        for i in axis:
            keepdims_shape[i] = 1
        ret = ret.reshape(tuple(keepdims_shape))
    return ret


# ---- comparisons ----------------------------------------------------------------------------------
def _numpy(x):
    return x.asnumpy() if isinstance(x, NDArray) else x


def _find_max_violation(a, b, rtol, atol):
    """(index, ratio) of the element furthest beyond tolerance; infs that are equal count as equal.
    The ratio is computed in float64 and the index is a tuple of ints, so messages read
    the same under every dtype and NumPy version."""
    a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        absdiff = np.where(np.equal(a64, b64), 0, np.abs(a64 - b64))
    tol = atol + rtol * np.abs(b64)
    violation = absdiff / (tol + 1e-20)
    loc = np.argmax(violation)
    idx = tuple(int(i) for i in np.unravel_index(loc, violation.shape))
    return idx, float(np.max(violation))


def same(a, b):
    """True when the two arrays are equal element by element (and in shape)."""
    return np.array_equal(_numpy(a), _numpy(b))


def checkShapes(a, b):
    if a.shape != b.shape:
        msg = npt.build_err_msg([a, b], err_msg="a.shape = {} and b.shape = {} are not equal".format(
            str(a.shape), str(b.shape)))
        raise AssertionError(msg)


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """np.allclose with MXNet's defaults (rtol 1e-5, atol 1e-20 when not given)."""
    a, b = _numpy(a), _numpy(b)
    if not use_broadcast:
        checkShapes(a, b)
    return np.allclose(a, b, rtol=get_rtol(rtol), atol=get_atol(atol), equal_nan=equal_nan)


def locationError(a, b, index, names, maxError=False):
    """The line naming where a and b differ."""
    maximum = "maximum " if maxError else ""
    return "Location of %serror: %s, %s=%.8f, %s=%.8f" % (maximum, str(index), names[0], a[index], names[1],
                                                            b[index])


def assert_almost_equal(a, b, rtol=None, atol=None, names=("a", "b"), equal_nan=False, use_broadcast=True,
                        mismatches=(10, 10)):
    """Raises AssertionError unless |a - b| <= atol + rtol * |b| everywhere.

    Tolerances default per dtype (module doc). ``mismatches``: how many violations
    to print, and how many to count before saying "at least"."""
    if not use_broadcast:
        checkShapes(a, b)
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.asarray(_numpy(a)), np.asarray(_numpy(b))
    if a.dtype == np.bool_ and b.dtype == np.bool_:
        np.testing.assert_equal(a, b)
        return
    if almost_equal(a, b, rtol, atol, equal_nan=equal_nan):
        return
    if use_broadcast and a.shape != b.shape:
        a, b = np.broadcast_arrays(a, b)
    index, rel = _find_max_violation(a, b, rtol, atol)
    if index != ():
        index_err, rel_err = index, rel
        print("\n*** Maximum errors for vector of size {}:  rtol={}, atol={}\n".format(a.size, rtol, atol))
        a_tmp, b_tmp = a.copy(), b.copy()
        i = 1
        while i <= a.size:
            if i <= mismatches[0]:
                print("%3d: Error %f  %s" % (i, rel, locationError(a, b, index, names)))
            a_tmp[index] = b_tmp[index] = 0
            if almost_equal(a_tmp, b_tmp, rtol, atol, equal_nan=equal_nan):
                break
            i += 1
            if i <= mismatches[1] or mismatches[1] <= 0:
                index, rel = _find_max_violation(a_tmp, b_tmp, rtol, atol)
            else:
                break
        degree = "at least " if mismatches[1] > 0 and i > mismatches[1] else ""
        err_msg = "Error %f exceeds tolerance rtol=%e, atol=%e (mismatch %s%f%%).\n%s" % (
            rel_err, rtol, atol, degree, 100 * i / a.size, locationError(a, b, index_err, names, maxError=True))
    else:
        err_msg = "Error %f exceeds tolerance rtol=%e, atol=%e.\n" % (rel, rtol, atol)
    with np.printoptions(threshold=4, suppress=True):
        msg = npt.build_err_msg([a, b], err_msg=err_msg)
    raise AssertionError(msg)


def assert_allclose(a, b, rtol=1e-07, atol=0, equal_nan=True):
    assert_almost_equal(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def assert_almost_equal_with_err(a, b, rtol=None, atol=None, etol=None, names=("a", "b"), equal_nan=False,
                                 mismatches=(10, 10)):
    """Like assert_almost_equal, but passes while the fraction of mismatching elements is <= etol."""
    etol = get_etol(etol)
    if etol <= 0:
        assert_almost_equal(a, b, rtol=rtol, atol=atol, names=names, equal_nan=equal_nan, mismatches=mismatches)
        return
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.asarray(_numpy(a)), np.asarray(_numpy(b))
    equals = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    err = 1 - np.count_nonzero(equals) / equals.size
    if err > etol:
        index, rel = _find_max_violation(a, b, rtol, atol)
        err_msg = "Error %f exceeds tolerance rtol=%e, atol=%e, etol=%e (mismatch %f%%).\n%s" % (
            rel, rtol, atol, etol, 100 * err, locationError(a, b, index, names, maxError=True))
        with np.printoptions(threshold=4, suppress=True):
            msg = npt.build_err_msg([a, b], err_msg=err_msg)
        raise AssertionError(msg)


def assert_almost_equal_ignore_nan(a, b, rtol=None, atol=None, names=("a", "b")):
    """assert_almost_equal where a NaN in either array matches anything."""
    a, b = np.copy(_numpy(a)), np.copy(_numpy(b))
    nan_mask = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan_mask] = 0
    b[nan_mask] = 0
    assert_almost_equal(a, b, rtol, atol, names)


def assert_exception(f, exception_type, *args, **kwargs):
    """Asserts that f(*args, **kwargs) raises exception_type."""
    try:
        f(*args, **kwargs)
    except exception_type:
        return
    raise AssertionError("%s did not raise %s" % (getattr(f, "__name__", f), exception_type.__name__))
