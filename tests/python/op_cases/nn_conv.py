"""Cases of the layer operators FullyConnected, Convolution, Deconvolution and
Pooling and of their backward ops (_backward_<Op>), with MXNet 1.x semantics.

References are NumPy in float64 (cast to the case dtype): convolution as a sum
over kernel offsets of strided slices (einsum per group), deconvolution as the
matching scatter, pooling as MXNet's window loops. Backward references are
analytic; one float64 case per backward op also checks the weft gradients
against central finite differences of the NumPy forward reference, which
validates the analytic references themselves.
"""
import itertools

import numpy as np

from .case import Case

F32, F64 = np.float32, np.float64


def _tup(v, nd, default):
    v = tuple(v) if v not in (None, ()) else ()
    return v if v else (default,) * nd


def _geom(kernel, stride, dilate, pad):
    nd = len(kernel)
    return nd, _tup(stride, nd, 1), _tup(dilate, nd, 1), _tup(pad, nd, 0)


def _slices(kidx, dilate, stride, n):
    return tuple(slice(k * d, k * d + s * (m - 1) + 1, s) for k, d, s, m in zip(kidx, dilate, stride, n))


# ---- convolution ---------------------------------------------------------------------------------

def conv_fwd(x, w, stride, dilate, pad, groups):
    """y = conv(x, w) in float64 (no bias)."""
    x, w = x.astype(F64), w.astype(F64)
    nd, ks = x.ndim - 2, w.shape[2:]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    out = [(xp.shape[2 + i] - dilate[i] * (ks[i] - 1) - 1) // stride[i] + 1 for i in range(nd)]
    n, c, k = x.shape[0], x.shape[1], w.shape[0]
    cg, kg = c // groups, k // groups
    y = np.zeros((n, k) + tuple(out))
    for kidx in itertools.product(*[range(v) for v in ks]):
        patch = xp[(slice(None), slice(None)) + _slices(kidx, dilate, stride, out)]
        for g in range(groups):
            wk = w[(slice(g * kg, (g + 1) * kg), slice(None)) + kidx]
            y[:, g * kg:(g + 1) * kg] += np.einsum("nc...,kc->nk...", patch[:, g * cg:(g + 1) * cg], wk)
    return y


def conv_bwd(dy, x_shape, x, w, stride, dilate, pad, groups):
    """(dx, dw) of conv(x, w) given dy; x may be None (then dw is None)."""
    dy, w = dy.astype(F64), w.astype(F64)
    nd, ks, out = len(x_shape) - 2, w.shape[2:], dy.shape[2:]
    c, k = x_shape[1], w.shape[0]
    cg, kg = c // groups, k // groups
    padded = [x_shape[2 + i] + 2 * pad[i] for i in range(nd)]
    dxp = np.zeros(tuple(x_shape[:2]) + tuple(padded))
    xp = None if x is None else np.pad(x.astype(F64), [(0, 0), (0, 0)] + [(p, p) for p in pad])
    dw = np.zeros(w.shape)
    for kidx in itertools.product(*[range(v) for v in ks]):
        sl = (slice(None), slice(None)) + _slices(kidx, dilate, stride, out)
        for g in range(groups):
            ks_ = (slice(g * kg, (g + 1) * kg), slice(None)) + kidx
            dyg = dy[:, g * kg:(g + 1) * kg]
            dxp[sl][:, g * cg:(g + 1) * cg] += np.einsum("nk...,kc->nc...", dyg, w[ks_])
            if xp is not None:
                xg = xp[sl][:, g * cg:(g + 1) * cg]
                dw[ks_] += np.einsum("nkp,ncp->kc", dyg.reshape(dyg.shape[0], kg, -1),
                                     xg.reshape(xg.shape[0], cg, -1))
    crop = (slice(None), slice(None)) + tuple(slice(p, p + m) for p, m in zip(pad, x_shape[2:]))
    return dxp[crop], (None if x is None else dw)


def _bias_axes(nd):
    return (0,) + tuple(range(2, 2 + nd))


def conv_ref(x, w, b=None, kernel=(), stride=(), dilate=(), pad=(), num_filter=0, num_group=1,
             no_bias=False, **_):
    nd, stride, dilate, pad = _geom(kernel, stride, dilate, pad)
    y = conv_fwd(x, w, stride, dilate, pad, num_group)
    if b is not None and not no_bias:
        y += b.astype(F64).reshape((1, -1) + (1,) * nd)
    return y.astype(x.dtype)


def conv_bwd_ref(dy, x, w, kernel=(), stride=(), dilate=(), pad=(), num_filter=0, num_group=1,
                 no_bias=False, **_):
    nd, stride, dilate, pad = _geom(kernel, stride, dilate, pad)
    dx, dw = conv_bwd(dy, x.shape, x, w, stride, dilate, pad, num_group)
    outs = [dx.astype(x.dtype), dw.astype(x.dtype)]
    if not no_bias:
        outs.append(dy.astype(F64).sum(axis=_bias_axes(nd)).astype(x.dtype))
    return tuple(outs)


# ---- deconvolution (the adjoint of convolution) --------------------------------------------------

def _deconv_geom(x_shape, kernel, stride, dilate, pad, adj, target_shape):
    nd, stride, dilate, pad = _geom(kernel, stride, dilate, pad)
    adj = _tup(adj, nd, 0)
    target = _tup(target_shape, nd, 0)
    pad, adj = list(pad), list(adj)
    out = []
    for i in range(nd):
        full = stride[i] * (x_shape[2 + i] - 1) + dilate[i] * (kernel[i] - 1) + 1
        if any(target):
            total = full - target[i]
            adj[i], pad[i] = total % 2, (total + 1) // 2
        out.append(full - 2 * pad[i] + adj[i])
    return stride, dilate, tuple(pad), out


def deconv_ref(x, w, b=None, kernel=(), stride=(), dilate=(), pad=(), adj=(), target_shape=(),
               num_filter=0, num_group=1, no_bias=True, **_):
    stride, dilate, pad, out = _deconv_geom(x.shape, kernel, stride, dilate, pad, adj, target_shape)
    c, f, nd = x.shape[1], num_filter, x.ndim - 2
    cg, fg = c // num_group, f // num_group
    full = [max(stride[i] * (x.shape[2 + i] - 1) + dilate[i] * (kernel[i] - 1) + 1, pad[i] + out[i])
            for i in range(nd)]
    y = np.zeros((x.shape[0], f) + tuple(full))
    xd, wd = x.astype(F64), w.astype(F64)
    for kidx in itertools.product(*[range(v) for v in kernel]):
        sl = (slice(None), slice(None)) + _slices(kidx, dilate, stride, x.shape[2:])
        for g in range(num_group):
            wk = wd[(slice(g * cg, (g + 1) * cg), slice(None)) + kidx]
            y[sl][:, g * fg:(g + 1) * fg] += np.einsum("nc...,cf->nf...", xd[:, g * cg:(g + 1) * cg], wk)
    y = y[(slice(None), slice(None)) + tuple(slice(p, p + o) for p, o in zip(pad, out))]
    if b is not None and not no_bias:
        y = y + b.astype(F64).reshape((1, -1) + (1,) * nd)
    return y.astype(x.dtype)


def deconv_bwd_ref(dy, x, w, kernel=(), stride=(), dilate=(), pad=(), adj=(), target_shape=(),
                   num_filter=0, num_group=1, no_bias=True, **_):
    stride, dilate, pad, _out = _deconv_geom(x.shape, kernel, stride, dilate, pad, adj, target_shape)
    # Deconvolution(x) is the data gradient of a convolution of dy's shape with output x.
    dx = conv_fwd(dy, w, stride, dilate, pad, num_group)[(slice(None), slice(None)) +
                                                         tuple(slice(0, m) for m in x.shape[2:])]
    _, dw = conv_bwd(x, dy.shape, dy, w, stride, dilate, pad, num_group)
    outs = [dx.astype(x.dtype), dw.astype(x.dtype)]
    if not no_bias:
        outs.append(dy.astype(F64).sum(axis=_bias_axes(x.ndim - 2)).astype(x.dtype))
    return tuple(outs)


# ---- pooling (MXNet 1.x window rules) ------------------------------------------------------------

def _pool_plan(shape, kernel, pool_type, global_pool, pooling_convention, stride, pad, count_include_pad):
    nd = len(shape) - 2
    if global_pool:
        kernel, stride, pad = tuple(shape[2:]), (1,) * nd, (0,) * nd
    stride, pad = _tup(stride, nd, 1), _tup(pad, nd, 0)
    out = []
    for i in range(nd):
        span = shape[2 + i] + 2 * pad[i]
        if global_pool:
            out.append(1)
        elif pooling_convention == "valid":
            out.append(1 + (span - kernel[i]) // stride[i])
        elif pooling_convention == "full":
            out.append(1 + -(-(span - kernel[i]) // stride[i]))
        else:
            out.append(-(-span // stride[i]))
    include = count_include_pad in (None, True)
    windows = []
    for o in itertools.product(*[range(v) for v in out]):
        lo = [o[i] * stride[i] - pad[i] for i in range(nd)]
        hi_pad = [min(lo[i] + kernel[i], shape[2 + i] + pad[i]) for i in range(nd)]
        cl = [max(v, 0) for v in lo]
        ch = [min(lo[i] + kernel[i], shape[2 + i]) for i in range(nd)]
        size = int(np.prod([h - l for h, l in zip(hi_pad, lo)])) if include else \
            int(np.prod([h - l for h, l in zip(ch, cl)]))
        windows.append((o, tuple(slice(a, b) for a, b in zip(cl, ch)), size))
    return out, windows


def pool_ref(x, kernel=(), pool_type="max", global_pool=False, pooling_convention="valid", stride=(), pad=(),
             p_value=None, count_include_pad=None, **_):
    out, windows = _pool_plan(x.shape, kernel, pool_type, global_pool, pooling_convention, stride, pad,
                              count_include_pad)
    xd = x.astype(F64)
    y = np.zeros(x.shape[:2] + tuple(out))
    for o, win, size in windows:
        v = xd[(slice(None), slice(None)) + win].reshape(x.shape[0], x.shape[1], -1)
        if pool_type == "max":
            r = v.max(axis=2)
        elif pool_type == "avg":
            r = v.sum(axis=2) / size
        elif pool_type == "sum":
            r = v.sum(axis=2)
        else:
            s = (v ** p_value).sum(axis=2)
            r = np.cbrt(s) if p_value == 3 else s ** (1.0 / p_value)
        y[(slice(None), slice(None)) + o] = r
    return y.astype(x.dtype)


def pool_bwd_ref(dy, x, y, kernel=(), pool_type="max", global_pool=False, pooling_convention="valid", stride=(),
                 pad=(), p_value=None, count_include_pad=None, **_):
    _, windows = _pool_plan(x.shape, kernel, pool_type, global_pool, pooling_convention, stride, pad,
                            count_include_pad)
    dx = np.zeros(x.shape)
    xd, yd, dyd = x.astype(F64), y.astype(F64), dy.astype(F64)
    n, c = x.shape[:2]
    for o, win, size in windows:
        sel = (slice(None), slice(None)) + win
        g = dyd[(slice(None), slice(None)) + o]
        if pool_type == "max":
            v = xd[sel].reshape(n, c, -1)
            first = np.argmax(v == yd[(slice(None), slice(None)) + o][..., None], axis=2)
            part = np.zeros_like(v)
            np.put_along_axis(part, first[..., None], g[..., None], axis=2)
            dx[sel] += part.reshape(xd[sel].shape)
        elif pool_type == "lp":
            yo = yd[(slice(None), slice(None)) + o].reshape((n, c) + (1,) * len(win))
            dx[sel] += g.reshape(yo.shape) * (xd[sel] / yo) ** (p_value - 1)
        else:
            scale = 1.0 / size if pool_type == "avg" else 1.0
            dx[sel] += g.reshape((n, c) + (1,) * len(win)) * scale
    return dx.astype(x.dtype)


# ---- fully connected -----------------------------------------------------------------------------

def _fc_2d(x, flatten):
    return x.reshape(x.shape[0], -1) if flatten else x.reshape(-1, x.shape[-1])


def fc_ref(x, w, b=None, num_hidden=0, no_bias=False, flatten=True):
    y = _fc_2d(x.astype(F64), flatten) @ w.astype(F64).T
    if b is not None and not no_bias:
        y = y + b.astype(F64).reshape(-1)
    shape = (x.shape[0], num_hidden) if flatten else x.shape[:-1] + (num_hidden,)
    return y.reshape(shape).astype(x.dtype)


def fc_bwd_ref(dy, x, w, num_hidden=0, no_bias=False, flatten=True):
    d2 = dy.astype(F64).reshape(-1, num_hidden)
    x2 = _fc_2d(x.astype(F64), flatten)
    outs = [(d2 @ w.astype(F64)).reshape(x.shape).astype(x.dtype), (d2.T @ x2).astype(x.dtype)]
    if not no_bias:
        outs.append(d2.sum(axis=0).astype(x.dtype))
    return tuple(outs)


# ---- finite-difference check of a backward op ----------------------------------------------------

def fd_check(forward, wrt, eps=1e-6, rtol=1e-5, atol=1e-7):
    """check(): the weft gradients of inputs `wrt` (indices into the forward inputs, which are
    backward inputs 1..) equal central differences of sum(forward(*inputs) * dy)."""
    def check(got, xs, attrs):
        dy, fwd_in = xs[0].astype(F64), [v.astype(F64) for v in xs[1:]]
        for out_i, in_i in enumerate(wrt):
            num = np.zeros(fwd_in[in_i].shape)
            for idx in np.ndindex(*num.shape):
                vals = []
                for sign in (1, -1):
                    args = [v.copy() for v in fwd_in]
                    args[in_i][idx] += sign * eps
                    vals.append(float((forward(*args, **attrs) * dy).sum()))
                num[idx] = (vals[0] - vals[1]) / (2 * eps)
            np.testing.assert_allclose(got[out_i], num, rtol=rtol, atol=atol,
                                       err_msg="gradient %d vs finite differences" % out_i)
    return check


# ---- case builders -------------------------------------------------------------------------------

def _u(shape, dtype):
    return lambda rng: rng.uniform(-1, 1, size=shape).astype(dtype)


def _tol(dtype, atol32=1e-5):
    """float32 sums of thousands of products (weight gradients) lose ~1e-4 absolute to cancellation."""
    return dict(rtol=1e-4, atol=atol32) if dtype == F32 else dict(rtol=1e-9, atol=1e-10)


def _case(makers, ref, attrs, dtype, name, check=None, atol32=1e-5):
    def make(rng):
        return [m(rng) for m in makers]
    return Case(inputs=make, attrs=attrs, ref=ref, ref_takes_attrs=True, name=name, check=check,
                **_tol(dtype, atol32))


def conv_cases(shape, name, dtype=F32, bias=True, fd=False, **attrs):
    """Forward and backward cases of one Convolution configuration."""
    attrs = dict(attrs, no_bias=not bias)
    nd, stride, dilate, pad = _geom(attrs["kernel"], attrs.get("stride"), attrs.get("dilate"), attrs.get("pad"))
    f, g = attrs["num_filter"], attrs.get("num_group", 1)
    wshape = (f, shape[1] // g) + tuple(attrs["kernel"])
    out = conv_fwd(np.zeros(shape), np.zeros(wshape), stride, dilate, pad, g).shape
    fwd_in = [_u(shape, dtype), _u(wshape, dtype)] + ([_u((f,), dtype)] if bias else [])
    bwd = _case([_u(out, dtype), _u(shape, dtype), _u(wshape, dtype)], conv_bwd_ref, attrs, dtype, name,
                fd_check(lambda x, w, **a: conv_ref(x, w, **a), [0, 1]) if fd else None, atol32=5e-4)
    return _case(fwd_in, conv_ref, attrs, dtype, name), bwd


def deconv_cases(shape, name, dtype=F32, bias=False, fd=False, **attrs):
    attrs = dict(attrs, no_bias=not bias)
    f, g = attrs["num_filter"], attrs.get("num_group", 1)
    wshape = (shape[1], f // g) + tuple(attrs["kernel"])
    out = deconv_ref(np.zeros(shape), np.zeros(wshape), **attrs).shape
    fwd_in = [_u(shape, dtype), _u(wshape, dtype)] + ([_u((f,), dtype)] if bias else [])
    bwd = _case([_u(out, dtype), _u(shape, dtype), _u(wshape, dtype)], deconv_bwd_ref, attrs, dtype, name,
                fd_check(lambda x, w, **a: deconv_ref(x, w, **a), [0, 1]) if fd else None, atol32=5e-4)
    return _case(fwd_in, deconv_ref, attrs, dtype, name), bwd


def pool_cases(shape, name, dtype=F32, fd=False, **attrs):
    def bwd_inputs(rng):
        x = rng.uniform(-1, 1, size=shape).astype(dtype)
        if attrs.get("pool_type") == "lp" and attrs.get("p_value") != 1:
            x = np.abs(x) + 0.5  # keep (x / y)^(p-1) and the root away from zero
        y = pool_ref(x, **attrs)
        return [rng.uniform(-1, 1, size=y.shape).astype(dtype), x, y]
    fwd = Case(inputs=lambda rng: bwd_inputs(rng)[1:2], attrs=attrs, ref=pool_ref, ref_takes_attrs=True,
               name=name, **_tol(dtype))
    check = fd_check(lambda x, y, **a: pool_ref(x, **a), [0]) if fd else None
    bwd = Case(inputs=bwd_inputs, attrs=attrs, ref=pool_bwd_ref, ref_takes_attrs=True, name=name, check=check,
               **_tol(dtype))
    return fwd, bwd


def fc_cases(shape, name, dtype=F32, fd=False, **attrs):
    hidden, flatten = attrs["num_hidden"], attrs.get("flatten", True)
    bias = not attrs.get("no_bias", False)
    in_dim = int(np.prod(shape[1:])) if flatten else shape[-1]
    out = (shape[0], hidden) if flatten else tuple(shape[:-1]) + (hidden,)
    fwd_in = [_u(shape, dtype), _u((hidden, in_dim), dtype)] + ([_u((hidden,), dtype)] if bias else [])
    bwd = _case([_u(out, dtype), _u(shape, dtype), _u((hidden, in_dim), dtype)], fc_bwd_ref, attrs, dtype, name,
                fd_check(lambda x, w, **a: fc_ref(x, w, **a), [0, 1]) if fd else None, atol32=5e-4)
    return _case(fwd_in, fc_ref, attrs, dtype, name), bwd


def _table(pairs):
    fwd, bwd = zip(*pairs)
    return list(fwd), list(bwd)


FC, FC_BWD = _table([
    fc_cases((4, 10), "basic", num_hidden=5),
    fc_cases((2, 3, 4, 5), "flatten_4d", num_hidden=7),
    fc_cases((2, 3, 6), "flatten_false", num_hidden=4, flatten=False),
    fc_cases((5, 8), "no_bias", num_hidden=3, no_bias=True),
    fc_cases((6, 9), "float64", F64, num_hidden=4),
    fc_cases((3, 4), "fd_float64", F64, fd=True, num_hidden=2),
    fc_cases((64, 800), "lenet_fc1", num_hidden=500),
])

CONV, CONV_BWD = _table([
    conv_cases((2, 3, 7, 7), "basic", kernel=(3, 3), num_filter=4),
    conv_cases((2, 3, 9, 8), "stride_pad", kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=5),
    conv_cases((1, 2, 9, 9), "dilate", kernel=(3, 3), dilate=(2, 2), pad=(2, 1), num_filter=3),
    conv_cases((2, 4, 6, 6), "groups", kernel=(3, 3), num_group=2, num_filter=6, pad=(1, 1)),
    conv_cases((2, 4, 6, 6), "depthwise", kernel=(3, 3), num_group=4, num_filter=4, pad=(1, 1)),
    conv_cases((2, 3, 11), "1d", kernel=(3,), stride=(2,), pad=(1,), num_filter=4),
    conv_cases((2, 3, 10), "1d_dilate_groups", kernel=(2,), dilate=(3,), num_group=3, num_filter=6),
    conv_cases((2, 3, 6, 6), "no_bias", bias=False, kernel=(3, 3), num_filter=4),
    conv_cases((2, 3, 6, 5), "float64", F64, kernel=(2, 3), stride=(1, 2), pad=(1, 0), num_filter=3),
    conv_cases((2, 6, 5, 5), "pointwise", kernel=(1, 1), num_filter=4),
    conv_cases((2, 6, 8, 8), "pointwise_stride2", kernel=(1, 1), stride=(2, 2), num_filter=4),
    conv_cases((1, 2, 4, 5, 5), "3d", kernel=(2, 3, 3), pad=(0, 1, 1), stride=(1, 2, 1), num_filter=3),
    conv_cases((8, 8, 16, 16), "batch_threads", kernel=(3, 3), pad=(1, 1), num_filter=8),
    conv_cases((2, 16, 32, 32), "large_gemm", kernel=(3, 3), pad=(1, 1), num_filter=32),
    conv_cases((1, 2, 5, 5), "fd_float64", F64, fd=True, kernel=(3, 3), stride=(2, 2), pad=(1, 1),
               num_group=2, num_filter=2),
    conv_cases((2, 3, 6, 6), "layout_given", kernel=(3, 3), num_filter=2, layout="NCHW", workspace=512,
               cudnn_tune="fastest", cudnn_off=True),
])

DECONV, DECONV_BWD = _table([
    deconv_cases((2, 3, 4, 4), "basic", kernel=(3, 3), num_filter=4),
    deconv_cases((2, 3, 4, 5), "stride_pad_adj", kernel=(3, 3), stride=(2, 2), pad=(1, 1), adj=(1, 0),
                 num_filter=2),
    deconv_cases((2, 3, 4, 4), "bias", bias=True, kernel=(2, 2), stride=(2, 2), num_filter=5),
    deconv_cases((1, 4, 5, 5), "groups_dilate", kernel=(3, 3), dilate=(2, 2), num_group=2, num_filter=6),
    deconv_cases((2, 2, 4, 4), "target_shape", kernel=(4, 4), stride=(2, 2), target_shape=(8, 8), num_filter=3),
    deconv_cases((2, 3, 6), "1d", kernel=(3,), stride=(2,), pad=(1,), num_filter=2),
    deconv_cases((2, 3, 4, 4), "float64", F64, bias=True, kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                 num_filter=2),
    deconv_cases((8, 16, 8, 8), "batch_threads", kernel=(4, 4), stride=(2, 2), pad=(1, 1), num_filter=8),
    deconv_cases((1, 2, 3, 3), "fd_float64", F64, fd=True, bias=True, kernel=(3, 3), stride=(2, 2),
                 pad=(1, 1), adj=(1, 1), num_filter=2),
])

POOL, POOL_BWD = _table([
    pool_cases((2, 3, 8, 8), "max", kernel=(2, 2), stride=(2, 2)),
    pool_cases((2, 3, 7, 7), "max_pad", kernel=(3, 3), stride=(2, 2), pad=(1, 1)),
    pool_cases((2, 3, 7, 7), "avg_pad", kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg"),
    pool_cases((2, 3, 7, 7), "avg_exclude_pad", kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
               count_include_pad=False),
    pool_cases((2, 3, 6, 6), "sum", kernel=(3, 3), stride=(1, 1), pad=(1, 1), pool_type="sum"),
    pool_cases((2, 3, 8, 8), "max_full", kernel=(3, 3), stride=(2, 2), pooling_convention="full"),
    pool_cases((2, 3, 8, 8), "avg_full", kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
               pooling_convention="full"),
    pool_cases((2, 3, 8, 8), "avg_full_exclude", kernel=(3, 3), stride=(2, 2), pool_type="avg",
               pooling_convention="full", count_include_pad=False),
    pool_cases((2, 3, 5, 6), "global_max", global_pool=True),
    pool_cases((2, 3, 5, 6), "global_avg", global_pool=True, pool_type="avg", kernel=(1, 1)),
    pool_cases((2, 3, 10), "1d_max", kernel=(3,), stride=(2,), pad=(1,)),
    pool_cases((2, 3, 10), "1d_avg_full", kernel=(3,), stride=(3,), pool_type="avg", pooling_convention="full"),
    pool_cases((2, 3, 9), "1d_same", kernel=(3,), stride=(2,), pooling_convention="same"),
    pool_cases((2, 2, 6, 6), "lp2", kernel=(2, 2), stride=(2, 2), pool_type="lp", p_value=2),
    pool_cases((2, 2, 6, 6), "lp3", kernel=(3, 3), stride=(1, 1), pool_type="lp", p_value=3),
    pool_cases((2, 2, 6, 6), "lp1", kernel=(2, 2), stride=(2, 2), pool_type="lp", p_value=1),
    pool_cases((2, 3, 7, 7), "float64_max", F64, kernel=(3, 3), stride=(2, 2), pad=(1, 1)),
    pool_cases((2, 3, 7, 7), "float64_avg", F64, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg"),
    pool_cases((1, 2, 4, 4, 4), "3d_avg", kernel=(2, 2, 2), stride=(2, 2, 2), pool_type="avg"),
    pool_cases((16, 32, 16, 16), "max_threads", kernel=(3, 3), stride=(2, 2), pad=(1, 1)),
    pool_cases((1, 2, 5, 5), "fd_float64_avg", F64, fd=True, kernel=(3, 3), stride=(2, 2), pad=(1, 1),
               pool_type="avg"),
    pool_cases((1, 2, 4, 4), "fd_float64_lp", F64, fd=True, kernel=(2, 2), stride=(1, 1), pool_type="lp",
               p_value=2),
])

CASES = {
    "FullyConnected": FC,
    "_backward_FullyConnected": FC_BWD,
    "Convolution": CONV,
    "_backward_Convolution": CONV_BWD,
    "Deconvolution": DECONV,
    "_backward_Deconvolution": DECONV_BWD,
    "Pooling": POOL,
    "_backward_Pooling": POOL_BWD,
}
