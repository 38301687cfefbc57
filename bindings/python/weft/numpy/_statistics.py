"""``weft.np``'s order statistics, histogram and window functions:
``percentile``, ``quantile``, ``histogram``, ``blackman``, ``hamming``,
``hanning`` (MXNet 1.9.1's names and parameters).

Note [Quantiles by sort and take]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The q values are known on the host (MXNet's ``_npi_percentile`` reads a
q array too), so the positions q * (n - 1), their floor/ceil and the
interpolation weights are computed there. The data are sorted once along the
axis on the engine, the two neighbours of every position are gathered with
``take`` and blended: three or four engine ops whatever the size, and
differentiable in the data (sort and take have gradients).
"""
import numpy as onp

from ..ndarray.ndarray import NDArray
from ._array import _invoke, _np
from ._promotion import default_float_dtype, dtype_name, is_float
from ._reductions import max as _max, min as _min, normalize_axis, sum as _sum
from ._ufunc_core import cast, check_array, from_host, name_of, zeros_of

__all__ = ["percentile", "quantile", "histogram", "blackman", "hamming", "hanning"]

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _q_values(fname, q, scale):
    if isinstance(q, NDArray):
        h = q.asnumpy()
    else:
        try:
            h = onp.asarray(q, dtype="float64")
        except (TypeError, ValueError) as e:
            raise TypeError("%s: q must be a number, a sequence of numbers or an array, got %s"
                            % (fname, type(q).__name__)) from e
    h = h.astype("float64") / scale
    if h.dtype.kind not in "fiub" or onp.any(onp.isnan(h)) or onp.any((h < 0) | (h > 1)):
        raise ValueError("%s: %s must be in the range [0, %s]" % (
            fname, "Percentiles" if scale == 100 else "Quantiles", "100" if scale == 100 else "1"))
    return h


def _quantile(fname, a, q, scale, axis, out, interpolation, keepdims):
    a = check_array(fname, "a", a)
    if interpolation not in _METHODS:
        raise ValueError("%s: interpolation must be one of %s, got %r" % (fname, _METHODS, interpolation))
    qh = _q_values(fname, q, scale)
    axes = normalize_axis(fname, axis, a.ndim)
    dt = name_of(a) if is_float(name_of(a)) else default_float_dtype()
    x = cast(a, dt)
    rest = [i for i in range(a.ndim) if i not in axes]
    kept = tuple(a.shape[i] for i in rest)
    n = 1
    for i in axes:
        n *= a.shape[i]
    # Reduced axes moved to the end and merged into one of length n.
    if axis is None:
        x = _np(x.reshape((-1,)))
    elif list(axes) != list(range(a.ndim - len(axes), a.ndim)):
        x = _invoke("transpose", [x], axes=tuple(rest) + axes)
    x = _np(x.reshape(kept + (n,)))
    qflat = qh.reshape(-1)
    if n == 0:
        res = _invoke("_plus_scalar", [zeros_of(qflat.shape + kept, dt, a.context)], scalar=float("nan"))
    else:
        s = _invoke("sort", [x], axis=-1)
        pos = qflat * (n - 1)
        lo = onp.floor(pos).astype("int64")
        hi = onp.minimum(lo + 1, n - 1)
        frac = pos - lo
        if interpolation == "lower":
            res = _take(s, lo, a)
        elif interpolation == "higher":
            res = _take(s, onp.ceil(pos).astype("int64"), a)
        elif interpolation == "nearest":
            res = _take(s, onp.around(pos).astype("int64"), a)
        else:
            if interpolation == "midpoint":
                hi = onp.ceil(pos).astype("int64")
            vlo, vhi = _take(s, lo, a), _take(s, hi, a)
            w = 0.5 * onp.ones_like(frac) if interpolation == "midpoint" else frac
            wa = from_host(w.astype(dt).reshape((-1,) + (1,) * len(kept)), a)
            res = _invoke("broadcast_add", [vlo, _invoke("broadcast_mul", [_invoke("broadcast_sub", [vhi, vlo]),
                                                                           wa])])
    if keepdims:
        kshape = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
        res = _np(res.reshape(qflat.shape + kshape))
        final = qh.shape + kshape
    else:
        final = qh.shape + kept
    res = _np(res._view(final))
    if out is not None:
        return _invoke("Cast", [res], out=out, dtype=dtype_name(out.dtype))
    return res


def _take(s, idx, ref):
    """s[..., idx] moved to the front: shape (len(idx),) + s.shape[:-1]."""
    ind = from_host(idx.astype("int64"), ref)
    t = _invoke("take", [s, ind], axis=s.ndim - 1)
    if s.ndim == 1:
        return t
    return _invoke("transpose", [t], axes=(s.ndim - 1,) + tuple(range(s.ndim - 1)))


