"""Cases of the spatial family (core/op/spatial/): _contrib_BilinearResize2D,
_contrib_AdaptiveAvgPooling2D, _contrib_ROIAlign, ROIPooling and their backward
ops. References are written in float64 NumPy from MXNet's documented rules:
bilinear resizing and adaptive pooling as (out x in) interpolation/averaging
matrices applied along H and W (so the backward references are their exact
transposes); ROIAlign and ROIPooling as direct loops over rois, bins and
samples; ROIAlign's backward as central differences of that forward (it is
linear in data)."""
import math

import numpy as np

from .nn_ref import F16, F32, F64, C, derived, fd, ins, rand

# ---- _contrib_BilinearResize2D ---------------------------------------------------------------------


def resize_matrix(n_in, n_out, align):
    """(n_out, n_in) weights: MXNet's area_pixel_compute_scale / source_index and the two taps."""
    if align:
        scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        scale = n_in / n_out
    m = np.zeros((n_out, n_in))
    for d in range(n_out):
        r = scale * d if align else max(scale * (d + 0.5) - 0.5, 0.0)
        i0 = min(int(math.floor(r)), n_in - 1)
        i1 = i0 + 1 if i0 < n_in - 1 else i0
        lam = r - i0
        m[d, i0] += 1 - lam
        m[d, i1] += lam
    return m


def resize_out_size(shape, height=1, width=1, scale_height=None, scale_width=None, mode="size", like=None, **_):
    h, w = shape[2], shape[3]
    if mode == "size":
        return (int(scale_height * h) if scale_height is not None else height,
                int(scale_width * w) if scale_width is not None else width)
    if mode == "odd_scale":
        def odd(s, k):
            return int(s * k) if s % 2 == 0 else int((s - 1) * k) + 1
        return odd(h, scale_height), odd(w, scale_width)
    if mode == "like":
        return like.shape[2], like.shape[3]
    even = "even" in mode
    up = mode.endswith("_up")

    def fix(s):
        ok = (s % 2 == 0) if even else (s % 2 == 1)
        return s if ok else (s + 1 if up else s - 1)
    return fix(h), fix(w)


def resize_ref(**attrs):
    align = attrs.get("align_corners", True)

    def ref(x, like=None):
        oh, ow = resize_out_size(x.shape, like=like, **attrs)
        mh, mw = resize_matrix(x.shape[2], oh, align), resize_matrix(x.shape[3], ow, align)
        return np.einsum("oh,nchw,pw->ncop", mh, x.astype(F64), mw).astype(x.dtype)
    return ref


def resize_grad_ref(**attrs):
    align = attrs.get("align_corners", True)

    def ref(g, x, like=None):
        mh = resize_matrix(x.shape[2], g.shape[2], align)
        mw = resize_matrix(x.shape[3], g.shape[3], align)
        gx = np.einsum("oh,ncop,pw->nchw", mh, g.astype(F64), mw).astype(x.dtype)
        return gx if like is None else (gx, np.zeros_like(like))
    return ref


def resize_case(shape, name, dtype=F32, rtol=1e-5, atol=1e-6, like=None, **attrs):
    makers = [rand(shape, dtype)] + ([rand(like, dtype)] if like is not None else [])
    return C(ins(*makers), resize_ref(**attrs), name=name, rtol=rtol, atol=atol, **attrs)


def resize_grad_case(shape, name, dtype=F32, like=None, **attrs):
    oh, ow = resize_out_size(shape, like=np.zeros(like) if like is not None else None, **attrs)
    makers = [rand((shape[0], shape[1], oh, ow), dtype), rand(shape, dtype)]
    if like is not None:
        makers.append(rand(like, dtype))
    return C(ins(*makers), resize_grad_ref(**attrs), name=name, rtol=1e-5, atol=1e-6, **attrs)


# ---- _contrib_AdaptiveAvgPooling2D -----------------------------------------------------------------


def adaptive_matrix(n_in, n_out):
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        lo, hi = (o * n_in) // n_out, -((-(o + 1) * n_in) // n_out)
        m[o, lo:hi] = 1.0 / (hi - lo)
    return m


def adaptive_size(output_size=()):
    s = (output_size,) if isinstance(output_size, int) else tuple(output_size)
    return (1, 1) if not s else ((s[0], s[0]) if len(s) == 1 else s)


def adaptive_ref(output_size=()):
    oh, ow = adaptive_size(output_size)

    def ref(x):
        return np.einsum("oh,nchw,pw->ncop", adaptive_matrix(x.shape[2], oh), x.astype(F64),
                         adaptive_matrix(x.shape[3], ow)).astype(x.dtype)
    return ref


def adaptive_grad_ref(g, x):
    return np.einsum("oh,ncop,pw->nchw", adaptive_matrix(x.shape[2], g.shape[2]), g.astype(F64),
                     adaptive_matrix(x.shape[3], g.shape[3])).astype(x.dtype)


# ---- rois ------------------------------------------------------------------------------------------


def rois(num, batch, height, width, dtype=F32, cols=5, scale=1.0):
    """num rows [batch_index, x1, y1, x2, y2] inside an image of (height, width) / scale."""
    def make(rng):
        r = np.zeros((num, 5))
        r[:, 0] = rng.integers(0, batch, size=num)
        x = np.sort(rng.uniform(-0.5, width / scale + 0.5, size=(num, 2)), axis=1)
        y = np.sort(rng.uniform(-0.5, height / scale + 0.5, size=(num, 2)), axis=1)
        r[:, 1], r[:, 3] = x[:, 0], x[:, 1]
        r[:, 2], r[:, 4] = y[:, 0], y[:, 1]
        return (r if cols == 5 else r[:, 1:]).astype(dtype)
    return make


