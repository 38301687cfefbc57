"""Shape changes worked out in Python: MXNet's reshape codes
(``infer_reshape``), broadcasting a value to a shape, ``moveaxis`` and
``concatenate``."""
# pylint: disable=protected-access,invalid-name
from ..base import InvalidArgumentError, NotFoundError, ShapeError
from .op_call import _call, has_op


def moveaxis(tensor, source, destination):
    """Moves an axis to a new position (via transpose)."""
    n = tensor.ndim
    source = source + n if source < 0 else source
    destination = destination + n if destination < 0 else destination
    if not (0 <= source < n and 0 <= destination < n):
        raise InvalidArgumentError("moveaxis: axis out of range for %d-d array" % n)
    axes = [i for i in range(n) if i != source]
    axes.insert(destination, source)
    return _call("transpose", [tensor], axes=tuple(axes))


def concatenate(arrays, axis=0, always_copy=True):  # pylint: disable=unused-argument
    """Joins arrays along an existing axis (MXNet's nd.concatenate)."""
    arrays = list(arrays)
    if not arrays:
        raise InvalidArgumentError("concatenate: no arrays given")
    for name in ("concat", "Concat"):
        if has_op(name):
            return _call(name, arrays, dim=axis, num_args=len(arrays))
    raise NotFoundError("operator 'concat' is not registered in this build of weft")


def _broadcast_to_nd(x, shape):
    """x (NDArray) broadcast to shape: a view when only leading 1s are missing,
    else the broadcast_to op."""
    shape = tuple(shape)
    xs = x.shape
    if xs == shape:
        return x
    if len(xs) > len(shape):
        if all(d == 1 for d in xs[:len(xs) - len(shape)]):
            return _broadcast_to_nd(x._view(xs[len(xs) - len(shape):]), shape)
        raise ShapeError("cannot broadcast a value of shape %s to shape %s" % (xs, shape))
    padded = (1,) * (len(shape) - len(xs)) + xs
    for a, b in zip(padded, shape):
        if a != b and a != 1:
            raise ShapeError("cannot broadcast a value of shape %s to shape %s" % (xs, shape))
    if padded != xs:
        x = x._view(padded)
    if padded == shape:
        return x
    return _call("broadcast_to", [x], shape=shape)


# ---- MXNet reshape codes --------------------------------------------------------------------
def infer_reshape(dshape, target, reverse=False):
    """The shape MXNet's reshape gives for codes 0, -1, -2, -3, -4 in target."""
    dshape = tuple(dshape)
    target = tuple(target)
    if reverse:
        dshape = dshape[::-1]
        target = target[::-1]
    out = []
    src = 0
    inf = -1
    i = 0
    bad = InvalidArgumentError("reshape: cannot reshape %s to %s%s"
                               % (dshape[::-1] if reverse else dshape, target[::-1] if reverse else target,
                                  " (reverse)" if reverse else ""))
    try:
        while i < len(target):
            p = target[i]
            if p > 0:
                out.append(p)
                src += 1
            elif p == 0:
                out.append(dshape[src])
                src += 1
            elif p == -1:
                if inf >= 0:
                    raise bad
                inf = len(out)
                out.append(1)
                src += 1
            elif p == -2:
                out.extend(dshape[src:])
                src = len(dshape)
            elif p == -3:
                out.append(dshape[src] * dshape[src + 1])
                src += 2
            elif p == -4:
                d0 = dshape[src]
                src += 1
                d1, d2 = target[i + 1], target[i + 2]
                i += 2
                if d1 == -1 and d2 != -1 and d2:
                    d1 = d0 // d2
                elif d2 == -1 and d1 != -1 and d1:
                    d2 = d0 // d1
                if d1 * d2 != d0 or d1 < 0 or d2 < 0:
                    raise bad
                out.extend((d1, d2))
            else:
                raise bad
            i += 1
    except IndexError:
        raise bad from None
    size = 1
    for d in dshape:
        size *= d
    if inf >= 0:
        known = 1
        for j, d in enumerate(out):
            if j != inf:
                known *= d
        if known == 0 or size % known:
            raise bad
        out[inf] = size // known
    total = 1
    for d in out:
        total *= d
    if total != size:
        raise ShapeError("reshape: cannot reshape array of shape %s (size %d) into shape %s"
                         % (dshape[::-1] if reverse else dshape, size, tuple(out[::-1] if reverse else out)))
    return tuple(out[::-1] if reverse else out)