def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear", keepdims=False,
               method=None):
    """The q-th percentiles (0 <= q <= 100) of a along axis (Note [Quantiles by
    sort and take]); q's shape leads the result's. ``method`` is NumPy 1.22's
    name for ``interpolation`` (MXNet 1.9.1's); ``overwrite_input`` is ignored
    (nothing is overwritten)."""
    return _quantile("percentile", a, q, 100.0, axis, out, method or interpolation, keepdims)


def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear", keepdims=False,
             method=None):
    """The q-th quantiles (0 <= q <= 1) of a along axis; see percentile."""
    return _quantile("quantile", a, q, 1.0, axis, out, method or interpolation, keepdims)


def histogram(a, bins=10, range=None, normed=None, weights=None, density=None):  # pylint: disable=redefined-builtin
    """(hist, bin_edges) of the flattened a: ``bins`` equal bins over ``range``
    (default: a's min to max, which waits for a), or the given edges (a 1-D
    array). ``density=True`` normalises to a probability density.
    ``normed`` is NumPy's old name for density (MXNet 1.9.1 keeps it).
    ``weights`` is not supported (as in MXNet 1.9.1): a NotImplementedError."""
    a = check_array("histogram", "a", a)
    if weights is not None:
        raise NotImplementedError("histogram: weights= is not supported (as in MXNet 1.9.1)")
    flat = _np(a.reshape((-1,)))
    if isinstance(bins, NDArray):
        if bins.ndim != 1 or bins.shape[0] < 2:
            raise ValueError("histogram: bins must be a 1-D array of at least 2 edges, got shape %s"
                             % (tuple(bins.shape),))
        hist, edges = _invoke("_histogram", [flat, cast(bins, name_of(flat))])
    else:
        if not isinstance(bins, (int, onp.integer)) or isinstance(bins, bool):
            raise TypeError("histogram: bins must be an integer or a 1-D array, got %s" % type(bins).__name__)
        if bins < 1:
            raise ValueError("histogram: `bins` must be positive, when an integer, got %d" % bins)
        if range is None:
            if a.size == 0:
                lo, hi = 0.0, 1.0
            else:
                lo, hi = float(_min(flat).asnumpy()), float(_max(flat).asnumpy())
        else:
            lo, hi = float(range[0]), float(range[1])
            if lo > hi:
                raise ValueError("histogram: max must be larger than min in range parameter")
        if not (onp.isfinite(lo) and onp.isfinite(hi)):
            raise ValueError("histogram: autodetected range of [%s, %s] is not finite" % (lo, hi))
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        hist, edges = _invoke("_histogram", [flat], bin_cnt=int(bins), range=(lo, hi))
    if density or normed:
        widths = _invoke("broadcast_sub", [edges[1:], edges[:-1]])
        total = _sum(hist)
        dt = name_of(edges) if is_float(name_of(edges)) else default_float_dtype()
        scale = _invoke("broadcast_mul", [cast(widths, dt), _np(cast(total, dt).reshape((1,)))])
        hist = _invoke("broadcast_div", [cast(hist, dt), scale])
    return hist, edges


def _window(fname, M, dtype, ctx, coeffs):
    """sum_k coeffs[k] * cos(2 pi k n / (M - 1)), n = 0..M-1 (NumPy's formulas)."""
    if not isinstance(M, (int, onp.integer)) or isinstance(M, bool):
        raise TypeError("%s: M must be an integer, got %s" % (fname, type(M).__name__))
    dt = dtype_name(dtype) if dtype is not None else default_float_dtype()
    if M < 1:
        return zeros_of((0,), dt, ctx)
    if M == 1:
        return _invoke("_plus_scalar", [zeros_of((1,), dt, ctx)], scalar=1.0)
    attrs = {"ctx": ctx} if ctx is not None else {}
    n = _invoke("_arange", [], start=0, stop=M, dtype="float64", **attrs)
    res = None
    for k, c in enumerate(coeffs[1:], start=1):
        phase = _invoke("_mul_scalar", [n], scalar=2.0 * onp.pi * k / (M - 1))
        term = _invoke("_mul_scalar", [_invoke("cos", [phase])], scalar=c)
        res = term if res is None else _invoke("broadcast_add", [res, term])
    return cast(_invoke("_plus_scalar", [res], scalar=coeffs[0]), dt)


def blackman(M, dtype=None, ctx=None):
    """The Blackman window of M points: 0.42 - 0.5 cos(2 pi n/(M-1)) + 0.08 cos(4 pi n/(M-1));
    the default float type unless dtype is given."""
    return _window("blackman", M, dtype, ctx, (0.42, -0.5, 0.08))


def hamming(M, dtype=None, ctx=None):
    """The Hamming window of M points: 0.54 - 0.46 cos(2 pi n/(M-1))."""
    return _window("hamming", M, dtype, ctx, (0.54, -0.46))


def hanning(M, dtype=None, ctx=None):
    """The Hann window of M points: 0.5 - 0.5 cos(2 pi n/(M-1))."""
    return _window("hanning", M, dtype, ctx, (0.5, -0.5))