def _bilinear_caffe2(plane, y, x):
    h, w = plane.shape
    if y < -1.0 or y > h or x < -1.0 or x > w:
        return 0.0
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= h - 1:
        y0 = y1 = h - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * plane[y0, x0] + (1 - ly) * lx * plane[y0, x1] + ly * (1 - lx) * plane[y1, x0]
            + ly * lx * plane[y1, x1])


def roi_align64(x, r, pooled_size, spatial_scale, sample_ratio=-1, position_sensitive=False, aligned=False):
    x, r = np.asarray(x, F64), np.asarray(r, F64)
    ph, pw = (pooled_size * 2)[:2] if len(pooled_size) == 1 else pooled_size
    n, c, h, w = x.shape
    oc = c // (ph * pw) if position_sensitive else c
    out = np.zeros((r.shape[0], oc, ph, pw))
    off = 0.5 if aligned else 0.0
    for k, row in enumerate(r):
        b = int(row[0]) if r.shape[1] == 5 else 0
        box = row[1:] if r.shape[1] == 5 else row
        if not 0 <= b < n:
            continue
        x0, y0 = box[0] * spatial_scale - off, box[1] * spatial_scale - off
        rw, rh = box[2] * spatial_scale - off - x0, box[3] * spatial_scale - off - y0
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / ph, rw / pw
        gh = sample_ratio if sample_ratio > 0 else int(math.ceil(rh / ph))
        gw = sample_ratio if sample_ratio > 0 else int(math.ceil(rw / pw))
        count = max(gh * gw, 1)
        for ci in range(oc):
            for i in range(ph):
                for j in range(pw):
                    cin = (ci * ph + i) * pw + j if position_sensitive else ci
                    acc = 0.0
                    for iy in range(gh):
                        yy = y0 + i * bh + (iy + 0.5) * bh / gh
                        for ix in range(gw):
                            xx = x0 + j * bw + (ix + 0.5) * bw / gw
                            acc += _bilinear_caffe2(x[b, cin], yy, xx)
                    out[k, ci, i, j] = acc / count
    return out


def roi_align_ref(**attrs):
    def ref(x, r):
        return roi_align64(x, r, **attrs).astype(x.dtype)
    return ref


def roi_align_grad_ref(**attrs):
    def ref(g, x, r):
        return fd(lambda a: roi_align64(a, r, **attrs), [x], 0, g).astype(x.dtype), np.zeros_like(r)
    return ref


def _round_half_away(v):
    return int(math.floor(v + 0.5)) if v >= 0 else -int(math.floor(-v + 0.5))


def roi_pool_bins(r, h, w, ph, pw, spatial_scale):
    """For each roi: batch index and per bin (h0, h1, w0, w1), MXNet's rounding and clipping."""
    x1, y1, x2, y2 = (_round_half_away(v * spatial_scale) for v in r[1:5])
    rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
    bh, bw = rh / ph, rw / pw
    bins = {}
    for i in range(ph):
        for j in range(pw):
            h0 = min(max(int(math.floor(i * bh)) + y1, 0), h)
            h1 = min(max(int(math.ceil((i + 1) * bh)) + y1, 0), h)
            w0 = min(max(int(math.floor(j * bw)) + x1, 0), w)
            w1 = min(max(int(math.ceil((j + 1) * bw)) + x1, 0), w)
            bins[i, j] = (h0, h1, w0, w1)
    return int(r[0]), bins


