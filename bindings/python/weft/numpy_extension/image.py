"""weft.npx.image: MXNet 1.9.1's ``mxnet.numpy_extension.image`` (issue 37).

Note [npx.image over weft.image]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
In MXNet, ``npx.image`` re-exports ``mx.image``'s functions and classes and the
``_image_*`` operators (to_tensor, normalize, resize, crop, flips, colour
jitter, lighting); in NumPy mode they produce ``mx.np.ndarray``. Weft's
implementations are the same code as ``weft.image`` and ``weft.nd.image``:
each function here calls its weft.image / weft.nd.image counterpart (np arrays
are NDArrays, so they go in as they are) and hands back every array of the
result as a ``weft.np.ndarray`` (a no-copy view over the same chunk, so an
input returned unchanged keeps its own class). Each augmenter class is a
subclass of weft.image's with the same name and arguments whose ``__call__``
returns np arrays; ``CreateAugmenter`` returns those subclasses, and
``ImageIter`` yields batches of np arrays.
"""
# pylint: disable=invalid-name
import functools

from .. import image as _image
from ..ndarray import image as _ndimage
from ..ndarray.ndarray import NDArray as _NDArray
from ..numpy._array import _clone, ndarray as _ndarray

_FUNCS_IMAGE = ["imread", "imdecode", "imresize", "scale_down", "resize_short", "fixed_crop", "random_crop",
                "center_crop", "color_normalize", "random_size_crop", "copyMakeBorder", "imrotate", "random_rotate"]
_FUNCS_OPS = ["adjust_lighting", "crop", "flip_left_right", "flip_top_bottom", "normalize", "random_brightness",
              "random_color_jitter", "random_contrast", "random_flip_left_right", "random_flip_top_bottom",
              "random_hue", "random_lighting", "random_saturation", "resize", "to_tensor"]
_AUGS = ["Augmenter", "SequentialAug", "ResizeAug", "ForceResizeAug", "RandomCropAug", "RandomSizedCropAug",
         "CenterCropAug", "RandomOrderAug", "BrightnessJitterAug", "ContrastJitterAug", "SaturationJitterAug",
         "HueJitterAug", "ColorJitterAug", "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug",
         "CastAug", "DetAugmenter", "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug", "DetRandomCropAug",
         "DetRandomPadAug"]
_FACTORIES = ["CreateAugmenter", "CreateDetAugmenter", "CreateMultiRandCropAugmenter"]

__all__ = _FUNCS_IMAGE + _FUNCS_OPS + _AUGS + _FACTORIES + ["ImageIter", "ImageDetIter"]


def _to_np(x):
    """x with every NDArray in it (lists, tuples) as a weft.np.ndarray."""
    if isinstance(x, _ndarray):
        return x
    if isinstance(x, _NDArray):
        return _clone(x, _ndarray)
    if isinstance(x, list):
        return [_to_np(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_to_np(v) for v in x)
    return x


def _np_function(fn, name):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return _to_np(fn(*args, **kwargs))
    wrapper.__module__ = __name__
    wrapper.__qualname__ = name
    wrapper.__doc__ = "``npx.image.%s``: as weft.image / weft.nd.image's, with np arrays out.\n\n%s" \
        % (name, fn.__doc__ or "")
    return wrapper


for _name in _FUNCS_IMAGE:
    globals()[_name] = _np_function(getattr(_image, _name), _name)
for _name in _FUNCS_OPS:
    globals()[_name] = _np_function(getattr(_ndimage, _name), _name)


def _np_augmenter(base):
    def __call__(self, *args):  # (src) for image augmenters, (src, label) for detection ones
        return _to_np(base.__call__(self, *args))
    return type(base.__name__, (base,), {
        "__call__": __call__, "__module__": __name__, "__slots__": (),
        "__doc__": "``npx.image.%s``: weft.image's, returning np arrays.\n\n%s" % (base.__name__, base.__doc__ or "")})


_NP_AUG = {}
for _name in _AUGS:
    _base = getattr(_image, _name)
    _NP_AUG[_base] = globals()[_name] = _np_augmenter(_base)
del _name, _base


def _as_np_augmenter(a):
    if type(a) in _NP_AUG:  # pylint: disable=unidiomatic-typecheck
        a.__class__ = _NP_AUG[type(a)]  # the subclass adds no state (Note [npx.image over weft.image])
    return a


def _np_factory(fn, name):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        res = fn(*args, **kwargs)
        return [_as_np_augmenter(a) for a in res] if isinstance(res, list) else _as_np_augmenter(res)
    wrapper.__module__ = __name__
    wrapper.__doc__ = "``npx.image.%s``: as weft.image's, made of augmenters that return np arrays.\n\n%s" \
        % (name, fn.__doc__ or "")
    return wrapper


for _name in _FACTORIES:
    globals()[_name] = _np_factory(getattr(_image, _name), _name)
del _name


class ImageIter(_image.ImageIter):
    """``npx.image.ImageIter``: weft.image.ImageIter whose batches hold np arrays."""

    def next(self):
        batch = super().next()
        batch.data = _to_np(batch.data)
        batch.label = _to_np(batch.label)
        return batch


class ImageDetIter(_image.ImageDetIter):
    """``npx.image.ImageDetIter``: weft.image.ImageDetIter whose batches hold np arrays."""

    def next(self):
        batch = super().next()
        batch.data = _to_np(batch.data)
        batch.label = _to_np(batch.label)
        return batch
