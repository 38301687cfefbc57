"""Host-NumPy functions that MXNet 1.9.1 delegates to NumPy but that NumPy has
since removed, written in NumPy terms so ``weft.np.fallback`` works under
NumPy 1.23+ and 2.x alike.

Note [Fallback names NumPy removed]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
MXNet 1.9.1 ran on NumPy < 1.20 and its fallback list names functions that
later NumPy releases dropped: the financial functions (npv, ppmt, pv, rate,
mirr; moved to the separate numpy_financial package in NumPy 1.20), and in
NumPy 2.x alltrue, msort, trapz (now trapezoid) and in1d (now isin). A user
of ``mx.np.npv`` still expects it, and the machine's NumPy decides which of
these it has, so each is written here from its definition: the financial
ones follow NumPy 1.17's code (the formulas MXNet 1.9.1 called), the others
are the one-line equivalents NumPy's deprecation notes give. All run on the
host, on NumPy arrays.
"""
import numpy as onp

__all__ = ["alltrue", "msort", "trapz", "in1d", "npv", "pv", "ppmt", "rate", "mirr"]

_WHEN = {"begin": 1, "end": 0, "start": 1, "finish": 0, 0: 0, 1: 1}


def _when(when):
    if isinstance(when, onp.ndarray):
        return when
    try:
        return _WHEN[when]
    except (KeyError, TypeError):
        return [_WHEN[x] for x in when]


def alltrue(a, axis=None, out=None, keepdims=False):
    """NumPy's alltrue (removed in NumPy 2.0): the same as all."""
    return onp.all(a, axis=axis, out=out, keepdims=keepdims)


def msort(a):
    """NumPy's msort (removed in NumPy 2.0): a copy sorted along the first axis."""
    return onp.sort(onp.asarray(a), axis=0)


def trapz(y, x=None, dx=1.0, axis=-1):
    """Integration by the trapezoidal rule (NumPy's trapz, named trapezoid in NumPy 2.x)."""
    fn = getattr(onp, "trapezoid", None) or getattr(onp, "trapz")
    return fn(y, x=x, dx=dx, axis=axis)


def in1d(ar1, ar2, assume_unique=False, invert=False):
    """Whether each element of the flattened ar1 is in ar2 (NumPy's in1d, removed
    in NumPy 2.4): ``isin(ar1, ar2).ravel()``."""
    return onp.isin(onp.asarray(ar1), ar2, assume_unique=assume_unique, invert=invert).ravel()


def _fv(rate, nper, pmt, pv, when="end"):
    when = _when(when)
    rate, nper, pmt, pv, when = map(onp.asarray, (rate, nper, pmt, pv, when))
    temp = (1 + rate) ** nper
    with onp.errstate(divide="ignore", invalid="ignore"):
        fact = onp.where(rate == 0, nper, (1 + rate * when) * (temp - 1) / rate)
    return -(pv * temp + pmt * fact)


def _pmt(rate, nper, pv, fv=0, when="end"):
    when = _when(when)
    rate, nper, pv, fv, when = map(onp.asarray, (rate, nper, pv, fv, when))
    temp = (1 + rate) ** nper
    mask = rate == 0
    masked_rate = onp.where(mask, 1, rate)
    fact = onp.where(mask != 0, nper, (1 + masked_rate * when) * (temp - 1) / masked_rate)
    return -(fv + pv * temp) / fact


def _ipmt(rate, per, nper, pv, fv=0, when="end"):
    when = _when(when)
    rate, per, nper, pv, fv, when = onp.broadcast_arrays(rate, per, nper, pv, fv, when)
    total = _pmt(rate, nper, pv, fv, when)
    ipmt = _fv(rate, per - 1, total, pv, when) * rate
    ipmt = onp.where(when == 1, ipmt / (1 + rate), ipmt)
    return onp.where(onp.logical_and(when == 1, per == 1), 0, ipmt)


def npv(rate, values):
    """The net present value of a cash flow series (NumPy 1.17's npv):
    sum(values / (1 + rate) ** arange(len(values)))."""
    values = onp.asarray(values)
    return (values / (1 + rate) ** onp.arange(0, len(values))).sum(axis=0)


def pv(rate, nper, pmt, fv=0, when="end"):
    """The present value (NumPy 1.17's pv)."""
    when = _when(when)
    rate, nper, pmt, fv, when = map(onp.asarray, (rate, nper, pmt, fv, when))
    temp = (1 + rate) ** nper
    with onp.errstate(divide="ignore", invalid="ignore"):
        fact = onp.where(rate == 0, nper, (1 + rate * when) * (temp - 1) / rate)
    return -(fv + pmt * fact) / temp


def ppmt(rate, per, nper, pv, fv=0, when="end"):  # pylint: disable=redefined-outer-name
    """The payment against the loan principal (NumPy 1.17's ppmt): pmt - ipmt."""
    return _pmt(rate, nper, pv, fv, when) - _ipmt(rate, per, nper, pv, fv, when)


def _g_div_gp(r, n, p, x, y, w):
    t1 = (r + 1) ** n
    t2 = (r + 1) ** (n - 1)
    return ((y + t1 * x + p * (t1 - 1) * (r * w + 1) / r)
            / (n * t2 * x - p * (t1 - 1) * (r * w + 1) / (r ** 2) + n * p * t2 * (r * w + 1) / r
               + p * (t1 - 1) * w / r))


def rate(nper, pmt, pv, fv, when="end", guess=None, tol=None, maxiter=100):  # pylint: disable=redefined-outer-name
    """The interest rate per period, by Newton's method (NumPy 1.17's rate);
    NaN where it does not converge within maxiter steps."""
    when = _when(when)
    guess = 0.1 if guess is None else guess
    tol = 1e-6 if tol is None else tol
    nper, pmt, pv, fv, when = map(onp.asarray, (nper, pmt, pv, fv, when))
    rn = guess
    close = False
    for _ in range(int(maxiter)):
        rnp1 = rn - _g_div_gp(rn, nper, pmt, pv, fv, when)
        close = onp.all(onp.abs(rnp1 - rn) < tol)
        rn = rnp1
        if close:
            break
    return rn if close else onp.nan + rn


def mirr(values, finance_rate, reinvest_rate):
    """The modified internal rate of return (NumPy 1.17's mirr); NaN unless the
    flows have both signs."""
    values = onp.asarray(values, dtype=onp.float64)
    n = values.size
    pos = values > 0
    neg = values < 0
    if not (pos.any() and neg.any()):
        return onp.nan
    numer = onp.abs(npv(reinvest_rate, values * pos))
    denom = onp.abs(npv(finance_rate, values * neg))
    return (numer / denom) ** (1.0 / (n - 1)) * (1 + reinvest_rate) - 1