def roi_pool64(x, r, pooled_size, spatial_scale):
    x = np.asarray(x, F64)
    ph, pw = pooled_size
    n, c, h, w = x.shape
    out = np.zeros((r.shape[0], c, ph, pw))
    idx = -np.ones_like(out)
    for k, row in enumerate(np.asarray(r, F64)):
        b, bins = roi_pool_bins(row, h, w, ph, pw, spatial_scale)
        if not 0 <= b < n:
            continue
        for (i, j), (h0, h1, w0, w1) in bins.items():
            if h1 <= h0 or w1 <= w0:
                continue
            for ci in range(c):
                win = x[b, ci, h0:h1, w0:w1]
                a = int(np.argmax(win))
                out[k, ci, i, j] = win.flat[a]
                idx[k, ci, i, j] = (h0 + a // win.shape[1]) * w + w0 + a % win.shape[1]
    return out, idx


def roi_pool_ref(**attrs):
    def ref(x, r):
        return roi_pool64(x, r, **attrs)[0].astype(x.dtype)
    return ref


def roi_pool_grad_ref(**attrs):
    def ref(g, x, r):
        _, idx = roi_pool64(x, r, **attrs)
        n, c, h, w = x.shape
        gx = np.zeros((n, c, h * w))
        for k, row in enumerate(np.asarray(r, F64)):
            b = int(row[0])
            for ci in range(c):
                for (i, j), v in np.ndenumerate(idx[k, ci]):
                    if v >= 0:
                        gx[b, ci, int(v)] += g[k, ci, i, j]
        return gx.reshape(x.shape).astype(x.dtype), np.zeros_like(r)
    return ref


# ---- GridGenerator / BilinearSampler / SpatialTransformer ------------------------------------------


def target_grid(h, w):
    """(3, h * w) rows x, y, 1 of the normalised target points."""
    xs, ys = np.meshgrid(-1 + np.arange(w) * 2.0 / (w - 1), -1 + np.arange(h) * 2.0 / (h - 1))
    return np.stack([xs.ravel(), ys.ravel(), np.ones(h * w)])


def grid_affine64(theta, h, w):
    return (np.asarray(theta, F64).reshape(-1, 2, 3) @ target_grid(h, w)).reshape(-1, 2, h, w)


def grid_warp64(flow):
    flow = np.asarray(flow, F64)
    h, w = flow.shape[2:]
    ys, xs = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    return np.stack([(flow[:, 0] + xs) / ((w - 1) / 2.0) - 1, (flow[:, 1] + ys) / ((h - 1) / 2.0) - 1], axis=1)


def grid_ref(transform_type, target_shape=(0, 0)):
    def ref(x):
        g = grid_affine64(x, *target_shape) if transform_type == "affine" else grid_warp64(x)
        return g.astype(x.dtype)
    return ref


def grid_grad_ref(transform_type, target_shape=(0, 0)):
    def ref(g, x):
        if transform_type == "affine":
            n = x.shape[0]
            return (g.astype(F64).reshape(n, 2, -1) @ target_grid(*target_shape).T).reshape(n, 6).astype(x.dtype)
        h, w = x.shape[2:]
        half = np.array([(w - 1) / 2.0, (h - 1) / 2.0]).reshape(1, 2, 1, 1)
        return (g.astype(F64) / half).astype(x.dtype)
    return ref


def sample64(data, grid):
    """MXNet's BilinearSampler: source (x + 1) (W - 1) / 2, four taps, pixels outside read 0."""
    data, grid = np.asarray(data, F64), np.asarray(grid, F64)
    n, c, h, w = data.shape
    xr = (grid[:, 0] + 1) * (w - 1) / 2.0
    yr = (grid[:, 1] + 1) * (h - 1) / 2.0
    x0, y0 = np.floor(xr).astype(int), np.floor(yr).astype(int)
    wx, wy = 1 - (xr - x0), 1 - (yr - y0)
    out = np.zeros((n, c) + grid.shape[2:])
    for b in range(n):
        def px(yy, xx):
            ok = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
            return data[b][:, np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)] * ok
        out[b] = (px(y0[b], x0[b]) * wy[b] * wx[b] + px(y0[b], x0[b] + 1) * wy[b] * (1 - wx[b])
                  + px(y0[b] + 1, x0[b]) * (1 - wy[b]) * wx[b] + px(y0[b] + 1, x0[b] + 1) * (1 - wy[b]) * (1 - wx[b]))
    return out


def sampler_grad_ref(g, x, grid):
    return (fd(lambda a: sample64(a, grid), [x], 0, g).astype(x.dtype),
            fd(lambda b: sample64(x, b), [grid], 0, g).astype(grid.dtype))


def transformer64(data, loc, target_shape):
    return sample64(data, grid_affine64(loc, *target_shape))


def transformer_ref(target_shape, **_):
    def ref(x, loc):
        return transformer64(x, loc, target_shape).astype(x.dtype)
    return ref


def transformer_grad_ref(target_shape, **_):
    def ref(g, x, loc):
        f = lambda a, b: transformer64(a, b, target_shape)  # noqa: E731
        return fd(f, [x, loc], 0, g).astype(x.dtype), fd(f, [x, loc], 1, g).astype(loc.dtype)
    return ref


def theta(n, dtype=F32):
    """Affine matrices near the identity, so most sample points fall inside the map."""
    def make(rng):
        t = np.tile(np.array([1.0, 0, 0, 0, 1.0, 0]), (n, 1)) + rng.uniform(-0.3, 0.3, size=(n, 6))
        return t.astype(dtype)
    return make


ST = dict(target_shape=(4, 5), transform_type="affine", sampler_type="bilinear")

# ---- deformable convolutions ----------------------------------------------------------------------


def _dcn_read(plane, y, x):
    h, w = plane.shape
    if not (y > -1 and x > -1 and y < h and x < w):
        return 0.0
    y0, x0 = int(math.floor(y)), int(math.floor(x))
    ly, lx = y - y0, x - x0

    def v(yy, xx):
        return plane[yy, xx] if 0 <= yy < h and 0 <= xx < w else 0.0
    return ((1 - ly) * (1 - lx) * v(y0, x0) + (1 - ly) * lx * v(y0, x0 + 1) + ly * (1 - lx) * v(y0 + 1, x0)
            + ly * lx * v(y0 + 1, x0 + 1))


def deform_conv64(x, offset, mask, weight, bias, kernel, stride=(1, 1), dilate=(1, 1), pad=(0, 0), num_group=1,
                  num_deformable_group=1, **_):
    """Deformable convolution v1 (mask None) / v2 from the DCN papers' sampling rule, in float64."""
    x, offset, weight = (np.asarray(a, F64) for a in (x, offset, weight))
    n, c, h, w = x.shape
    kh, kw = kernel
    oh = (h + 2 * pad[0] - (dilate[0] * (kh - 1) + 1)) // stride[0] + 1
    ow = (w + 2 * pad[1] - (dilate[1] * (kw - 1) + 1)) // stride[1] + 1
    cpg = c // num_deformable_group
    col = np.zeros((n, c, kh, kw, oh, ow))
    for b in range(n):
        for ci in range(c):
            dg = ci // cpg
            for i in range(kh):
                for j in range(kw):
                    tap = i * kw + j
                    for yo in range(oh):
                        for xo in range(ow):
                            dy = offset[b, dg * 2 * kh * kw + 2 * tap, yo, xo]
                            dx = offset[b, dg * 2 * kh * kw + 2 * tap + 1, yo, xo]
                            y = yo * stride[0] - pad[0] + i * dilate[0] + dy
                            xx = xo * stride[1] - pad[1] + j * dilate[1] + dx
                            m = 1.0 if mask is None else float(mask[b, dg * kh * kw + tap, yo, xo])
                            col[b, ci, i, j, yo, xo] = m * _dcn_read(x[b, ci], y, xx)
    f = weight.shape[0]
    fg, cg = f // num_group, c // num_group
    out = np.zeros((n, f, oh, ow))
    for gr in range(num_group):
        out[:, gr * fg:(gr + 1) * fg] = np.einsum("fcij,ncijyx->nfyx", weight[gr * fg:(gr + 1) * fg],
                                                  col[:, gr * cg:(gr + 1) * cg])
    if bias is not None:
        out += np.asarray(bias, F64).reshape(1, -1, 1, 1)
    return out


