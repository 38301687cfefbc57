"""ImageRecordIter and ImageRecordUInt8Iter on the C++ pipeline (core/io/):
records read, decoded (libjpeg-turbo, libpng) and augmented by a C++ thread
pool of ``preprocess_threads``, ``prefetch_buffer`` batches made ahead, each
batch handed out as NDArrays (Note [ImageRecordIter engine pipeline] in
core/io/image_record_iter.h).

The interface and semantics are those of the Python implementation
(image_record_iter.py, still used for inter_method 2/3/4/9/10, which need
OpenCV's cubic/area/Lanczos resizers): MXNet's parameters, round_batch,
num_parts/part_index, label_width, shuffle reproducible from seed whatever the
thread count, errors naming the file and the record, the pixel budget
``weft.image.MAX_IMAGE_PIXELS`` (passed to C++ as max_image_pixels; Note
[Image pixel budget]). What differs: the shuffle
order and the random draws (a C++ generator, not numpy's), bilinear resizing
within one grey level of OpenCV's, and JPEG/PNG only (OpenCV also reads BMP,
TIFF, WebP).
"""
import numpy as np

from ..base import c_str, check_call, ffi, lib
from ..image_decode import max_image_pixels
from ..ndarray import NDArray
from . import image_record_iter as _py
from .base import BatchIter, DataBatch, DataDesc

__all__ = ["ImageRecordIter", "ImageRecordUInt8Iter"]

_NATIVE_INTER = (0, 1)  # nearest, bilinear




def _text(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, (tuple, list)):
        return "(" + ",".join(str(int(d)) for d in v) + ")"
    return str(v)


class ImageRecordIter(BatchIter):
    """Batches (batch, C, H, W) of the images of ``path_imgrec`` (float32,
    (pixel - mean_c) / std_c * scale, RGB), labels (batch,) or
    (batch, label_width), decoded and augmented in C++. Parameters as
    MXNet's ImageRecordIter: data_shape, batch_size, path_imgidx,
    label_width, shuffle, seed, seed_aug, num_parts / part_index (contiguous
    shares of the records), round_batch, resize, rand_crop,
    random_resized_crop (min/max_random_area, min/max_aspect_ratio),
    rand_mirror, brightness, contrast, saturation, pca_noise, inter_method,
    mean_r/g/b, std_r/g/b, scale, preprocess_threads, prefetch_buffer, dtype,
    data_name, label_name."""

    _normalize = True
    _python_impl = _py.ImageRecordIter

    def __new__(cls, *args, **kwargs):
        if kwargs.get("inter_method", 1) not in _NATIVE_INTER:
            return cls._python_impl(*args, **kwargs)  # OpenCV's other resizers: the Python pipeline
        return super().__new__(cls)

    def __init__(self, path_imgrec, data_shape, batch_size, path_imgidx="", label_width=1, shuffle=False, seed=0,
                 seed_aug=None, num_parts=1, part_index=0, round_batch=True, resize=-1, rand_crop=False,
                 random_resized_crop=False, min_random_area=1.0, max_random_area=1.0, min_aspect_ratio=None,
                 max_aspect_ratio=0.0, rand_mirror=False, brightness=0.0, contrast=0.0, saturation=0.0,
                 pca_noise=0.0, inter_method=1, mean_r=0.0, mean_g=0.0, mean_b=0.0, std_r=1.0, std_g=1.0, std_b=1.0,
                 scale=1.0, preprocess_threads=4, prefetch_buffer=4, dtype=None, data_name="data",
                 label_name="softmax_label", **kwargs):
        self._handle = None
        super().__init__(batch_size)
        data_shape = _py.check_args(type(self).__name__, "weft's ImageRecordIter", kwargs, data_shape, batch_size,
                                    preprocess_threads, prefetch_buffer, num_parts, part_index)
        self.path_imgrec = str(path_imgrec)
        params = dict(path_imgrec=self.path_imgrec, data_shape=data_shape, batch_size=int(batch_size),
                      label_width=int(label_width), shuffle=bool(shuffle), seed=int(seed),
                      num_parts=int(num_parts), part_index=int(part_index), round_batch=bool(round_batch),
                      resize=int(resize), rand_crop=bool(rand_crop), random_resized_crop=bool(random_resized_crop),
                      min_random_area=float(min_random_area), max_random_area=float(max_random_area),
                      max_aspect_ratio=float(max_aspect_ratio), rand_mirror=bool(rand_mirror),
                      brightness=float(brightness), contrast=float(contrast), saturation=float(saturation),
                      pca_noise=float(pca_noise), inter_method=int(inter_method), mean_r=float(mean_r),
                      mean_g=float(mean_g), mean_b=float(mean_b), std_r=float(std_r), std_g=float(std_g),
                      std_b=float(std_b), scale=float(scale), preprocess_threads=int(preprocess_threads),
                      prefetch_buffer=int(prefetch_buffer), normalize=self._normalize,
                      max_image_pixels=max_image_pixels())
        if path_imgidx:
            params["path_imgidx"] = str(path_imgidx)
        if seed_aug is not None:
            params["seed_aug"] = int(seed_aug)
        if min_aspect_ratio is not None:
            params["min_aspect_ratio"] = float(min_aspect_ratio)
        keys = [ffi.new("char[]", c_str(k, "ImageRecordIter: parameter name")) for k in params]
        vals = [ffi.new("char[]", c_str(_text(v), "ImageRecordIter: parameter value")) for v in params.values()]
        out = ffi.new("weft_image_record_iter**")
        check_call(lib.weft_image_record_iter_create(len(keys), keys, vals, out))
        self._handle = out[0]
        native = np.float32 if self._normalize else np.uint8
        self._dtype = np.dtype(dtype) if dtype is not None else np.dtype(native)
        self._convert = self._dtype != np.dtype(native)
        self._label_width = int(label_width)
        label_shape = (batch_size,) if self._label_width == 1 else (batch_size, self._label_width)
        self.provide_data = [DataDesc(data_name, (batch_size,) + data_shape, self._dtype)]
        self.provide_label = [DataDesc(label_name, label_shape, np.float32)]
        self._out = (ffi.new("int*"), ffi.new("weft_ndarray**"), ffi.new("weft_ndarray**"), ffi.new("int*"),
                     ffi.new("const uint64_t**"))
        self.current_batch = None

    def reset(self):
        check_call(lib.weft_image_record_iter_reset(self._handle))

    def iter_next(self):
        has, data, label, pad, index = self._out
        check_call(lib.weft_image_record_iter_next(self._handle, has, data, label, pad, index))
        if not has[0]:
            return False
        data_nd, label_nd = NDArray(data[0]), NDArray(label[0])
        if self._convert:
            data_nd = data_nd.astype(self._dtype)
        ids = np.frombuffer(ffi.buffer(index[0], 8 * self.batch_size), dtype=np.uint64).copy()
        self.current_batch = DataBatch([data_nd], [label_nd], pad=pad[0], index=ids,
                                       provide_data=self.provide_data, provide_label=self.provide_label)
        return True

    def __del__(self):
        h = getattr(self, "_handle", None)
        if h is not None:
            self._handle = None
            lib.weft_image_record_iter_free(h)


class ImageRecordUInt8Iter(ImageRecordIter):
    """ImageRecordIter without normalisation: uint8 (batch, C, H, W) batches
    (mean/std/scale are not applied)."""

    _normalize = False
    _python_impl = _py.ImageRecordUInt8Iter