def deform_ref(modulated, **attrs):
    def ref(*xs):
        x, offset = xs[0], xs[1]
        mask = xs[2] if modulated else None
        rest = xs[3:] if modulated else xs[2:]
        bias = None if attrs.get("no_bias") else rest[1]
        return deform_conv64(x, offset, mask, rest[0], bias, **attrs).astype(x.dtype)
    return ref


def deform_grad_ref(modulated, **attrs):
    """Central differences of deform_conv64 for every input; bias's gradient is out_grad summed."""
    def ref(g, *xs):
        def f(*a):
            return deform_conv64(a[0], a[1], a[2] if modulated else None, a[-1], None, **attrs)
        grads = [fd(f, list(xs), k, g).astype(xs[0].dtype) for k in range(len(xs))]
        if not attrs.get("no_bias"):
            grads.append(np.asarray(g, F64).sum(axis=(0, 2, 3)).astype(xs[0].dtype))
        return tuple(grads)
    return ref


def deform_inputs(n, c, hw, f, kernel, out_hw, dg=1, groups=1, modulated=False, bias=True, dtype=F32, grad=False):
    kh, kw = kernel
    makers = [rand((n, f, out_hw[0], out_hw[1]), dtype)] if grad else []
    makers += [rand((n, c) + hw, dtype), rand((n, 2 * dg * kh * kw) + out_hw, dtype, -1.5, 1.5)]
    if modulated:
        makers.append(rand((n, dg * kh * kw) + out_hw, dtype, 0.0, 1.0))
    makers.append(rand((f, c // groups, kh, kw), dtype))
    if bias and not grad:
        makers.append(rand((f,), dtype))
    return ins(*makers)


DCN = dict(kernel=(3, 3), pad=(1, 1), num_filter=3)
DCN_G = dict(kernel=(3, 3), stride=(2, 2), dilate=(2, 2), pad=(2, 2), num_filter=4, num_group=2,
             num_deformable_group=2, no_bias=True)
DCN_S = dict(kernel=(2, 2), num_filter=2)

# ---- _contrib_PSROIPooling -------------------------------------------------------------------------


def psroi_bins(row, h, w, pooled, spatial_scale):
    x0, y0 = _round_half_away(row[1]) * spatial_scale, _round_half_away(row[2]) * spatial_scale
    x1, y1 = (_round_half_away(row[3]) + 1) * spatial_scale, (_round_half_away(row[4]) + 1) * spatial_scale
    rw, rh = max(x1 - x0, 0.1), max(y1 - y0, 0.1)
    bh, bw = rh / pooled, rw / pooled
    bins = {}
    for i in range(pooled):
        for j in range(pooled):
            bins[i, j] = (min(max(int(math.floor(i * bh + y0)), 0), h), min(max(int(math.ceil((i + 1) * bh + y0)), 0), h),
                          min(max(int(math.floor(j * bw + x0)), 0), w), min(max(int(math.ceil((j + 1) * bw + x0)), 0), w))
    return bins


def psroi64(x, r, spatial_scale, output_dim, pooled_size, group_size=0):
    x = np.asarray(x, F64)
    gs = group_size or pooled_size
    n, c, h, w = x.shape
    out = np.zeros((r.shape[0], output_dim, pooled_size, pooled_size))
    for k, row in enumerate(np.asarray(r, F64)):
        b = int(row[0])
        for (i, j), (h0, h1, w0, w1) in psroi_bins(row, h, w, pooled_size, spatial_scale).items():
            if h1 <= h0 or w1 <= w0:
                continue
            gi, gj = min(i * gs // pooled_size, gs - 1), min(j * gs // pooled_size, gs - 1)
            for co in range(output_dim):
                out[k, co, i, j] = x[b, (co * gs + gi) * gs + gj, h0:h1, w0:w1].mean()
    return out


def psroi_ref(**attrs):
    def ref(x, r):
        return psroi64(x, r, **attrs).astype(x.dtype)
    return ref


def psroi_grad_ref(**attrs):
    def ref(g, x, r):
        return fd(lambda a: psroi64(a, r, **attrs), [x], 0, g).astype(x.dtype), np.zeros_like(r)
    return ref


PS = dict(spatial_scale=0.5, output_dim=2, pooled_size=3)
PS_G = dict(spatial_scale=1.0, output_dim=3, pooled_size=3, group_size=2)

# ---- Correlation -----------------------------------------------------------------------------------


def correlation64(a, b, kernel_size=1, max_displacement=1, stride1=1, stride2=1, pad_size=0, is_multiply=True):
    """FlowNet's correlation as MXNet documents it, on zero-padded inputs, in float64."""
    a, b = (np.pad(np.asarray(v, F64), ((0, 0), (0, 0), (pad_size,) * 2, (pad_size,) * 2)) for v in (a, b))
    n, c, ph, pw = a.shape
    border = max_displacement + (kernel_size - 1) // 2
    oh = -(-(ph - 2 * border) // stride1)
    ow = -(-(pw - 2 * border) // stride1)
    rad = max_displacement // stride2
    grid = 2 * rad + 1
    out = np.zeros((n, grid * grid, oh, ow))
    k = kernel_size
    for i in range(oh):
        for j in range(ow):
            y1, x1 = i * stride1 + max_displacement, j * stride1 + max_displacement
            p1 = a[:, :, y1:y1 + k, x1:x1 + k]
            for t in range(grid * grid):
                y2 = y1 + (t // grid - rad) * stride2
                x2 = x1 + (t % grid - rad) * stride2
                p2 = b[:, :, y2:y2 + k, x2:x2 + k]
                v = p1 * p2 if is_multiply else np.abs(p1 - p2)
                out[:, t, i, j] = v.sum(axis=(1, 2, 3)) / (k * k * c)
    return out


def correlation_ref(**attrs):
    def ref(a, b):
        return correlation64(a, b, **attrs).astype(a.dtype)
    return ref


def correlation_grad_ref(**attrs):
    def ref(g, a, b):
        f = lambda x, y: correlation64(x, y, **attrs)  # noqa: E731
        return fd(f, [a, b], 0, g).astype(a.dtype), fd(f, [a, b], 1, g).astype(b.dtype)
    return ref


CORR = dict(kernel_size=3, max_displacement=2, stride1=1, stride2=1, pad_size=2)
CORR_S = dict(kernel_size=1, max_displacement=2, stride1=2, stride2=2, pad_size=1, is_multiply=False)

# ---- _contrib_RROIAlign ----------------------------------------------------------------------------


def rroi_align64(x, r, pooled_size, spatial_scale, sampling_ratio=-1):
    x = np.asarray(x, F64)
    ph, pw = pooled_size
    n, c, h, w = x.shape
    out = np.zeros((r.shape[0], c, ph, pw))
    for k, row in enumerate(np.asarray(r, F64)):
        b = int(row[0])
        if not 0 <= b < n:
            continue
        cx, cy = row[1] * spatial_scale, row[2] * spatial_scale
        rw, rh = max(row[3] * spatial_scale, 1.0), max(row[4] * spatial_scale, 1.0)
        ct, st = math.cos(math.radians(row[5])), math.sin(math.radians(row[5]))
        bh, bw = rh / ph, rw / pw
        gh = sampling_ratio if sampling_ratio > 0 else int(math.ceil(rh / ph))
        gw = sampling_ratio if sampling_ratio > 0 else int(math.ceil(rw / pw))
        for ci in range(c):
            for i in range(ph):
                for j in range(pw):
                    acc = 0.0
                    for iy in range(gh):
                        yy = -rh / 2 + i * bh + (iy + 0.5) * bh / gh
                        for ix in range(gw):
                            xx = -rw / 2 + j * bw + (ix + 0.5) * bw / gw
                            acc += _bilinear_caffe2(x[b, ci], yy * ct - xx * st + cy, xx * ct + yy * st + cx)
                    out[k, ci, i, j] = acc / max(gh * gw, 1)
    return out


def rotated_rois(num, batch, height, width, dtype=F32):
    def make(rng):
        r = np.zeros((num, 6))
        r[:, 0] = rng.integers(0, batch, size=num)
        r[:, 1] = rng.uniform(0, width, size=num)
        r[:, 2] = rng.uniform(0, height, size=num)
        r[:, 3] = rng.uniform(0.5, width, size=num)
        r[:, 4] = rng.uniform(0.5, height, size=num)
        r[:, 5] = rng.uniform(-90, 90, size=num)
        return r.astype(dtype)
    return make


# ---- _contrib_DeformablePSROIPooling ---------------------------------------------------------------


def dpsroi64(x, r, trans, spatial_scale, output_dim, group_size, pooled_size, part_size=0, sample_per_part=1,
             trans_std=0.0, no_trans=False):
    """Deformable PS roi pooling as the deformable R-FCN paper and MXNet's docs describe it, in float64."""
    x = np.asarray(x, F64)
    n, c, h, w = x.shape
    part = part_size or pooled_size
    classes = 1 if no_trans else trans.shape[1] // 2
    per_class = output_dim // classes
    out = np.zeros((r.shape[0], output_dim, pooled_size, pooled_size))
    for k, row in enumerate(np.asarray(r, F64)):
        b = int(row[0])
        xs, ys = _round_half_away(row[1]) * spatial_scale - 0.5, _round_half_away(row[2]) * spatial_scale - 0.5
        xe = (_round_half_away(row[3]) + 1) * spatial_scale - 0.5
        ye = (_round_half_away(row[4]) + 1) * spatial_scale - 0.5
        rw, rh = max(xe - xs, 0.1), max(ye - ys, 0.1)
        bw, bh = rw / pooled_size, rh / pooled_size
        for co in range(output_dim):
            cls = co // per_class
            for i in range(pooled_size):
                for j in range(pooled_size):
                    ph, pw = i * part // pooled_size, j * part // pooled_size
                    dx = 0.0 if no_trans else trans[k, 2 * cls, ph, pw] * trans_std
                    dy = 0.0 if no_trans else trans[k, 2 * cls + 1, ph, pw] * trans_std
                    x0, y0 = j * bw + xs + dx * rw, i * bh + ys + dy * rh
                    gi, gj = min(i * group_size // pooled_size, group_size - 1), min(j * group_size // pooled_size,
                                                                                      group_size - 1)
                    plane = x[b, (co * group_size + gi) * group_size + gj]
                    acc, cnt = 0.0, 0
                    for ih in range(sample_per_part):
                        for iw in range(sample_per_part):
                            xx = x0 + iw * bw / sample_per_part
                            yy = y0 + ih * bh / sample_per_part
                            if xx < -0.5 or xx > w - 0.5 or yy < -0.5 or yy > h - 0.5:
                                continue
                            xx, yy = min(max(xx, 0.0), w - 1.0), min(max(yy, 0.0), h - 1.0)
                            x1, x2, y1, y2 = math.floor(xx), math.ceil(xx), math.floor(yy), math.ceil(yy)
                            fx, fy = xx - x1, yy - y1
                            acc += ((1 - fx) * (1 - fy) * plane[y1, x1] + (1 - fx) * fy * plane[y2, x1]
                                    + fx * (1 - fy) * plane[y1, x2] + fx * fy * plane[y2, x2])
                            cnt += 1
                    out[k, co, i, j] = acc / cnt if cnt else 0.0
    return out


def dpsroi_ref(**attrs):
    def ref(x, r, trans=None):
        return dpsroi64(x, r, trans, **attrs).astype(x.dtype)
    return ref


def dpsroi_grad_ref(**attrs):
    def ref(g, x, r, trans=None):
        gx = fd(lambda a: dpsroi64(a, r, trans, **attrs), [x], 0, g).astype(x.dtype)
        if trans is None:
            return gx, np.zeros_like(r)
        gt = fd(lambda t: dpsroi64(x, r, t, **attrs), [trans], 0, g).astype(trans.dtype)
        return gx, np.zeros_like(r), gt
    return ref


DPS = dict(spatial_scale=0.5, output_dim=2, group_size=2, pooled_size=2, part_size=2, sample_per_part=2,
           trans_std=0.1)
DPS_NT = dict(spatial_scale=1.0, output_dim=2, group_size=3, pooled_size=3, sample_per_part=1, no_trans=True)

ALIGN = dict(pooled_size=(2, 3), spatial_scale=0.5)
POOL = dict(pooled_size=(2, 2), spatial_scale=0.5)

CASES = {
    "_contrib_BilinearResize2D": [
        resize_case((2, 3, 4, 5), "up_align", height=7, width=9),
        resize_case((1, 2, 6, 7), "down_noalign", height=4, width=3, align_corners=False),
        resize_case((1, 2, 4, 4), "up_noalign_f64", F64, height=9, width=6, align_corners=False),
        resize_case((1, 1, 4, 6), "scale", scale_height=1.5, scale_width=0.5),
        resize_case((1, 2, 5, 4), "odd_scale", mode="odd_scale", scale_height=2.0, scale_width=2.0),
        resize_case((2, 1, 3, 3), "like", like=(1, 4, 5, 6), mode="like"),
        resize_case((1, 1, 5, 4), "to_even_down", mode="to_even_down"),
        resize_case((1, 1, 5, 4), "to_odd_up", mode="to_odd_up", align_corners=False),
        resize_case((1, 1, 1, 3), "one_row", height=1, width=1),
        resize_case((1, 2, 3, 4), "f16", F16, rtol=2e-3, atol=2e-3, height=5, width=7),
    ],
    "_backward_contrib_BilinearResize2D": [
        resize_grad_case((2, 2, 4, 5), "align", height=7, width=3),
        resize_grad_case((1, 2, 5, 3), "noalign_f64", F64, height=3, width=8, align_corners=False),
        resize_grad_case((1, 1, 3, 4), "like", like=(1, 1, 6, 2), mode="like"),
    ],
    "_contrib_AdaptiveAvgPooling2D": [
        C(ins(rand((2, 3, 7, 5))), adaptive_ref((3, 2)), name="overlapping_bins", output_size=(3, 2)),
        C(ins(rand((1, 2, 8, 8), F64)), adaptive_ref(4), name="int", output_size=4),
        C(ins(rand((1, 2, 5, 6))), adaptive_ref(), name="global"),
        C(ins(rand((1, 1, 3, 2))), adaptive_ref((5, 4)), name="upsample", output_size=(5, 4)),
        C(ins(rand((1, 2, 6, 6), F16)), adaptive_ref((2, 3)), name="f16", rtol=2e-3, atol=2e-3, output_size=(2, 3)),
    ],
    "_backward_contrib_AdaptiveAvgPooling2D": [
        C(ins(rand((2, 3, 3, 2)), rand((2, 3, 7, 5))), adaptive_grad_ref, name="overlapping", output_size=(3, 2)),
        C(ins(rand((1, 2, 1, 1), F64), rand((1, 2, 4, 3), F64)), adaptive_grad_ref, name="global"),
    ],
    "_contrib_ROIAlign": [
        C(ins(rand((2, 3, 8, 9)), rois(4, 2, 8, 9, scale=0.5)), roi_align_ref(**ALIGN), name="adaptive_grid",
          rtol=1e-4, atol=1e-5, **ALIGN),
        C(ins(rand((1, 2, 6, 6), F64), rois(3, 1, 6, 6, F64)), roi_align_ref(pooled_size=(3, 3), spatial_scale=1.0,
                                                                         sample_ratio=2),
          name="sample_ratio", pooled_size=(3, 3), spatial_scale=1.0, sample_ratio=2),
        C(ins(rand((1, 2, 6, 7), F64), rois(3, 1, 6, 7, F64)), roi_align_ref(pooled_size=(2, 2), spatial_scale=1.0,
                                                                         aligned=True),
          name="aligned", pooled_size=(2, 2), spatial_scale=1.0, aligned=True),
        C(ins(rand((2, 8, 5, 5), F64), rois(3, 2, 5, 5, F64)),
          roi_align_ref(pooled_size=(2, 2), spatial_scale=1.0, position_sensitive=True, sample_ratio=2),
          name="position_sensitive", pooled_size=(2, 2), spatial_scale=1.0, position_sensitive=True, sample_ratio=2),
        C(ins(rand((1, 2, 5, 5), F64), rois(2, 1, 5, 5, F64, cols=4)),
          roi_align_ref(pooled_size=(2, 2), spatial_scale=1.0), name="four_columns", pooled_size=(2, 2),
          spatial_scale=1.0),
    ],
    "_backward_ROIAlign": [
        C(derived(ins(rand((2, 2, 6, 7), F64), rois(3, 2, 6, 7, F64, scale=0.5)),
                  lambda rng, x, r: [rng.uniform(-1, 1, (3, 2, 2, 3)), x, r]),
          roi_align_grad_ref(**ALIGN), name="adaptive", rtol=1e-6, atol=1e-8, **ALIGN),
        C(derived(ins(rand((1, 8, 5, 5), F64), rois(3, 1, 5, 5, F64)),
                  lambda rng, x, r: [rng.uniform(-1, 1, (3, 2, 2, 2)), x, r]),
          roi_align_grad_ref(pooled_size=(2, 2), spatial_scale=1.0, position_sensitive=True, aligned=True),
          name="position_sensitive_aligned", rtol=1e-6, atol=1e-8, pooled_size=(2, 2), spatial_scale=1.0,
          position_sensitive=True, aligned=True),
    ],
    "ROIPooling": [
        C(ins(rand((2, 3, 8, 8)), rois(4, 2, 8, 8, scale=0.5)), roi_pool_ref(**POOL), name="scaled", **POOL),
        C(ins(rand((1, 2, 6, 7), F64), rois(3, 1, 6, 7, F64)), roi_pool_ref(pooled_size=(3, 2), spatial_scale=1.0),
          name="f64", pooled_size=(3, 2), spatial_scale=1.0),
        C(ins(np.arange(48, dtype=F32).reshape(1, 1, 8, 6),
              np.array([[0, 0, 0, 4, 4]], F32)),
          lambda x, r: roi_pool64(x, r, (2, 2), 1.0)[0].astype(F32), name="doc_example", pooled_size=(2, 2),
          spatial_scale=1.0),
    ],
    "_backward_ROIPooling": [
        C(derived(ins(rand((2, 2, 8, 8)), rois(4, 2, 8, 8, scale=0.5)),
                  lambda rng, x, r: [rng.uniform(-1, 1, (4, 2, 2, 2)).astype(F32), x, r]),
          roi_pool_grad_ref(**POOL), name="scaled", **POOL),
    ],
    "GridGenerator": [
        C(ins(rand((2, 6))), grid_ref("affine", (3, 4)), name="affine", transform_type="affine",
          target_shape=(3, 4)),
        C(ins(rand((2, 6), F64)), grid_ref("affine", (5, 2)), name="affine_f64", transform_type="affine",
          target_shape=(5, 2)),
        C(ins(rand((2, 2, 3, 4), F32, -2, 2)), grid_ref("warp"), name="warp", transform_type="warp"),
    ],
    "_backward_GridGenerator": [
        C(ins(rand((2, 2, 3, 4), F64), rand((2, 6), F64)), grid_grad_ref("affine", (3, 4)), name="affine",
          transform_type="affine", target_shape=(3, 4)),
        C(ins(rand((1, 2, 3, 5)), rand((1, 2, 3, 5))), grid_grad_ref("warp"), name="warp", transform_type="warp"),
    ],
    "BilinearSampler": [
        C(ins(rand((2, 3, 5, 6)), rand((2, 2, 4, 3), F32, -1.2, 1.2)), lambda x, g: sample64(x, g).astype(F32),
          name="partly_outside", rtol=1e-5, atol=1e-5),
        C(ins(rand((1, 2, 4, 4), F64), rand((1, 2, 6, 5), F64, -1, 1)), lambda x, g: sample64(x, g),
          name="f64", cudnn_off=True),
    ],
    "_backward_BilinearSampler": [
        C(ins(rand((1, 2, 3, 4), F64), rand((1, 2, 4, 5), F64), rand((1, 2, 3, 4), F64, -1.1, 1.1)),
          sampler_grad_ref, name="f64", rtol=1e-5, atol=1e-7),
    ],
    "SpatialTransformer": [
        C(ins(rand((2, 3, 6, 7)), theta(2)), transformer_ref(**ST), name="affine", rtol=1e-5, atol=1e-5, **ST),
        C(ins(rand((1, 2, 5, 5), F64), theta(1, F64)), transformer_ref((3, 3)), name="f64",
          target_shape=(3, 3), transform_type="affine", sampler_type="bilinear"),
    ],
    "_backward_SpatialTransformer": [
        C(ins(rand((2, 2, 4, 5), F64), rand((2, 2, 5, 6), F64), theta(2, F64)), transformer_grad_ref(**ST),
          name="f64", rtol=1e-5, atol=1e-7, **ST),
    ],
    "_contrib_DeformableConvolution": [
        C(deform_inputs(2, 4, (5, 5), 3, (3, 3), (5, 5)), deform_ref(False, **DCN), name="pad", rtol=1e-4, atol=1e-5,
          **DCN),
        C(deform_inputs(1, 4, (7, 7), 4, (3, 3), (4, 4), dg=2, groups=2, bias=False, dtype=F64),
          deform_ref(False, **DCN_G), name="grouped_strided_dilated", **DCN_G),
    ],
    "_contrib_ModulatedDeformableConvolution": [
        C(deform_inputs(2, 4, (5, 5), 3, (3, 3), (5, 5), modulated=True), deform_ref(True, **DCN), name="pad",
          rtol=1e-4, atol=1e-5, **DCN),
        C(deform_inputs(1, 4, (7, 7), 4, (3, 3), (4, 4), dg=2, groups=2, bias=False, modulated=True, dtype=F64),
          deform_ref(True, **DCN_G), name="grouped_strided_dilated", **DCN_G),
    ],
    "_backward_DeformableConvolution": [
        C(deform_inputs(1, 2, (4, 4), 2, (2, 2), (3, 3), dtype=F64, grad=True), deform_grad_ref(False, **DCN_S),
          name="f64", rtol=1e-5, atol=1e-7, **DCN_S),
    ],
    "_backward_ModulatedDeformableConvolution": [
        C(deform_inputs(1, 2, (4, 4), 2, (2, 2), (3, 3), dg=2, modulated=True, dtype=F64, grad=True),
          deform_grad_ref(True, num_deformable_group=2, **DCN_S), name="f64", rtol=1e-5, atol=1e-7,
          num_deformable_group=2, **DCN_S),
    ],
    "_contrib_PSROIPooling": [
        C(ins(rand((2, 18, 8, 8)), rois(4, 2, 8, 8, scale=0.5)), psroi_ref(**PS), name="scaled", **PS),
        C(ins(rand((1, 12, 6, 7), F64), rois(3, 1, 6, 7, F64)), psroi_ref(**PS_G), name="group_size", **PS_G),
    ],
    "_backward_PSROIPooling": [
        C(derived(ins(rand((1, 12, 6, 7), F64), rois(3, 1, 6, 7, F64)),
                  lambda rng, x, r: [rng.uniform(-1, 1, (3, 3, 3, 3)), x, r]),
          psroi_grad_ref(**PS_G), name="group_size", rtol=1e-6, atol=1e-8, **PS_G),
    ],
    "Correlation": [
        C(ins(rand((2, 3, 6, 7)), rand((2, 3, 6, 7))), correlation_ref(**CORR), name="multiply", rtol=1e-5,
          atol=1e-6, **CORR),
        C(ins(rand((1, 2, 7, 6), F64), rand((1, 2, 7, 6), F64)), correlation_ref(**CORR_S), name="absdiff_strided",
          **CORR_S),
        C(ins(rand((1, 2, 4, 4)), rand((1, 2, 4, 4))), correlation_ref(), name="defaults"),
    ],
    "_backward_Correlation": [
        C(ins(rand((1, 9, 4, 5), F64), rand((1, 2, 4, 5), F64), rand((1, 2, 4, 5), F64)),
          correlation_grad_ref(kernel_size=1, max_displacement=1, pad_size=1), name="multiply", rtol=1e-5, atol=1e-7,
          kernel_size=1, max_displacement=1, pad_size=1),
        C(ins(rand((1, 9, 2, 2), F64), rand((1, 2, 6, 6), F64), rand((1, 2, 6, 6), F64)),
          correlation_grad_ref(**CORR_S), name="absdiff_strided", rtol=1e-5, atol=1e-7, **CORR_S),
    ],
    "_contrib_RROIAlign": [
        C(ins(rand((2, 3, 8, 9)), rotated_rois(4, 2, 8, 9)),
          lambda x, r: rroi_align64(x, r, (2, 3), 1.0).astype(F32), name="adaptive", rtol=1e-4, atol=1e-5,
          pooled_size=(2, 3), spatial_scale=1.0),
        C(ins(rand((1, 2, 6, 6), F64), rotated_rois(3, 1, 12, 12, F64)),
          lambda x, r: rroi_align64(x, r, (2, 2), 0.5, 2), name="scaled_sampling_ratio", pooled_size=(2, 2),
          spatial_scale=0.5, sampling_ratio=2),
    ],
    "_contrib_DeformablePSROIPooling": [
        C(ins(rand((2, 8, 8, 8)), rois(3, 2, 8, 8, scale=0.5), rand((3, 4, 2, 2))), dpsroi_ref(**DPS),
          name="trans_two_classes", rtol=1e-5, atol=1e-5, **DPS),
        C(ins(rand((1, 18, 6, 7), F64), rois(3, 1, 6, 7, F64)), dpsroi_ref(**DPS_NT), name="no_trans", **DPS_NT),
    ],
    "_backward_DeformablePSROIPooling": [
        C(derived(ins(rand((1, 8, 6, 6), F64), rois(2, 1, 6, 6, F64, scale=0.5), rand((2, 4, 2, 2), F64)),
                  lambda rng, x, r, t: [rng.uniform(-1, 1, (2, 2, 2, 2)), x, r, t]),
          dpsroi_grad_ref(**DPS), name="trans", rtol=1e-5, atol=1e-7, **DPS),
    ],
}
